// The CPU loop driver's block and tile paths: reduced-float block conversions, the buffered cast
// flavor and the tiled flavor, each against the element-by-element definition.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

#include "backend/cpu/convert_block.h"
#include "backend/cpu/kernel_library.h"
#include "backend/cpu/tiles.h"

namespace ingot {
namespace {

cpu::KernelFn kernel(const char* name) {
  cpu::KernelFn fn = cpu::cpu_kernel_library().find_kernel(name);
  EXPECT_NE(fn, nullptr) << name;
  return fn;
}

ElementwiseArgs args_2d(std::vector<void*> data, int64_t cols, int64_t rows,
                        std::vector<std::pair<int64_t, int64_t>> strides, std::vector<ScalarType> dtypes = {}) {
  ElementwiseArgs a{};
  a.ndim = 2;
  a.scalar_input = -1;
  a.sizes[0] = cols;
  a.sizes[1] = rows;
  for (size_t k = 0; k < data.size(); ++k) {
    a.data[k] = static_cast<char*>(data[k]);
    a.strides[k][0] = strides[k].first;
    a.strides[k][1] = strides[k].second;
    if (k < dtypes.size()) a.dtypes[k] = dtypes[k];
  }
  return a;
}

// A 1-d iteration of n elements over data[k] (output first) at byte strides strides[k].
ElementwiseArgs args_1d(std::vector<void*> data, int64_t n, std::vector<int64_t> strides) {
  ElementwiseArgs a{};
  a.ndim = 1;
  a.scalar_input = -1;
  a.sizes[0] = n;
  for (size_t k = 0; k < data.size(); ++k) {
    a.data[k] = static_cast<char*>(data[k]);
    a.strides[k][0] = strides[k];
  }
  return a;
}

uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// Every float whose low half sits on a bfloat16 rounding boundary or next to one, for every high
// half (NaNs and infinities among them).
std::vector<float> bf16_rounding_boundaries() {
  std::vector<float> in;
  for (uint32_t hi = 0; hi < 65536; ++hi) {
    for (uint32_t lo : {0x0000u, 0x0001u, 0x7fffu, 0x8000u, 0x8001u, 0xffffu}) {
      const uint32_t u = hi << 16 | lo;
      float x;
      std::memcpy(&x, &u, 4);
      in.push_back(x);
    }
  }
  return in;
}

TEST(CpuLoops, BFloat16BlockConversionsMatchElementwiseOnEveryBitPattern) {
  std::vector<BFloat16> b(65536);
  for (uint32_t i = 0; i < 65536; ++i) b[i] = BFloat16(static_cast<uint16_t>(i), from_bits);
  std::vector<float> f(65536);
  cpu::convert_block(f.data(), b.data(), 65536);
  for (uint32_t i = 0; i < 65536; ++i) ASSERT_EQ(bits(f[i]), bits(static_cast<float>(b[i]))) << i;
  const std::vector<float> in = bf16_rounding_boundaries();
  std::vector<BFloat16> out(in.size());
  cpu::convert_block(out.data(), in.data(), static_cast<int64_t>(in.size()));
  for (size_t i = 0; i < in.size(); ++i) ASSERT_EQ(out[i].x, BFloat16(in[i]).x) << std::hex << bits(in[i]);
}

// Position of element j of a block of n in the paired order (convert_block.h).
int64_t paired_position(int64_t j, int64_t n) {
  const int64_t g = j / 16 * 16, k = j % 16;
  if (g + 16 > n) return j;  // the tail stays in order
  return g + (k % 2 == 0 ? k / 2 : 8 + k / 2);
}

TEST(CpuLoops, PairedBFloat16ConversionsMatchElementwiseInTheirOrder) {
  const int64_t n = 65536 + 13;  // every bit pattern, then a tail shorter than a group
  std::vector<BFloat16> b(n);
  for (int64_t i = 0; i < n; ++i) b[i] = BFloat16(static_cast<uint16_t>(i * 40503), from_bits);
  std::vector<float> f(n);
  cpu::widen_bf16_paired(f.data(), b.data(), n);
  for (int64_t i = 0; i < n; ++i) {
    ASSERT_EQ(bits(f[paired_position(i, n)]), bits(static_cast<float>(b[i]))) << i;
  }
  // Rounding boundaries of every high half, NaNs and infinities among them; the groups in paired
  // order, so the bfloat16 results land in input order.
  const std::vector<float> in = bf16_rounding_boundaries();
  const auto m = static_cast<int64_t>(in.size()) - 9;
  std::vector<float> paired(m);
  for (int64_t i = 0; i < m; ++i) paired[paired_position(i, m)] = in[i];
  std::vector<BFloat16> out(m);
  cpu::narrow_bf16_paired(out.data(), paired.data(), m);
  for (int64_t i = 0; i < m; ++i) ASSERT_EQ(out[i].x, BFloat16(in[i]).x) << std::hex << bits(in[i]);
  // A NaN-free group next to one with a NaN: each takes its own path.
  std::vector<float> mixed(32, 1.00390625f);
  mixed[20] = std::nanf("");
  std::vector<BFloat16> narrowed(32);
  cpu::narrow_bf16_paired(narrowed.data(), mixed.data(), 32);
  for (int64_t i = 0; i < 32; ++i) {
    ASSERT_EQ(narrowed[i].x, BFloat16(mixed[paired_position(i, 32)]).x) << i;
  }
}

// F16C quiets a signaling NaN where the software conversion keeps it signaling: NaNs must stay
// NaNs of the same sign; every other value must match bit for bit.
void expect_same(float got, float want, uint32_t what) {
  if (std::isnan(want)) {
    EXPECT_TRUE(std::isnan(got) && std::signbit(got) == std::signbit(want)) << std::hex << what;
  } else {
    EXPECT_EQ(bits(got), bits(want)) << std::hex << what;
  }
}

TEST(CpuLoops, Float16BlockConversionsMatchElementwise) {
  std::vector<Half> h(65536);
  for (uint32_t i = 0; i < 65536; ++i) h[i] = Half(static_cast<uint16_t>(i), from_bits);
  std::vector<float> f(65536);
  cpu::convert_block(f.data(), h.data(), 65536);
  for (uint32_t i = 0; i < 65536; ++i) expect_same(f[i], static_cast<float>(h[i]), i);
  std::vector<float> in;
  for (uint64_t u = 0; u <= 0xffffffffu; u += 65521) {  // a prime step: every exponent, many mantissas
    float x;
    const uint32_t v = static_cast<uint32_t>(u);
    std::memcpy(&x, &v, 4);
    in.push_back(x);
  }
  for (float x : {65504.0f, 65519.996f, 65520.0f, 5.96e-8f, 2.98e-8f, 2.99e-8f, -0.0f, INFINITY}) in.push_back(x);
  std::vector<Half> out(in.size());
  cpu::convert_block(out.data(), in.data(), static_cast<int64_t>(in.size()));
  for (size_t i = 0; i < in.size(); ++i) expect_same(static_cast<float>(out[i]), static_cast<float>(Half(in[i])), bits(in[i]));
}

TEST(CpuLoops, DenseBFloat16AddMatchesElementwiseAcrossBlocks) {
  const int64_t n = 1000;  // several 256-element blocks and a tail
  std::vector<BFloat16> a(n), b(n), out(n);
  for (int64_t i = 0; i < n; ++i) {
    a[i] = BFloat16(static_cast<uint16_t>(i * 61 + 7), from_bits);  // arbitrary patterns, NaNs included
    b[i] = BFloat16(static_cast<float>(i) * 0.37f - 100.0f);
  }
  ElementwiseArgs args = args_1d({out.data(), a.data(), b.data()}, n, {2, 2, 2});
  args.alpha.set(2.0f);
  kernel("add_dense_bfloat16_bfloat16_float32")(args, 0, n);
  for (int64_t i = 0; i < n; ++i) {
    const float want = static_cast<float>(a[i]) + 2.0f * static_cast<float>(b[i]);
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(static_cast<float>(out[i]))) << i;
    } else {
      EXPECT_EQ(out[i].x, BFloat16(want).x) << i;
    }
  }
}

