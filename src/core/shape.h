// Shape arithmetic shared by the core's views and factories (private to src/).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "ingot/array_ref.h"
#include "ingot/error.h"

namespace ingot {

// Maps a possibly negative `dim` into [0, ndim); IndexError naming `op` otherwise. A 0-dim tensor
// accepts dim 0 and -1 where `scalar_as_1d` (as PyTorch does for squeeze, transpose, ...).
int64_t wrap_dim(std::string_view op, int64_t dim, int64_t ndim, bool scalar_as_1d = false);

// Row-major strides for `sizes` (size-0/1 dims still get the product of the later sizes).
std::vector<int64_t> contiguous_strides(IntArrayRef sizes);

// Product of `sizes`; ValueError naming `op` on a negative size or int64 overflow.
int64_t checked_numel(std::string_view op, IntArrayRef sizes);

// Size arithmetic (products of sizes, byte counts, offsets) on behalf of `op` for a tensor of
// `shape`: a * b and a + b, or ValueError naming both when the result overflows int64.
int64_t checked_mul(std::string_view op, IntArrayRef shape, int64_t a, int64_t b);
int64_t checked_add(std::string_view op, IntArrayRef shape, int64_t a, int64_t b);

// The lowest and highest element offsets, relative to element 0, that (sizes, strides) reach;
// {0, 0} for an empty or 0-dim layout. Checked like checked_mul.
struct OffsetRange {
  int64_t lo = 0;
  int64_t hi = 0;
};
OffsetRange offset_range(std::string_view op, IntArrayRef sizes, IntArrayRef strides);

// Replaces a single -1 in `sizes` so the product equals `numel`; ValueError when impossible.
std::vector<int64_t> infer_size(std::string_view op, IntArrayRef sizes, int64_t numel);

// Strides that let a tensor of (old_sizes, old_strides) be viewed as new_sizes without a copy,
// or nullopt when no such strides exist (the standard "compute stride for view").
std::optional<std::vector<int64_t>> view_strides(IntArrayRef old_sizes, IntArrayRef old_strides,
                                                 IntArrayRef new_sizes);

}  // namespace ingot
