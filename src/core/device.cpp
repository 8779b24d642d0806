#include "ingot/device.h"

#include <charconv>

#include "ingot/error.h"

namespace ingot {

std::string_view device_type_name(DeviceType t) { return t == DeviceType::CPU ? "cpu" : "cuda"; }

Device::Device(std::string_view spec) {
  const auto colon = spec.find(':');
  const std::string_view type_name = spec.substr(0, colon);
  if (type_name == "cpu") {
    type = DeviceType::CPU;
  } else if (type_name == "cuda") {
    type = DeviceType::CUDA;
  } else {
    throw ValueError(detail::concat("Device: unknown device type '", type_name, "' in '", spec,
                                    "' (expected cpu or cuda)"));
  }
  if (colon != std::string_view::npos) {
    const std::string_view idx = spec.substr(colon + 1);
    int value = -1;
    const auto [ptr, ec] = std::from_chars(idx.data(), idx.data() + idx.size(), value);
    INGOT_CHECK(ec == std::errc() && ptr == idx.data() + idx.size() && value >= 0 && value < 128,
                ValueError, "Device: invalid device index '", idx, "' in '", spec, "'");
    index = static_cast<int8_t>(value);
  }
}

std::string Device::str() const {
  return detail::concat(device_type_name(type), ":", static_cast<int>(index));
}

std::ostream& operator<<(std::ostream& os, Device d) { return os << d.str(); }
std::ostream& operator<<(std::ostream& os, DeviceType t) { return os << device_type_name(t); }

}  // namespace ingot