TEST(CpuLoops, BFloat16RunsInRegistersMatchElementwiseStreamedOrNot) {
  // Outputs of at least 8 MiB stream a whole cache line at a time (32 bfloat16), the partial lines
  // at either end through the cache: outputs starting 0, 2 and 34 bytes past a line, chunks
  // starting mid-line, the dense and the scalar flavor, NaN inputs included.
  const int64_t n = (int64_t{4} << 20) + 37;
  std::vector<BFloat16> a(n), b(n), big(n + 64);
  for (int64_t i = 0; i < n; ++i) {
    a[i] = BFloat16(static_cast<uint16_t>(i * 61 + 7), from_bits);
    b[i] = BFloat16(static_cast<float>(i % 1999) * 0.37f - 100.0f);
  }
  auto expect_bits = [](BFloat16 got, float want, int64_t i, const char* what) {
    if (std::isnan(want)) {
      ASSERT_TRUE(std::isnan(static_cast<float>(got))) << what << " at " << i;
    } else {
      ASSERT_EQ(got.x, BFloat16(want).x) << what << " at " << i;
    }
  };
  for (const int64_t offset : {0, 2, 34}) {
    const auto head = (64 - reinterpret_cast<uintptr_t>(big.data()) % 64) % 64;
    auto* out = reinterpret_cast<BFloat16*>(reinterpret_cast<char*>(big.data()) + head + offset);
    ElementwiseArgs args = args_1d({out, a.data(), b.data()}, n, {2, 2, 2});
    args.alpha.set(2.0f);
    kernel("add_dense_bfloat16_bfloat16_float32")(args, 0, 999);
    kernel("add_dense_bfloat16_bfloat16_float32")(args, 999, n);
    for (int64_t i = 0; i < n; ++i) {
      expect_bits(out[i], static_cast<float>(a[i]) + 2.0f * static_cast<float>(b[i]), i, "dense");
    }
    const float s = 0.3759765625f;  // a float that is no bfloat16: lifted at float precision
    ElementwiseArgs lifted = args_1d({out, a.data(), nullptr}, n, {2, 2, 0});
    lifted.scalar_input = 1;
    lifted.scalar.set(s);
    lifted.alpha.set(1.0f);
    kernel("add_scalar_bfloat16_bfloat16_float32")(lifted, 0, n / 3);
    kernel("add_scalar_bfloat16_bfloat16_float32")(lifted, n / 3, n);
    for (int64_t i = 0; i < n; ++i) expect_bits(out[i], static_cast<float>(a[i]) + s, i, "scalar");
  }
}

