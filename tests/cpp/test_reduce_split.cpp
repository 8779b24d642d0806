// split_reduction (src/backend/reduce_split.h), the 32-bit splitting of reduction launches, run
// without a GPU: the pieces are executed here the way the CUDA driver runs them (each piece's
// outputs reduced from its own pointers, sizes and strides, chains carried in an accumulation
// buffer), for a sum and a first-index argmax, and compared with the whole reduction done at once.
// The CUDA kernels themselves are checked against the CPU backend by
// tests/cpp/cuda/test_cuda_reduce_split.cpp on a GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "backend/reduce_split.h"

namespace ingot {
namespace {

struct Acc {
  double sum = 0;
  double best = -INFINITY;
  int64_t index = -1;
};
void add(Acc& a, double x, int64_t idx) {
  a.sum += x;
  if (a.index < 0 || x > a.best) a.best = x, a.index = idx;
}
void combine(Acc& a, const Acc& b) {  // a holds lower indices than b
  a.sum += b.sum;
  if (b.index >= 0 && (a.index < 0 || b.best > a.best)) a.best = b.best, a.index = b.index;
}

int64_t offset(int64_t i, int n, const int64_t* sizes, const int64_t* strides) {
  int64_t off = 0;
  for (int d = 0; d < n; ++d) {
    off += (i % sizes[d]) * strides[d];
    i /= sizes[d];
  }
  return off;
}

// Runs `pieces` over the input and writes out[0] (sums, double) and out[1] (argmax, int64), and
// checks that every offset a piece forms stays within `limit` of its pointers.
void run(const std::vector<ReducePiece>& pieces, int64_t limit) {
  std::vector<Acc> chain_acc;
  int chain = -1;
  for (const ReducePiece& piece : pieces) {
    const ReduceArgs& a = piece.args;
    const ReduceExtents e = reduce_extents(a, sizeof(double), sizeof(int64_t));
    ASSERT_LE(e.in, limit);
    ASSERT_LE(e.out, limit);
    ASSERT_LE(e.n_out, limit);
    ASSERT_LE(e.n_red, limit);
    if (piece.chain != chain) chain_acc.assign(static_cast<size_t>(e.n_out), Acc{});
    chain = piece.chain;
    for (int64_t o = 0; o < e.n_out; ++o) {
      Acc acc;
      const int64_t in_off = offset(o, a.nout_dims, a.out_sizes, a.in_out_strides);
      for (int64_t r = 0; r < e.n_red; ++r) {
        const char* p = a.in + in_off + offset(r, a.nred_dims, a.red_sizes, a.in_red_strides);
        add(acc, *reinterpret_cast<const double*>(p), piece.idx_base + r);
      }
      Acc& carried = chain_acc[static_cast<size_t>(o)];
      if (piece.acc_mode & kReduceAccIn) {
        combine(carried, acc);
        acc = carried;
      }
      if (piece.acc_mode & kReduceAccOut) {
        carried = acc;
      } else {
        *reinterpret_cast<double*>(a.out[0] + offset(o, a.nout_dims, a.out_sizes, a.out_strides[0])) = acc.sum;
        *reinterpret_cast<int64_t*>(a.out[1] + offset(o, a.nout_dims, a.out_sizes, a.out_strides[1])) = acc.index;
      }
    }
  }
}

struct Case {
  std::string name;
  std::vector<int64_t> out_sizes, in_out_strides;  // strides in elements
  std::vector<int64_t> red_sizes, in_red_strides;
};

void check(const Case& c, int64_t limit) {
  int64_t n_out = 1, n_red = 1, span = 1;
  for (size_t d = 0; d < c.out_sizes.size(); ++d) n_out *= c.out_sizes[d], span += (c.out_sizes[d] - 1) * c.in_out_strides[d];
  for (size_t d = 0; d < c.red_sizes.size(); ++d) n_red *= c.red_sizes[d], span += (c.red_sizes[d] - 1) * c.in_red_strides[d];
  std::vector<double> in(static_cast<size_t>(span));
  for (size_t i = 0; i < in.size(); ++i) in[i] = std::floor(8 * std::sin(0.7 * static_cast<double>(i)));  // ties
  std::vector<double> sums(static_cast<size_t>(n_out), NAN);
  std::vector<int64_t> index(static_cast<size_t>(n_out), -7);
  ReduceArgs a{};
  a.in = reinterpret_cast<const char*>(in.data());
  a.out[0] = reinterpret_cast<char*>(sums.data());
  a.out[1] = reinterpret_cast<char*>(index.data());
  a.nout_dims = static_cast<int32_t>(c.out_sizes.size());
  a.nred_dims = static_cast<int32_t>(c.red_sizes.size());
  int64_t out_stride = 1;
  for (int d = 0; d < a.nout_dims; ++d) {
    a.out_sizes[d] = c.out_sizes[static_cast<size_t>(d)];
    a.in_out_strides[d] = c.in_out_strides[static_cast<size_t>(d)] * 8;
    a.out_strides[0][d] = a.out_strides[1][d] = out_stride * 8;
    out_stride *= a.out_sizes[d];
  }
  for (int d = 0; d < a.nred_dims; ++d) {
    a.red_sizes[d] = c.red_sizes[static_cast<size_t>(d)];
    a.in_red_strides[d] = c.in_red_strides[static_cast<size_t>(d)] * 8;
  }
  // The whole reduction in one piece, then the split one.
  run({ReducePiece{a, 0, 0, 0}}, int64_t{1} << 40);
  const std::vector<double> want_sums = sums;
  const std::vector<int64_t> want_index = index;
  std::fill(sums.begin(), sums.end(), NAN);
  std::fill(index.begin(), index.end(), -7);
  const std::vector<ReducePiece> pieces = split_reduction(a, 8, 8, limit);
  const std::string what = c.name + ", limit " + std::to_string(limit) + ", " + std::to_string(pieces.size()) + " pieces";
  run(pieces, std::max<int64_t>(limit, 4 * 8));  // the splitter's floor: 4 elements
  for (size_t o = 0; o < sums.size(); ++o) {
    ASSERT_EQ(index[o], want_index[o]) << what << ", output " << o;
    ASSERT_EQ(sums[o], want_sums[o]) << what << ", output " << o;  // small integers: exact
  }
  if (limit >= span * 8 && n_out <= limit && n_red <= limit) {
    EXPECT_EQ(pieces.size(), 1u) << what;
  } else {
    EXPECT_GT(pieces.size(), 1u) << what;
  }
}

TEST(ReduceSplit, PiecesReduceEveryOutputOnceInIndexOrder) {
  const std::vector<Case> cases = {
      {"one row", {}, {}, {1000}, {1}},
      {"rows (inner)", {37}, {300}, {300}, {1}},
      {"columns (outer)", {300}, {1}, {37}, {300}},
      {"two reduced dims of a permuted tensor", {7}, {1}, {40, 9}, {63, 7}},
      {"two output dims, two reduced dims", {5, 6}, {1, 5}, {11, 4}, {30, 330}},
  };
  for (const Case& c : cases) {
    for (int64_t limit : {int64_t{1} << 40, int64_t{4096}, int64_t{512}, int64_t{64}}) check(c, limit);
  }
}

TEST(ReduceSplit, ALimitBelowAnElementStillTerminates) {
  check({"tiny limit", {3}, {1}, {50}, {3}}, 1);
}

}  // namespace
}  // namespace ingot
