// 32-bit splitting of reduction launches (reduce_split.h).
#include "backend/reduce_split.h"

#include <algorithm>
#include <utility>

namespace ingot {

namespace {

int64_t span(int64_t size, int64_t stride) { return size <= 1 ? 0 : (size - 1) * (stride < 0 ? -stride : stride); }

struct Parts {
  int64_t in_out = 0, in_red = 0;
};
Parts parts(const ReduceArgs& a) {
  Parts p;
  for (int d = 0; d < a.nout_dims; ++d) p.in_out += span(a.out_sizes[d], a.in_out_strides[d]);
  for (int d = 0; d < a.nred_dims; ++d) p.in_red += span(a.red_sizes[d], a.in_red_strides[d]);
  return p;
}

// Removes reduced dim d (of size 1 now); an empty list keeps one dim of size 1, as bind does.
void drop_reduced_dim(ReduceArgs& a, int d) {
  for (int k = d; k + 1 < a.nred_dims; ++k) {
    a.red_sizes[k] = a.red_sizes[k + 1];
    a.in_red_strides[k] = a.in_red_strides[k + 1];
  }
  if (--a.nred_dims == 0) {
    a.red_sizes[0] = 1;
    a.in_red_strides[0] = 0;
    a.nred_dims = 1;
  }
}
void drop_output_dim(ReduceArgs& a, int d) {
  for (int k = d; k + 1 < a.nout_dims; ++k) {
    a.out_sizes[k] = a.out_sizes[k + 1];
    a.out_strides[0][k] = a.out_strides[0][k + 1];
    a.out_strides[1][k] = a.out_strides[1][k + 1];
    a.in_out_strides[k] = a.in_out_strides[k + 1];
  }
  --a.nout_dims;
}

struct Splitter {
  int64_t in_elem, out_elem, limit;
  std::vector<ReducePiece> pieces;
  int chains = 0;

  ReduceExtents extents(const ReduceArgs& a) const { return reduce_extents(a, in_elem, out_elem); }

  void outputs(const ReduceArgs& a) {
    const ReduceExtents e = extents(a);
    if (reduce_fits(e, limit)) {
      pieces.push_back({a, 0, chains++, 0});
      return;
    }
    const Parts p = parts(a);
    if (a.nout_dims > 0 && (p.in_out + in_elem > limit / 2 || e.out > limit / 2 || e.n_out > limit / 2)) {
      int best = 0;  // the output dim that spans the most
      int64_t most = -1;
      for (int d = 0; d < a.nout_dims; ++d) {
        const int64_t m = std::max({span(a.out_sizes[d], a.in_out_strides[d]), span(a.out_sizes[d], a.out_strides[0][d]),
                                    span(a.out_sizes[d], a.out_strides[1][d]), a.out_sizes[d]});
        if (m > most) most = m, best = d;
      }
      const int64_t size = a.out_sizes[best], half = size / 2;
      for (const auto& [start, n] : {std::pair<int64_t, int64_t>{0, half}, {half, size - half}}) {
        ReduceArgs sub = a;
        sub.in += start * a.in_out_strides[best];
        sub.out[0] += start * a.out_strides[0][best];
        if (sub.out[1] != nullptr) sub.out[1] += start * a.out_strides[1][best];
        sub.out_sizes[best] = n;
        if (n == 1) drop_output_dim(sub, best);
        outputs(sub);
      }
      return;
    }
    // The output side fits in half the limit: cut the reduction, in index order, into one chain.
    const size_t first = pieces.size();
    reduced(a, 0);
    for (size_t k = first; k < pieces.size(); ++k) {
      pieces[k].chain = chains;
      pieces[k].acc_mode = (k > first ? kReduceAccIn : 0) | (k + 1 < pieces.size() ? kReduceAccOut : 0);
    }
    ++chains;
  }

  void reduced(const ReduceArgs& a, int64_t idx_base) {
    if (reduce_fits(extents(a), limit)) {
      pieces.push_back({a, idx_base, 0, 0});
      return;
    }
    // The slowest reduced dim: cutting it keeps each piece's indices one run (offset idx_base).
    const int d = a.nred_dims - 1;
    int64_t below = 1;  // reduction indices per step of dim d
    for (int k = 0; k < d; ++k) below *= a.red_sizes[k];
    const int64_t size = a.red_sizes[d], half = size / 2;
    for (const auto& [start, n] : {std::pair<int64_t, int64_t>{0, half}, {half, size - half}}) {
      ReduceArgs sub = a;
      sub.in += start * a.in_red_strides[d];
      sub.red_sizes[d] = n;
      if (n == 1) drop_reduced_dim(sub, d);
      reduced(sub, idx_base + start * below);
    }
  }
};

}  // namespace

ReduceExtents reduce_extents(const ReduceArgs& a, int64_t in_elem, int64_t out_elem) {
  ReduceExtents e;
  const Parts p = parts(a);
  e.in = in_elem + p.in_out + p.in_red;
  int64_t out_span[2] = {out_elem, out_elem};
  for (int d = 0; d < a.nout_dims; ++d) {
    for (int k = 0; k < 2; ++k) out_span[k] += span(a.out_sizes[d], a.out_strides[k][d]);
    e.n_out *= a.out_sizes[d];
  }
  e.out = std::max(out_span[0], out_span[1]);
  for (int d = 0; d < a.nred_dims; ++d) e.n_red *= a.red_sizes[d];
  return e;
}

bool reduce_fits(const ReduceExtents& e, int64_t limit) {
  return e.in <= limit && e.out <= limit && e.n_out <= limit && e.n_red <= limit;
}

std::vector<ReducePiece> split_reduction(const ReduceArgs& a, int64_t in_elem, int64_t out_elem, int64_t limit) {
  Splitter s{in_elem, out_elem, std::max<int64_t>(limit, 4 * std::max(in_elem, out_elem)), {}, 0};
  s.outputs(a);
  return std::move(s.pieces);
}

}  // namespace ingot