TEST(CpuLoops, CastFlavorConvertsLongRowsBlockByBlock) {
  const int64_t n = 1000;
  std::vector<int32_t> a(n);
  std::vector<double> b(2 * n);  // read at a stride of two elements
  std::vector<Half> out(n);
  for (int64_t i = 0; i < n; ++i) {
    a[i] = static_cast<int32_t>(i * 37 - 5000);
    b[2 * i] = static_cast<double>(i) / 3.0;
  }
  ElementwiseArgs args{};
  args.ndim = 1;
  args.sizes[0] = n;
  args.scalar_input = -1;
  args.data[0] = reinterpret_cast<char*>(out.data());
  args.data[1] = reinterpret_cast<char*>(a.data());
  args.data[2] = reinterpret_cast<char*>(b.data());
  args.strides[0][0] = 2;
  args.strides[1][0] = 4;
  args.strides[2][0] = 16;
  args.dtypes[0] = kFloat16;
  args.dtypes[1] = kInt32;
  args.dtypes[2] = kFloat64;
  args.alpha.set(1.0);
  // float64 compute; the result is rounded to float64, then stored as float16.
  kernel("add_cast_float64_float64_float64")(args, 0, n);
  for (int64_t i = 0; i < n; ++i) EXPECT_EQ(out[i].x, Half(static_cast<double>(a[i]) + b[2 * i]).x) << i;
}

TEST(CpuLoops, CastFlavorRepeatsABroadcastInput) {
  const int64_t n = 600;
  std::vector<uint8_t> a(n);
  const int16_t b = -3;
  std::vector<float> out(n);
  for (int64_t i = 0; i < n; ++i) a[i] = static_cast<uint8_t>(i);
  ElementwiseArgs args{};
  args.ndim = 1;
  args.sizes[0] = n;
  args.scalar_input = -1;
  args.data[0] = reinterpret_cast<char*>(out.data());
  args.data[1] = reinterpret_cast<char*>(a.data());
  args.data[2] = reinterpret_cast<char*>(const_cast<int16_t*>(&b));
  args.strides[0][0] = 4;
  args.strides[1][0] = 1;
  args.strides[2][0] = 0;
  args.dtypes[0] = kFloat32;
  args.dtypes[1] = kUInt8;
  args.dtypes[2] = kInt16;
  kernel("mul_cast_int16_int16")(args, 0, n);
  for (int64_t i = 0; i < n; ++i) EXPECT_EQ(out[i], static_cast<float>(static_cast<int16_t>(i % 256 * -3))) << i;
}

