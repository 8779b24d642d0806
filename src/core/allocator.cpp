#include <array>
#include <cstdlib>
#include <new>

#include "ingot/error.h"
#include "ingot/storage.h"

namespace ingot {

namespace {

constexpr size_t kCpuAlignment = 64;

// 64-byte aligned host memory (a cache line; wide enough for any vector load).
class CpuAllocator final : public Allocator {
 public:
  void* allocate(size_t nbytes) override {
    // aligned_alloc needs a size that is a multiple of the alignment, and 0 must not give null.
    const size_t rounded = (nbytes + kCpuAlignment - 1) / kCpuAlignment * kCpuAlignment;
    void* p = std::aligned_alloc(kCpuAlignment, rounded == 0 ? kCpuAlignment : rounded);
    if (p == nullptr) throw std::bad_alloc();
    return p;
  }
  void deallocate(void* ptr) override { std::free(ptr); }
};

std::array<Allocator*, kNumDeviceTypes>& allocator_table() {
  static CpuAllocator cpu;
  static std::array<Allocator*, kNumDeviceTypes> table{&cpu, nullptr};
  return table;
}

}  // namespace

Allocator& allocator_for(DeviceType type) {
  Allocator* a = allocator_table()[static_cast<size_t>(type)];
  INGOT_CHECK(a != nullptr, NotImplementedError,
              "allocator_for: no allocator registered for device type ", device_type_name(type),
              " (is its backend built?)");
  return *a;
}

void register_allocator(DeviceType type, Allocator* allocator) {
  allocator_table()[static_cast<size_t>(type)] = allocator;
}

}  // namespace ingot
