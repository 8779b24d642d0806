// Host memory for CPU tensors: 64-byte aligned (a cache line; wide enough for any vector load).
// Large blocks are 2 MiB aligned and asked to be backed by transparent huge pages, as NumPy does:
// far fewer page faults on a fresh output and TLB misses on strided (transposed) walks. Freed large
// blocks are kept for reuse (LargeBlockCache): a fresh 64 MiB output otherwise costs a page fault and
// the kernel's zeroing of every page, which takes longer than the op that fills it.
#include <array>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "ingot/storage.h"

namespace ingot::cpu {

namespace {

constexpr size_t kCpuAlignment = 64;
constexpr size_t kHugePage = size_t{2} << 20;
constexpr size_t kHugePageThreshold = size_t{4} << 20;

#if defined(__SANITIZE_ADDRESS__)
#define INGOT_CPU_BLOCK_CACHE 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define INGOT_CPU_BLOCK_CACHE 0
#endif
#endif
#ifndef INGOT_CPU_BLOCK_CACHE
#define INGOT_CPU_BLOCK_CACHE 1
#endif

// Small blocks freed on a thread are kept for its next allocations of the same rounded size, as
// NumPy keeps small data buffers: glibc's aligned_alloc skips its per-thread cache and splits a
// larger chunk each time, which costs more than a tiny op itself. A few blocks per size of up to
// 1 KiB; none under AddressSanitizer, which must see every free.
class SmallBlockCache {
 public:
  static constexpr size_t kMaxBytes = 1024;
  static constexpr size_t kBins = kMaxBytes / kCpuAlignment;  // 64, 128, ..., 1024 bytes
  static constexpr int kPerBin = 8;

  // A cached block of `rounded` bytes (a multiple of kCpuAlignment), or null.
  void* take(size_t rounded) {
    Bin& bin = bins_[rounded / kCpuAlignment - 1];
    return bin.count > 0 ? bin.blocks[--bin.count] : nullptr;
  }
  // Keeps `p` (of `rounded` bytes) when its bin has room; false: the caller frees it.
  bool keep(void* p, size_t rounded) {
    Bin& bin = bins_[rounded / kCpuAlignment - 1];
    if (bin.count == kPerBin) return false;
    bin.blocks[bin.count++] = p;
    return true;
  }
  void release_all() {
    for (Bin& bin : bins_) {
      while (bin.count > 0) std::free(bin.blocks[--bin.count]);
    }
  }

 private:
  struct Bin {
    std::array<void*, kPerBin> blocks;
    int count;
  };
  std::array<Bin, kBins> bins_;
};

#if INGOT_CPU_BLOCK_CACHE
// Trivially destructible, so it stays usable until the thread ends; `state` says whether it is
// (0: not yet set up, 1: in use, 2: the thread is exiting and it was emptied).
thread_local SmallBlockCache block_cache;
thread_local int block_cache_state = 0;

struct BlockCacheFlush {
  ~BlockCacheFlush() {
    block_cache.release_all();
    block_cache_state = 2;
  }
};

// The thread's cache, or null once the thread is exiting (tensors freed by thread-exit and static
// destructors then go straight back to the heap).
SmallBlockCache* thread_block_cache() {
  if (block_cache_state == 1) return &block_cache;
  if (block_cache_state == 2) return nullptr;
  thread_local BlockCacheFlush flush;  // empties the cache when the thread exits
  block_cache_state = 1;
  return &block_cache;
}
#endif

// Up to kSlots freed blocks of at least kHugePageThreshold bytes, at most limit() bytes in all
// (INGOT_CPU_CACHE_MB, default 256; 0 turns it off), shared by all threads and handed out again to a
// request of the same rounded size; the oldest goes back to the C library when a new one would not
// fit. Fixed arrays and a mutex with a trivial destructor: usable during static teardown. Off under
// the sanitizers with the small-block cache (INGOT_CPU_BLOCK_CACHE).
class LargeBlockCache {
 public:
  void* take(size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (int i = count_ - 1; i >= 0; --i) {
      if (slots_[i].bytes == bytes) {
        void* p = slots_[i].ptr;
        remove(i);
        return p;
      }
    }
    return nullptr;
  }
  // Keeps the block (true) or leaves it to the caller to free (false).
  bool keep(void* ptr, size_t bytes) {
    const size_t cap = limit();
    if (bytes > cap) return false;
    std::lock_guard<std::mutex> lock(mutex_);
    while (count_ > 0 && (count_ == kSlots || total_ + bytes > cap)) {
      std::free(slots_[0].ptr);
      remove(0);
    }
    slots_[count_++] = {ptr, bytes};
    total_ += bytes;
    return true;
  }

