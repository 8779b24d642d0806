#include "core/shape.h"

namespace ingot {

int64_t wrap_dim(std::string_view op, int64_t dim, int64_t ndim, bool scalar_as_1d) {
  const int64_t n = (ndim == 0 && scalar_as_1d) ? 1 : ndim;
  INGOT_CHECK(n > 0, IndexError, op, ": dim ", dim, " given for a 0-dim tensor, which has no dims");
  INGOT_CHECK(dim >= -n && dim < n, IndexError, op, ": dim ", dim,
              " out of range for a tensor with ", ndim, " dims (expected in [", -n, ", ", n - 1,
              "])");
  return dim < 0 ? dim + n : dim;
}

std::vector<int64_t> contiguous_strides(IntArrayRef sizes) {
  std::vector<int64_t> strides(sizes.size());
  int64_t acc = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = acc;
    // The stride of the outermost dim is never multiplied further; only the ones before it.
    if (i > 0) acc = checked_mul("contiguous_strides", sizes, acc, sizes[i] > 1 ? sizes[i] : 1);
  }
  return strides;
}

int64_t checked_mul(std::string_view op, IntArrayRef shape, int64_t a, int64_t b) {
  int64_t r = 0;
  INGOT_CHECK(!__builtin_mul_overflow(a, b, &r), ValueError, op, ": shape ", shape,
              " is too large: its size arithmetic (", a, " * ", b, ") overflows int64");
  return r;
}

int64_t checked_add(std::string_view op, IntArrayRef shape, int64_t a, int64_t b) {
  int64_t r = 0;
  INGOT_CHECK(!__builtin_add_overflow(a, b, &r), ValueError, op, ": shape ", shape,
              " is too large: its size arithmetic (", a, " + ", b, ") overflows int64");
  return r;
}

OffsetRange offset_range(std::string_view op, IntArrayRef sizes, IntArrayRef strides) {
  OffsetRange r;
  for (int64_t s : sizes) {
    if (s == 0) return r;
  }
  for (size_t i = 0; i < sizes.size(); ++i) {
    const int64_t extent = checked_mul(op, sizes, sizes[i] - 1, strides[i]);
    int64_t& side = extent < 0 ? r.lo : r.hi;
    side = checked_add(op, sizes, side, extent);
  }
  return r;
}

int64_t checked_numel(std::string_view op, IntArrayRef sizes) {
  int64_t n = 1;
  bool overflow = false;
  for (int64_t s : sizes) {
    INGOT_CHECK(s >= 0, ValueError, op, ": negative size ", s, " in shape ", sizes);
    overflow = overflow || __builtin_mul_overflow(n, s, &n);
  }
  // A 0 anywhere makes the product 0 even when an earlier partial product overflowed.
  for (int64_t s : sizes) {
    if (s == 0) return 0;
  }
  INGOT_CHECK(!overflow, ValueError, op, ": shape ", sizes,
              " has more elements than int64 can count");
  return n;
}

std::vector<int64_t> infer_size(std::string_view op, IntArrayRef sizes, int64_t numel) {
  std::vector<int64_t> out = sizes.vec();
  int64_t known = 1;
  int64_t infer_at = -1;
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] == -1) {
      INGOT_CHECK(infer_at < 0, ValueError, op, ": only one size may be -1, got shape ", sizes);
      infer_at = static_cast<int64_t>(i);
    } else {
      INGOT_CHECK(out[i] >= 0, ValueError, op, ": invalid size ", out[i], " in shape ", sizes);
      known = checked_mul(op, sizes, known, out[i]);
    }
  }
  if (infer_at >= 0) {
    INGOT_CHECK(known != 0, ValueError, op, ": cannot infer the -1 in shape ", sizes,
                " for a tensor of ", numel, " elements (the other sizes multiply to 0)");
    INGOT_CHECK(numel % known == 0, ValueError, op, ": shape ", sizes,
                " is invalid for input of size ", numel);
    out[static_cast<size_t>(infer_at)] = numel / known;
  } else {
    INGOT_CHECK(known == numel, ValueError, op, ": shape ", sizes, " is invalid for input of size ",
                numel);
  }
  return out;
}

std::optional<std::vector<int64_t>> view_strides(IntArrayRef old_sizes, IntArrayRef old_strides,
                                                 IntArrayRef new_sizes) {
  const size_t new_ndim = new_sizes.size();
  std::vector<int64_t> new_strides(new_ndim);
  const int64_t numel = checked_numel("view", old_sizes);
  if (old_sizes.empty()) return contiguous_strides(new_sizes);  // one element: any layout works
  if (numel == 0) {
    // No element is ever addressed; contiguous strides are as good as any.
    return old_sizes == new_sizes ? old_strides.vec() : contiguous_strides(new_sizes);
  }
  // Walk the old dims from the back, grouping runs that are contiguous with each other ("chunks");
  // each chunk must be covered exactly by a run of new dims.
  int64_t view_d = static_cast<int64_t>(new_ndim) - 1;
  int64_t chunk_base_stride = old_strides.back();
  int64_t tensor_numel = 1;
  int64_t view_numel = 1;
  for (int64_t tensor_d = static_cast<int64_t>(old_sizes.size()) - 1; tensor_d >= 0; --tensor_d) {
    tensor_numel *= old_sizes[tensor_d];
    const bool chunk_ends =
        tensor_d == 0 || (old_sizes[tensor_d - 1] != 1 &&
                          old_strides[tensor_d - 1] != tensor_numel * chunk_base_stride);
    if (!chunk_ends) continue;
    while (view_d >= 0 && (view_numel < tensor_numel || new_sizes[view_d] == 1)) {
      new_strides[view_d] = view_numel * chunk_base_stride;
      view_numel *= new_sizes[view_d];
      --view_d;
    }
    if (view_numel != tensor_numel) return std::nullopt;
    if (tensor_d > 0) {
      chunk_base_stride = old_strides[tensor_d - 1];
      tensor_numel = 1;
      view_numel = 1;
    }
  }
  if (view_d != -1) return std::nullopt;
  return new_strides;
}

}  // namespace ingot