// out(c, r) = a(c, r) - b(c, r) over a cols x rows iteration where `a` is stored transposed (its
// dim 1 is contiguous) and, with out_transposed, so is the output; every chunking must give the
// strided flavor's result.
template <typename T>
void check_tiled_matches_strided(const char* tiled, const char* strided, int64_t cols, int64_t rows,
                                 bool out_transposed) {
  const int64_t n = cols * rows;
  const auto sz = static_cast<int64_t>(sizeof(T));
  std::vector<T> a(n), b(n), want(n), got(n);
  for (int64_t i = 0; i < n; ++i) {
    a[i] = static_cast<T>(i % 97);
    b[i] = static_cast<T>(i % 13);
  }
  const std::pair<int64_t, int64_t> a_st{rows * sz, sz}, b_st{sz, cols * sz};
  const std::pair<int64_t, int64_t> o_st = out_transposed ? a_st : b_st;
  ElementwiseArgs w = args_2d({want.data(), a.data(), b.data()}, cols, rows, {o_st, a_st, b_st});
  w.alpha.set(T(1));
  kernel(strided)(w, 0, n);
  for (int64_t split : {int64_t{0}, int64_t{1}, cols - 1, cols, 3 * cols + 5, n / 2, n - 1}) {
    std::fill(got.begin(), got.end(), T(0));
    ElementwiseArgs g = args_2d({got.data(), a.data(), b.data()}, cols, rows, {o_st, a_st, b_st});
    g.alpha.set(T(1));
    kernel(tiled)(g, 0, split);
    kernel(tiled)(g, split, n);
    ASSERT_EQ(std::memcmp(got.data(), want.data(), static_cast<size_t>(n * sz)), 0)
        << tiled << " " << cols << "x" << rows << " split at " << split;
  }
}

TEST(CpuLoops, TiledFlavorMatchesStridedOnEveryChunking) {
  for (bool out_t : {false, true}) {
    check_tiled_matches_strided<float>("sub_tiled_float32_float32_float32", "sub_strided_float32_float32_float32",
                                       70, 45, out_t);
    check_tiled_matches_strided<float>("sub_tiled_float32_float32_float32", "sub_strided_float32_float32_float32",
                                       64, 128, out_t);
    // Several tiles each way: full ones (8x8 transposes), a last column of tiles 44 wide (4x4) and
    // a last row of tiles 4 high.
    check_tiled_matches_strided<float>("sub_tiled_float32_float32_float32",
                                       "sub_strided_float32_float32_float32", 300, 260, out_t);
    check_tiled_matches_strided<double>("sub_tiled_float64_float64_float64", "sub_strided_float64_float64_float64",
                                        33, 17, out_t);
    check_tiled_matches_strided<int16_t>("sub_tiled_int16_int16_int16", "sub_strided_int16_int16_int16", 50, 40,
                                         out_t);
    check_tiled_matches_strided<int8_t>("sub_tiled_int8_int8_int8", "sub_strided_int8_int8_int8", 19, 200, out_t);
  }
}

TEST(CpuLoops, TiledFlavorStreamsLargeOutputs) {
  // 1500 x 1500 float32 is past the streaming threshold; rows of 1500 floats are not a multiple
  // of the tile, so aligned and unaligned rows both occur.
  check_tiled_matches_strided<float>("sub_tiled_float32_float32_float32", "sub_strided_float32_float32_float32",
                                     1500, 1500, false);
}

