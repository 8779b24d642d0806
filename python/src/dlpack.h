// The DLPack ABI (dmlc/dlpack, v1.0): the structs a producer hands a consumer in a PyCapsule.
// Declared here from the specification so the extension needs no extra dependency.
#pragma once

#include <cstdint>

namespace ingot::python::dlpack {

enum DeviceType : int32_t { kDLCPU = 1, kDLCUDA = 2, kDLCUDAHost = 3, kDLCUDAManaged = 13 };
enum TypeCode : uint8_t { kDLInt = 0, kDLUInt = 1, kDLFloat = 2, kDLBfloat = 4, kDLBool = 6 };

struct DLDevice {
  int32_t device_type;
  int32_t device_id;
};

struct DLDataType {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
};

struct DLTensor {
  void* data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t* shape;
  int64_t* strides;  // in elements; null means compact row-major
  uint64_t byte_offset;
};

// Legacy (pre-1.0) capsule payload, capsule name "dltensor".
struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(DLManagedTensor* self);
};

struct DLPackVersion {
  uint32_t major;
  uint32_t minor;
};

inline constexpr uint64_t kFlagReadOnly = 1ull << 0;
inline constexpr uint64_t kFlagIsCopied = 1ull << 1;
inline constexpr uint32_t kMajorVersion = 1;
inline constexpr uint32_t kMinorVersion = 0;

// Versioned (1.x) capsule payload, capsule name "dltensor_versioned".
struct DLManagedTensorVersioned {
  DLPackVersion version;
  void* manager_ctx;
  void (*deleter)(DLManagedTensorVersioned* self);
  uint64_t flags;
  DLTensor dl_tensor;
};

}  // namespace ingot::python::dlpack
