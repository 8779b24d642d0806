// 32-bit splitting of reduction launches (DESIGN.md §5): a reduction whose byte offsets or element
// counts do not fit in 32 bits is cut into pieces that do, like TensorIterator's
// with_32bit_indexing for elementwise ops. Output dims are cut first (independent pieces) while
// the output side alone spans over half the limit; then the slowest reduced dim is halved until
// each piece fits. Pieces that share outputs form a chain, run in reduction-index order, and carry
// each output's accumulator from one to the next (an accumulation buffer), so every output is the
// one a single launch would give; argmax's indices come from idx_base.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/reduce.h"

namespace ingot {

inline constexpr int kReduceAccIn = 1;   // combine with the chain's accumulator (an earlier piece's)
inline constexpr int kReduceAccOut = 2;  // leave the accumulator for the next piece (not the last)

struct ReducePiece {
  ReduceArgs args;
  int64_t idx_base = 0;  // reduction index of the piece's first element
  int chain = 0;         // pieces of one chain reduce the same outputs
  int acc_mode = 0;      // kReduceAccIn | kReduceAccOut; 0 for a piece that is a whole reduction
};

// The pieces of `a` (in the order to run them) such that each one's input byte span, output byte
// span, output count and reduced count are at most `limit`; `in_elem`/`out_elem` are the element
// sizes of the input and of the widest output. One piece, a itself, when it fits.
std::vector<ReducePiece> split_reduction(const ReduceArgs& a, int64_t in_elem, int64_t out_elem, int64_t limit);

// The largest input byte span (element included), output byte span, output count and reduced
// count of `a`, to compare with a limit.
struct ReduceExtents {
  int64_t in = 0, out = 0, n_out = 1, n_red = 1;
};
ReduceExtents reduce_extents(const ReduceArgs& a, int64_t in_elem, int64_t out_elem);
// Whether extents fit one launch of the given limit.
bool reduce_fits(const ReduceExtents& e, int64_t limit);

}  // namespace ingot
