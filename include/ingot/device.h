// Where a tensor lives: a device type and an index ("cpu", "cuda:0").
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

namespace ingot {

enum class DeviceType : int8_t { CPU, CUDA };
inline constexpr int kNumDeviceTypes = 2;

inline constexpr DeviceType kCPU = DeviceType::CPU;
inline constexpr DeviceType kCUDA = DeviceType::CUDA;

std::string_view device_type_name(DeviceType t);

struct Device {
  DeviceType type = DeviceType::CPU;
  int8_t index = 0;

  constexpr Device() = default;
  constexpr Device(DeviceType t, int8_t i = 0) : type(t), index(i) {}
  // Parses "cpu", "cuda", "cuda:1"; throws ValueError otherwise.
  explicit Device(std::string_view spec);

  constexpr bool is_cpu() const { return type == DeviceType::CPU; }
  constexpr bool is_cuda() const { return type == DeviceType::CUDA; }
  std::string str() const;
  friend constexpr bool operator==(Device a, Device b) { return a.type == b.type && a.index == b.index; }
};

std::ostream& operator<<(std::ostream& os, Device d);
std::ostream& operator<<(std::ostream& os, DeviceType t);

}  // namespace ingot