// Outputs of 8 MiB and more are written with streaming stores through a block buffer; below that
// straight into the output. Each kernel over one large range (output misaligned by one element, so
// stream_block's head and tail run) must match the same kernel over small ranges bit for bit.
template <typename Out, typename In>
void check_streamed_matches_cached(const char* name, int ninputs, bool in_place) {
  const int64_t n = (int64_t{9} << 20) / static_cast<int64_t>(sizeof(Out)) + 37;
  std::vector<In> a(n + 1), b(n + 1);
  for (int64_t i = 0; i <= n; ++i) {
    a[i] = static_cast<In>(static_cast<float>(i % 1999) * 0.013f - 12.0f);
    b[i] = static_cast<In>(static_cast<float>(i % 31) * 0.25f - 3.0f);
  }
  std::vector<Out> want(n), got(n + 1);
  const auto bind = [&](ElementwiseArgs& x, void* out, int64_t first, int64_t count) {
    const auto out_size = static_cast<int64_t>(sizeof(Out)),
               in_size = static_cast<int64_t>(sizeof(In));
    x = args_1d({out, a.data() + 1 + first, b.data() + 1 + first}, count,
                {out_size, in_size, in_size});
    if constexpr (is_reduced_float_v<Out>) {
      x.alpha.set(1.0f);  // float16/bfloat16 add computes in float
    } else {
      x.alpha.set(Out(1));
    }
  };
  for (int64_t i0 = 0; i0 < n; i0 += 1000) {
    const int64_t m = std::min<int64_t>(1000, n - i0);
    ElementwiseArgs w{};
    bind(w, want.data() + i0, i0, m);
    kernel(name)(w, 0, m);
  }
  ElementwiseArgs g{};
  if constexpr (std::is_same_v<Out, In>) {
    bind(g, in_place ? a.data() + 1 : got.data() + 1, 0, n);
  } else {
    ASSERT_FALSE(in_place);
    bind(g, got.data() + 1, 0, n);
  }
  const int64_t split = n / 3;  // two chunks, as two threads would run them
  kernel(name)(g, 0, split);
  kernel(name)(g, split, n);
  const void* result =
      in_place ? static_cast<const void*>(a.data() + 1) : static_cast<const void*>(got.data() + 1);
  ASSERT_EQ(std::memcmp(result, want.data(), static_cast<size_t>(n) * sizeof(Out)), 0)
      << name << (in_place ? " in place" : "") << " (" << ninputs << " inputs)";
}

TEST(CpuLoops, DenseFlavorStreamsLargeOutputsBitForBit) {
  check_streamed_matches_cached<float, float>("add_dense_float32_float32_float32", 2, false);
  check_streamed_matches_cached<float, float>("tanh_dense_float32_float32", 1,
                                              false);  // vector math
  check_streamed_matches_cached<float, float>("tanh_dense_float32_float32", 1, true);
  check_streamed_matches_cached<float, float>("atan2_dense_float32_float32", 2, false);
  check_streamed_matches_cached<double, double>("exp_dense_float64_float64", 1, true);
  // float16/bfloat16 vector math: float blocks converted in and out
  check_streamed_matches_cached<BFloat16, BFloat16>("tanh_dense_bfloat16_bfloat16", 1, false);
  check_streamed_matches_cached<Half, Half>("sin_dense_float16_float16", 1, true);
  check_streamed_matches_cached<BFloat16, BFloat16>("add_dense_bfloat16_bfloat16_float32", 2,
                                                    false);
}

