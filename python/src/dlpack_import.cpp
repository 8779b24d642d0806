#include "dlpack_import.h"

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "core/shape.h"

namespace ingot::python::dlpack {

namespace {

Device from_dl_device(DLDevice d) {
  if (d.device_type == kDLCPU || d.device_type == kDLCUDAHost) return Device(kCPU);
  if (d.device_type == kDLCUDA || d.device_type == kDLCUDAManaged) {
    INGOT_CHECK(d.device_id >= 0 && d.device_id <= INT8_MAX, python::dlpack::BufferError,
                "from_dlpack: DLPack device id ", d.device_id, " is out of range");
    return Device(kCUDA, static_cast<int8_t>(d.device_id));
  }
  throw BufferError(detail::concat("from_dlpack: unsupported DLPack device type ", d.device_type));
}

// Element-by-element byte copy of a strided CPU layout into dense `out` (no typed loads, so the
// source may be unaligned).
void copy_bytes(const char* src, IntArrayRef sizes, IntArrayRef strides, Tensor& out) {
  const auto itemsize = static_cast<int64_t>(out.itemsize());
  char* dst = static_cast<char*>(out.data_ptr());
  std::vector<int64_t> index(sizes.size(), 0);
  for (int64_t n = 0; n < out.numel(); ++n) {
    int64_t offset = 0;
    for (size_t d = 0; d < sizes.size(); ++d) offset += index[d] * strides[d] * itemsize;
    std::memcpy(dst + n * itemsize, src + offset, static_cast<size_t>(itemsize));
    for (size_t d = sizes.size(); d-- > 0 && ++index[d] == sizes[d];) index[d] = 0;
  }
}

}  // namespace

DLDataType to_dl_dtype(ScalarType t) {
  const auto bits = static_cast<uint8_t>(element_size(t) * 8);
  if (t == kBool) return {kDLBool, 8, 1};
  if (t == kBFloat16) return {kDLBfloat, 16, 1};
  if (is_floating_type(t)) return {kDLFloat, bits, 1};
  return {is_signed_type(t) ? kDLInt : kDLUInt, bits, 1};
}

ScalarType from_dl_dtype(DLDataType d) {
  if (d.lanes == 1) {
    for (int i = 0; i < kNumScalarTypes; ++i) {
      const DLDataType candidate = to_dl_dtype(static_cast<ScalarType>(i));
      if (candidate.code == d.code && candidate.bits == d.bits) return static_cast<ScalarType>(i);
    }
  }
  throw TypeError(detail::concat("from_dlpack: unsupported DLPack dtype (code ", int(d.code), ", bits ",
                                 int(d.bits), ", lanes ", d.lanes, ")"));
}

Tensor from_dltensor(const DLTensor& dl, std::function<void()> release, std::optional<bool> copy) {
  const ScalarType dtype = from_dl_dtype(dl.dtype);
  const Device device = from_dl_device(dl.device);
  INGOT_CHECK(dl.ndim >= 0 && (dl.ndim == 0 || dl.shape != nullptr), ValueError,
              "from_dlpack: malformed DLTensor (ndim ", dl.ndim, ", shape ",
              dl.shape ? "given" : "null", ")");
  const std::vector<int64_t> sizes(dl.shape, dl.shape + dl.ndim);
  checked_numel("from_dlpack", sizes);
  const std::vector<int64_t> strides =
      dl.strides ? std::vector<int64_t>(dl.strides, dl.strides + dl.ndim) : contiguous_strides(sizes);
  INGOT_CHECK(dl.byte_offset <= static_cast<uint64_t>(INT64_MAX), ValueError, "from_dlpack: byte_offset ",
              dl.byte_offset, " is out of range");
  const auto address = reinterpret_cast<uintptr_t>(dl.data);
  INGOT_CHECK(dl.byte_offset <= UINTPTR_MAX - address, ValueError, "from_dlpack: byte_offset ", dl.byte_offset,
              " reaches outside the address space");
  char* data = reinterpret_cast<char*>(address + dl.byte_offset);
  const size_t itemsize = element_size(dtype);
  if (reinterpret_cast<uintptr_t>(data) % itemsize != 0) {
    INGOT_CHECK(copy != false, python::dlpack::BufferError, "from_dlpack: the producer's ", dtype_name(dtype),
                " data at byte address ", static_cast<const void*>(data), " is not aligned to ", itemsize,
                " bytes, so it must be copied, but copy=False");
    INGOT_CHECK(device.is_cpu(), python::dlpack::BufferError, "from_dlpack: unaligned data on ", device,
                " cannot be imported");
    offset_range("from_dlpack", sizes, strides);  // the walk below must not overflow
    Tensor out = empty(sizes, TensorOptions(dtype).device(device));
    copy_bytes(data, sizes, strides, out);
    release();
    return out;
  }
  // The deleter is armed only once the tensor exists: if from_blob throws, nothing is released.
  auto armed = std::make_shared<bool>(false);
  Tensor t = from_blob(data, sizes, strides, TensorOptions(dtype).device(device),
                       [armed, release = std::move(release)](void*) {
                         if (*armed) release();
                       });
  *armed = true;
  return t;
}

}  // namespace ingot::python::dlpack
