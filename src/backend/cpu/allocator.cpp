// Host memory for CPU tensors: 64-byte aligned (a cache line; wide enough for any vector load).
// Large blocks are 2 MiB aligned and asked to be backed by transparent huge pages, as NumPy does:
// far fewer page faults on a fresh output and TLB misses on strided (transposed) walks.
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

class CpuAllocator final : public Allocator {
 public:
  void* allocate(size_t nbytes, Device) override {
    // aligned_alloc needs a size that is a multiple of the alignment, and 0 must not give null.
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (nbytes >= kHugePageThreshold) {
      const size_t rounded = (nbytes + kHugePage - 1) / kHugePage * kHugePage;
      void* p = std::aligned_alloc(kHugePage, rounded);
      if (p == nullptr) throw std::bad_alloc();
      madvise(p, rounded, MADV_HUGEPAGE);  // advice only: failure leaves ordinary pages
      return p;
    }
#endif
    const size_t rounded = (nbytes + kCpuAlignment - 1) / kCpuAlignment * kCpuAlignment;
    void* p = std::aligned_alloc(kCpuAlignment, rounded == 0 ? kCpuAlignment : rounded);
    if (p == nullptr) throw std::bad_alloc();
    return p;
  }
  void deallocate(void* ptr, size_t, Device) override { std::free(ptr); }
};

CpuAllocator cpu_allocator;  // trivially destructible state: safe to use during static teardown
[[maybe_unused]] const bool cpu_allocator_registered =
    (register_allocator(kCPU, &cpu_allocator), true);

}  // namespace

}  // namespace ingot::cpu