 private:
  struct Slot {
    void* ptr;
    size_t bytes;
  };
  static constexpr int kSlots = 8;
  static size_t limit() {
    static const size_t bytes = [] {
      const char* mb = std::getenv("INGOT_CPU_CACHE_MB");
      return static_cast<size_t>(mb != nullptr && *mb != '\0' ? std::strtoull(mb, nullptr, 10) : 256) << 20;
    }();
    return bytes;
  }
  void remove(int i) {
    total_ -= slots_[i].bytes;
    for (int k = i; k + 1 < count_; ++k) slots_[k] = slots_[k + 1];
    --count_;
  }
  std::mutex mutex_;
  Slot slots_[kSlots] = {};
  int count_ = 0;
  size_t total_ = 0;
};

#if INGOT_CPU_BLOCK_CACHE
LargeBlockCache large_block_cache;
#endif

class CpuAllocator final : public Allocator {
 public:
  void* allocate(size_t nbytes, Device) override {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (nbytes >= kHugePageThreshold) {
      const size_t rounded = huge_rounded(nbytes);
#if INGOT_CPU_BLOCK_CACHE
      if (void* cached = large_block_cache.take(rounded)) return cached;
#endif
      void* p = std::aligned_alloc(kHugePage, rounded);
      if (p == nullptr) throw std::bad_alloc();
      madvise(p, rounded, MADV_HUGEPAGE);  // advice only: failure leaves ordinary pages
      return p;
    }
#endif
    const size_t rounded = rounded_size(nbytes);
#if INGOT_CPU_BLOCK_CACHE
    if (rounded <= SmallBlockCache::kMaxBytes) {
      if (SmallBlockCache* cache = thread_block_cache()) {
        if (void* p = cache->take(rounded)) return p;
      }
    }
#endif
    void* p = std::aligned_alloc(kCpuAlignment, rounded);
    if (p == nullptr) throw std::bad_alloc();
    return p;
  }
  void deallocate(void* ptr, size_t nbytes, Device) override {
#if INGOT_CPU_BLOCK_CACHE
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (nbytes >= kHugePageThreshold) {
      if (!large_block_cache.keep(ptr, huge_rounded(nbytes))) std::free(ptr);
      return;
    }
#endif
    const size_t rounded = rounded_size(nbytes);
    if (rounded <= SmallBlockCache::kMaxBytes) {
      SmallBlockCache* cache = thread_block_cache();
      if (cache != nullptr && cache->keep(ptr, rounded)) return;
    }
#endif
    std::free(ptr);
  }

 private:
  static size_t huge_rounded(size_t nbytes) { return (nbytes + kHugePage - 1) / kHugePage * kHugePage; }
  // aligned_alloc needs a multiple of the alignment, and 0 bytes must not give null.
  static size_t rounded_size(size_t nbytes) {
    return nbytes == 0 ? kCpuAlignment : (nbytes + kCpuAlignment - 1) / kCpuAlignment * kCpuAlignment;
  }
};

CpuAllocator cpu_allocator;  // trivially destructible state: safe to use during static teardown
[[maybe_unused]] const bool cpu_allocator_registered =
    (register_allocator(kCPU, &cpu_allocator), true);

}  // namespace

}  // namespace ingot::cpu