// A cols x rows float32 iteration whose rows are each contiguous but not one run: `b` repeats one
// row for every row (stride 0 along dim 1: x + row), `a` is a slice of a wider buffer. The strided
// flavor runs such rows through the contiguous loop, streamed when the output is large; the
// broadcast flavor (b repeating one value per row) likewise.
TEST(CpuLoops, RowsOfContiguousOperandsMatchTheDefinition) {
  // 700 rows of 3001: an output past the streaming threshold, in rows long enough to stream, each
  // starting off a cache line; rows of 7: element by element (too short for the contiguous loop).
  const std::pair<int64_t, int64_t> shapes[] = {{3001, 3}, {3001, 700}, {7, 50000}};
  for (const auto& [cols, rows] : shapes) {
    const int64_t pitch = cols + 5, n = cols * rows;
    std::vector<float> a(pitch * rows), row(cols), col(rows), out(n), dense(n), packed(n);
    for (int64_t i = 0; i < pitch * rows; ++i) a[i] = static_cast<float>(i % 977) * 0.01f - 4.0f;
    for (int64_t c = 0; c < cols; ++c) row[c] = static_cast<float>(c % 17) - 8.0f;
    for (int64_t r = 0; r < rows; ++r) col[r] = static_cast<float>(r % 5) * 0.5f;
    const std::pair<int64_t, int64_t> o_st{4, cols * 4}, a_st{4, pitch * 4};
    ElementwiseArgs s =
        args_2d({out.data(), a.data(), row.data()}, cols, rows, {o_st, a_st, {4, 0}});
    s.alpha.set(1.0f);
    kernel("add_strided_float32_float32_float32")(s, 0, 5);  // a first chunk ending inside a row
    kernel("add_strided_float32_float32_float32")(s, 5, n);
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = 0; c < cols; ++c) {
        ASSERT_EQ(out[r * cols + c], a[r * pitch + c] + row[c]) << "x + row at " << c << ", " << r;
      }
    }
    ElementwiseArgs bc =
        args_2d({out.data(), a.data(), col.data()}, cols, rows, {o_st, a_st, {0, 4}});
    bc.alpha.set(1.0f);
    bc.scalar_input = 1;
    kernel("add_broadcast_float32_float32_float32")(bc, 0, n / 2);
    kernel("add_broadcast_float32_float32_float32")(bc, n / 2, n);
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = 0; c < cols; ++c) {
        ASSERT_EQ(out[r * cols + c], a[r * pitch + c] + col[r])
            << "x + column at " << c << ", " << r;
      }
    }
    // tanh of the slice (vector math per row) against the dense kernel on a packed copy.
    for (int64_t r = 0; r < rows; ++r)
      std::copy_n(a.data() + r * pitch, cols, packed.data() + r * cols);
    ElementwiseArgs d = args_1d({dense.data(), packed.data()}, n, {4, 4});
    kernel("tanh_dense_float32_float32")(d, 0, n);
    ElementwiseArgs t = args_2d({out.data(), a.data()}, cols, rows, {o_st, a_st});
    kernel("tanh_strided_float32_float32")(t, 0, n);
    // Long rows run the contiguous loop, short ones are gathered into blocks (vector math both).
    ASSERT_EQ(std::memcmp(out.data(), dense.data(), static_cast<size_t>(n) * 4), 0)
        << rows << " rows of " << cols;
    // atan2(x, column) through the broadcast flavor against the dense kernel on packed copies.
    std::vector<float> col_packed(n);
    for (int64_t r = 0; r < rows; ++r)
      std::fill_n(col_packed.data() + r * cols, cols, col[r] + 0.25f);
    std::vector<float> col_shifted(rows);
    for (int64_t r = 0; r < rows; ++r) col_shifted[r] = col[r] + 0.25f;
    ElementwiseArgs d2 = args_1d({dense.data(), packed.data(), col_packed.data()}, n, {4, 4, 4});
    kernel("atan2_dense_float32_float32")(d2, 0, n);
    ElementwiseArgs t2 =
        args_2d({out.data(), a.data(), col_shifted.data()}, cols, rows, {o_st, a_st, {0, 4}});
    t2.scalar_input = 1;
    kernel("atan2_broadcast_float32_float32")(t2, 0, n);
    ASSERT_EQ(std::memcmp(out.data(), dense.data(), static_cast<size_t>(n) * 4), 0)
        << "atan2 by column, " << rows << " rows of " << cols;
  }
}

TEST(CpuLoops, StreamBlockCopiesEveryOffsetAndLengthExactly) {
  // Partial lines at either end go through the cache, whole lines streamed: every start within a
  // line and lengths around line multiples copy exactly and write nothing outside.
  std::vector<unsigned char> src(512), dst(640);
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<unsigned char>(i * 7 + 3);
  const auto base = reinterpret_cast<uintptr_t>(dst.data());
  for (int64_t off = 0; off < 64; ++off) {
    for (int64_t len : {0, 1, 15, 16, 17, 63, 64, 65, 127, 128, 129, 200, 447}) {
      std::fill(dst.begin(), dst.end(), 0xAB);
      const int64_t at =
          static_cast<int64_t>((64 - base % 64) % 64) + off;  // off bytes past a line
      cpu::stream_block(dst.data() + at, src.data(), len);
      cpu::fence_streaming_stores();
      for (int64_t i = 0; i < static_cast<int64_t>(dst.size()); ++i) {
        const bool inside = i >= at && i < at + len;
        ASSERT_EQ(dst[i], inside ? src[i - at] : 0xAB)
            << "offset " << off << ", length " << len << ", byte " << i;
      }
    }
  }
}

