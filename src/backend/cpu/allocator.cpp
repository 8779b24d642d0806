// Host memory for CPU tensors: 64-byte aligned (a cache line; wide enough for any vector load).
#include <cstdlib>
#include <new>

#include "ingot/storage.h"

namespace ingot::cpu {

namespace {

constexpr size_t kCpuAlignment = 64;

class CpuAllocator final : public Allocator {
 public:
  void* allocate(size_t nbytes, Device) override {
    // aligned_alloc needs a size that is a multiple of the alignment, and 0 must not give null.
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
