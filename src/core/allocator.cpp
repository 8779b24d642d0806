// The allocator table: backends register one allocator per device type (src/backend/*/allocator.cpp).
#include <array>

#include "ingot/error.h"
#include "ingot/storage.h"

namespace ingot {

namespace {

std::array<Allocator*, kNumDeviceTypes>& allocator_table() {
  static std::array<Allocator*, kNumDeviceTypes> table{};
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