TEST(CpuLoops, RepeatedOperandsMatchTheDefinitionInEveryRowLength) {
  // clamp(x, lo, hi) with one-element bounds and x + column, through the strided flavor (a repeated
  // operand along dim 0), into an output 16 bytes past a cache line: rows of 3001 stream (blocks
  // from the output's cache lines), rows of 40 do not, rows of 3 go element by element.
  const std::pair<int64_t, int64_t> shapes[] = {{3001, 700}, {40, 60000}, {3, 50000}};
  for (const auto& [cols, rows] : shapes) {
    const int64_t pitch = cols + 5, n = cols * rows;
    std::vector<float> a(pitch * rows), col(rows), big(n + 32);
    float* out = big.data() + (16 - reinterpret_cast<uintptr_t>(big.data()) % 64 / 4) % 16 + 4;
    ASSERT_EQ(reinterpret_cast<uintptr_t>(out) % 64, 16u);
    for (int64_t i = 0; i < pitch * rows; ++i) a[i] = static_cast<float>(i % 977) * 0.01f - 4.0f;
    for (int64_t r = 0; r < rows; ++r) col[r] = static_cast<float>(r % 5) * 0.5f;
    float lo = -1.5f, hi = 2.25f;
    const std::pair<int64_t, int64_t> o_st{4, cols * 4}, a_st{4, pitch * 4};
    ElementwiseArgs c =
        args_2d({out, a.data(), &lo, &hi}, cols, rows, {o_st, a_st, {0, 0}, {0, 0}});
    kernel("clamp_strided_float32_float32")(c, 0, 5);  // a first chunk ending inside a row
    kernel("clamp_strided_float32_float32")(c, 5, n);
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t k = 0; k < cols; ++k) {
        ASSERT_EQ(out[r * cols + k], std::min(std::max(a[r * pitch + k], lo), hi))
            << "clamp at " << k << ", " << r << " of " << rows << " rows of " << cols;
      }
    }
    ElementwiseArgs x = args_2d({out, a.data(), col.data()}, cols, rows, {o_st, a_st, {0, 4}});
    x.alpha.set(1.0f);
    kernel("add_strided_float32_float32_float32")(x, 0, n / 3);
    kernel("add_strided_float32_float32_float32")(x, n / 3, n);
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t k = 0; k < cols; ++k) {
        ASSERT_EQ(out[r * cols + k], a[r * pitch + k] + col[r])
            << "x + column at " << k << ", " << r << " of " << rows << " rows of " << cols;
      }
    }
  }
}

TEST(CpuLoops, RowWalksCarryThroughEveryDimInEveryChunking) {
  // A 4-d x + y[..., None] (y repeated along dim 0) and x + z (both contiguous along dim 0, not
  // one run: x is padded), through the strided flavor's row walk, in chunks that start and end
  // inside rows and dims: each row of each chunk lands where the definition puts it.
  const int64_t sizes[4] = {40, 3, 4, 5};
  const int64_t pitch = sizes[0] + 3, n = sizes[0] * sizes[1] * sizes[2] * sizes[3];
  const int64_t rows = n / sizes[0];
  std::vector<float> x(pitch * rows), y(rows), z(n), out(n);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 389) * 0.5f - 90.0f;
  for (int64_t r = 0; r < rows; ++r) y[r] = static_cast<float>(r % 7) - 3.0f;
  for (int64_t i = 0; i < n; ++i) z[i] = static_cast<float>(i % 13) * 0.25f;
  const auto args_4d = [&](const float* in1, int64_t in1_inner) {
    ElementwiseArgs a{};
    a.ndim = 4;
    a.scalar_input = -1;
    a.alpha.set(1.0f);
    a.data[0] = reinterpret_cast<char*>(out.data());
    a.data[1] = reinterpret_cast<char*>(x.data());
    a.data[2] = reinterpret_cast<char*>(const_cast<float*>(in1));
    int64_t out_st = 4, x_st = 4, in1_st = 4 * in1_inner;
    for (int d = 0; d < 4; ++d) {
      a.sizes[d] = sizes[d];
      a.strides[0][d] = out_st;
      a.strides[1][d] = x_st;
      a.strides[2][d] = in1_inner == 0 && d == 0 ? 0 : in1_st;
      out_st *= sizes[d];
      x_st = d == 0 ? pitch * 4 : x_st * sizes[d];
      in1_st = d == 0 && in1_inner == 0 ? 4 : in1_st * (d == 0 ? sizes[0] : sizes[d]);
    }
    return a;
  };
  for (const int64_t cut : {int64_t{1}, sizes[0] * 3 + 7, n / 2 + 11, n - 1}) {
    for (const bool repeated : {true, false}) {
      std::fill(out.begin(), out.end(), -1.0f);
      ElementwiseArgs a = repeated ? args_4d(y.data(), 0) : args_4d(z.data(), 1);
      kernel("add_strided_float32_float32_float32")(a, 0, cut);
      kernel("add_strided_float32_float32_float32")(a, cut, n);
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t k = 0; k < sizes[0]; ++k) {
          const float other = repeated ? y[r] : z[r * sizes[0] + k];
          ASSERT_EQ(out[r * sizes[0] + k], x[r * pitch + k] + other)
              << (repeated ? "x + y[..., None]" : "x + z") << " at " << k << ", row " << r
              << ", chunks cut at " << cut;
        }
      }
    }
  }
}

