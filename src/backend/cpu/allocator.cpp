// Host memory for CPU tensors: 64-byte aligned (a cache line; wide enough for any vector load).
// Large blocks are 2 MiB aligned and asked to be backed by transparent huge pages, as NumPy does:
// far fewer page faults on a fresh output and TLB misses on strided (transposed) walks.
#include <array>
#include <cstdlib>
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

class CpuAllocator final : public Allocator {
 public:
  void* allocate(size_t nbytes, Device) override {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (nbytes >= kHugePageThreshold) {
      const size_t rounded = (nbytes + kHugePage - 1) / kHugePage * kHugePage;
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
    const size_t rounded = rounded_size(nbytes);
    if (rounded <= SmallBlockCache::kMaxBytes) {
      SmallBlockCache* cache = thread_block_cache();
      if (cache != nullptr && cache->keep(ptr, rounded)) return;
    }
#endif
    std::free(ptr);
  }

 private:
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
