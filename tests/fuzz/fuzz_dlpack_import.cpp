// libFuzzer target: DLPack import (python/src/dlpack_import.cpp) on arbitrary DLTensor metadata.
// Properties: it returns a tensor with the producer's shape or raises an ingot::Error, and the
// producer's deleter runs exactly once if the import succeeded and never if it raised.
// The memory itself is never read here: unaligned data (whose import copies) is offered with
// copy=False, since arbitrary metadata cannot describe memory the harness owns.
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "dlpack_import.h"

namespace {

using namespace ingot::python::dlpack;

struct Input {
  const uint8_t* data;
  size_t size;
  template <typename T>
  T take() {
    T v{};
    const size_t n = size < sizeof(T) ? size : sizeof(T);
    std::memcpy(&v, data, n);
    data += n;
    size -= n;
    return v;
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
  alignas(64) static unsigned char memory[64];
  Input in{bytes, size};
  int64_t shape[8], strides[8];
  DLTensor dl{};
  dl.data = memory;
  dl.ndim = in.take<int8_t>() % 10;  // -9 .. 9: negative and too many dims included
  dl.dtype = {static_cast<uint8_t>(in.take<uint8_t>() % 8), in.take<uint8_t>(), in.take<uint16_t>()};
  dl.device = {static_cast<int32_t>(in.take<uint8_t>() % 16), in.take<int32_t>()};
  dl.byte_offset = in.take<uint64_t>();
  const uint8_t flags = in.take<uint8_t>();
  dl.shape = (flags & 1) || dl.ndim <= 0 ? shape : nullptr;
  dl.strides = (flags & 2) ? strides : nullptr;
  if (dl.ndim > 8) dl.ndim = 8;
  for (int i = 0; i < 8; ++i) {
    shape[i] = in.take<int64_t>();
    strides[i] = in.take<int64_t>();
  }
  int released = 0;
  const int64_t ndim = dl.ndim;
  {
    ingot::Tensor t;
    try {
      // copy=False: unaligned data would be copied (read); only its refusal is fuzzed, see above.
      t = from_dltensor(dl, [&released] { ++released; }, false);
    } catch (const ingot::Error&) {
      if (released != 0) std::abort();  // a failed import must leave the producer its memory
      return 0;
    }
    if (t.dim() != ndim || released != 0) std::abort();
    for (int64_t d = 0; d < ndim; ++d) {
      if (t.size(d) != shape[d]) std::abort();
    }
  }
  if (released != 1) std::abort();  // the last view released the producer's memory once
  return 0;
}