TEST(CpuLoops, BroadcastShortRowsRunWholeRowsThroughTheDenseLoop) {
  // x + column with rows shorter than 32 elements: whole rows in blocks, the column expanded, when
  // x and the output continue from row to row; the partial rows at a chunk's ends row by row. A
  // padded x (rows not continuing) takes the row-by-row loop. float32, and bfloat16 (its loop in
  // registers).
  // Rows of up to 8 and of 9 to 16 elements are expanded a fixed 8 or 16 at a time.
  for (const int64_t cols : {1, 3, 7, 8, 9, 12, 16, 17, 31}) {
    const int64_t rows = 5000, n = cols * rows;
    for (const int64_t pitch : {cols, cols + 2}) {
      std::vector<float> a(pitch * rows), col(rows), out(n, -9.0f);
      for (int64_t i = 0; i < pitch * rows; ++i) a[i] = static_cast<float>(i % 613) * 0.25f - 70.0f;
      for (int64_t r = 0; r < rows; ++r) col[r] = static_cast<float>(r % 11) * 0.5f;
      ElementwiseArgs x = args_2d({out.data(), a.data(), col.data()}, cols, rows,
                                  {{4, cols * 4}, {4, pitch * 4}, {0, 4}});
      x.alpha.set(1.0f);
      x.scalar_input = 1;
      const int64_t cut = n / 3 + 1;  // a chunk ending inside a row (for cols > 1)
      kernel("add_broadcast_float32_float32_float32")(x, 0, cut);
      kernel("add_broadcast_float32_float32_float32")(x, cut, n);
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t k = 0; k < cols; ++k) {
          ASSERT_EQ(out[r * cols + k], a[r * pitch + k] + col[r])
              << k << ", " << r << " of rows of " << cols << ", pitch " << pitch;
        }
      }
    }
    std::vector<BFloat16> b(n), bcol(rows), bout(n);
    for (int64_t i = 0; i < n; ++i) b[i] = BFloat16(static_cast<float>(i % 97) * 0.37f - 10.0f);
    for (int64_t r = 0; r < rows; ++r) bcol[r] = BFloat16(static_cast<float>(r % 13) * 1.25f);
    ElementwiseArgs y = args_2d({bout.data(), b.data(), bcol.data()}, cols, rows,
                                {{2, cols * 2}, {2, cols * 2}, {0, 2}});
    y.alpha.set(1.0f);
    y.scalar_input = 1;
    kernel("add_broadcast_bfloat16_bfloat16_float32")(y, 0, n / 2 + 1);
    kernel("add_broadcast_bfloat16_bfloat16_float32")(y, n / 2 + 1, n);
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t k = 0; k < cols; ++k) {
        const float want = static_cast<float>(b[r * cols + k]) + static_cast<float>(bcol[r]);
        ASSERT_EQ(bout[r * cols + k].x, BFloat16(want).x) << k << ", " << r << " (bfloat16)";
      }
    }
  }
}

TEST(CpuLoops, StridedVectorMathIsGatheredIntoBlocks) {
  // tanh of every third element (a chunk starting and ending mid-block), against the dense kernel
  // on a packed copy: the gathered blocks run the same vector function.
  const int64_t n = 1000;
  std::vector<float> a(3 * n), packed(n), dense(n), out(2 * n, -7.0f);
  for (int64_t i = 0; i < 3 * n; ++i) a[i] = static_cast<float>(i % 613) * 0.013f - 4.0f;
  for (int64_t i = 0; i < n; ++i) packed[i] = a[3 * i];
  ElementwiseArgs d = args_1d({dense.data(), packed.data()}, n, {4, 4});
  kernel("tanh_dense_float32_float32")(d, 0, n);
  ElementwiseArgs s = args_1d({out.data(), a.data()}, n, {8, 12});  // the output strided too
  kernel("tanh_strided_float32_float32")(s, 0, 300);
  kernel("tanh_strided_float32_float32")(s, 300, n);
  for (int64_t i = 0; i < n; ++i) {
    ASSERT_EQ(bits(out[2 * i]), bits(dense[i])) << i;
    ASSERT_EQ(out[2 * i + 1], -7.0f) << "wrote between the output's elements at " << i;
  }
}

}  // namespace
}  // namespace ingot
