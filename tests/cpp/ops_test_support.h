// Shared by tests/cpp/test_ops_*.cpp: deterministic inputs per dtype, reading results back as
// long double, and the per-dtype expected value (wrapped for integers, rounded for floats) with
// a ULP distance.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "ingot/ingot.h"

namespace ingot::testing {

inline const std::vector<ScalarType> kFloatDtypes = {kFloat16, kBFloat16, kFloat32, kFloat64};

// A tensor of `dtype` holding `values` (converted as a cast would), shape `sizes`.
inline Tensor tensor_of(const std::vector<double>& values, IntArrayRef sizes, ScalarType dtype) {
  std::vector<double> copy = values;
  return from_blob(copy.data(), sizes, kFloat64).to(dtype, /*copy=*/true);
}

// A tensor of `sizes` with every element `value`.
inline Tensor filled(IntArrayRef sizes, double value, ScalarType dtype = kFloat32) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return tensor_of(std::vector<double>(static_cast<size_t>(n), value), sizes, dtype);
}

// n values valid for `dtype`: mixed signs and magnitudes; for floats also ±0, ±inf and NaN when
// `specials`; integers stay small enough that sums and products of two fit int64.
inline std::vector<double> sample_values(ScalarType dtype, int64_t n, int seed, bool specials = false) {
  std::vector<double> v;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t k = (i * 7 + seed * 13) % 41 - 20;
    if (dtype == kBool) {
      v.push_back((i + seed) % 3 == 0 ? 1.0 : 0.0);
    } else if (dtype == kUInt8) {
      v.push_back(static_cast<double>((k + 20) * 6));
    } else if (is_integral_type(dtype, false)) {
      v.push_back(static_cast<double>(k * (dtype == kInt8 ? 6 : 997)));
    } else {
      v.push_back(0.173 * static_cast<double>(k) + 0.01 * seed);
    }
  }
  if (specials && is_floating_type(dtype) && n >= 6) {
    const double sp[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1e-3};
    for (int i = 0; i < 6; ++i) v[(i * 5 + seed) % n] = sp[i];
  }
  return v;
}

// Every element of `t`, in iteration order of its logical layout, as long double.
inline std::vector<long double> values_of(const Tensor& t) {
  Tensor c = t.to(kFloat64, /*copy=*/true).contiguous();
  const double* p = c.data_ptr<double>();
  return std::vector<long double>(p, p + c.numel());
}

// The exact int64 value of each element (for integer results, where doubles could round).
inline std::vector<int64_t> ints_of(const Tensor& t) {
  Tensor c = t.to(kInt64, /*copy=*/true).contiguous();
  const int64_t* p = c.data_ptr<int64_t>();
  return std::vector<int64_t>(p, p + c.numel());
}

// What an ideal kernel stores in `dtype` for the exact result r: integers wrap modulo 2^bits,
// bool tests for nonzero, floats round to nearest.
inline long double expected_in(ScalarType dtype, long double r) {
  switch (dtype) {
    case kBool:
      return r != 0;
    case kUInt8:
      return static_cast<uint8_t>(static_cast<uint64_t>(static_cast<int64_t>(r)));
    case kInt8:
      return static_cast<int8_t>(static_cast<uint64_t>(static_cast<int64_t>(r)));
    case kInt16:
      return static_cast<int16_t>(static_cast<uint64_t>(static_cast<int64_t>(r)));
    case kInt32:
      return static_cast<int32_t>(static_cast<uint64_t>(static_cast<int64_t>(r)));
    case kInt64:
      return static_cast<long double>(static_cast<int64_t>(r));
    case kFloat16:
      return static_cast<float>(Half(static_cast<float>(r)));
    case kBFloat16:
      return static_cast<float>(BFloat16(static_cast<float>(r)));
    case kFloat32:
      return static_cast<float>(r);
    case kFloat64:
      return static_cast<double>(r);
  }
  return r;
}

// Distance between got and want in units of the last place of `dtype` at want; 0 when both are
// NaN or the same infinity.
inline long double ulp_distance(ScalarType dtype, long double got, long double want) {
  if (std::isnan(got) || std::isnan(want)) return std::isnan(got) && std::isnan(want) ? 0 : INFINITY;
  if (std::isinf(got) || std::isinf(want)) return got == want ? 0 : INFINITY;
  if (!is_floating_type(dtype)) return got == want ? 0 : INFINITY;
  const int mant = dtype == kFloat16 ? 10 : dtype == kBFloat16 ? 7 : dtype == kFloat32 ? 23 : 52;
  const int min_exp = dtype == kFloat16 ? -14 : dtype == kFloat64 ? -1022 : -126;
  int e = 0;
  std::frexp(want, &e);
  const long double spacing = std::ldexp(1.0L, std::max(e - 1, min_exp) - mant);
  return std::fabs(got - want) / spacing;
}

// Checks every element of `got` against the exact results `exact`, within `ulps` for floats and
// exactly for integers and bool.
inline void expect_close(const Tensor& got, const std::vector<long double>& exact, double ulps,
                         const std::string& what) {
  const ScalarType dtype = got.dtype();
  ASSERT_EQ(got.numel(), static_cast<int64_t>(exact.size())) << what;
  const std::vector<long double> vals = values_of(got);
  const std::vector<int64_t> ints = is_floating_type(dtype) ? std::vector<int64_t>{} : ints_of(got);
  for (size_t i = 0; i < exact.size(); ++i) {
    const long double want = expected_in(dtype, exact[i]);
    if (!is_floating_type(dtype)) {
      EXPECT_EQ(ints[i], static_cast<int64_t>(want)) << what << " element " << i << " exact " << (double)exact[i];
    } else {
      EXPECT_LE(ulp_distance(dtype, vals[i], want), ulps)
          << what << " element " << i << ": got " << (double)vals[i] << ", want " << (double)want;
    }
  }
}

using Ref = std::function<long double(long double, long double)>;

// Runs `op` on same-dtype 5x7 inputs with special values and checks the dtype and every element
// against `ref` applied to the inputs read back as long double.
inline void check_binary_on(const std::string& name, ScalarType dtype, ScalarType want_dtype,
                            const std::function<Tensor(const Tensor&, const Tensor&)>& op,
                            const std::vector<double>& av, const std::vector<double>& bv, const Ref& ref,
                            double ulps) {
  const Tensor a = tensor_of(av, {5, 7}, dtype), b = tensor_of(bv, {5, 7}, dtype);
  const Tensor out = op(a, b);
  ASSERT_EQ(out.dtype(), want_dtype) << name << " on " << dtype;
  ASSERT_EQ(out.sizes().vec(), (std::vector<int64_t>{5, 7}));
  const std::vector<long double> x = values_of(a), y = values_of(b);
  std::vector<long double> exact;
  for (size_t i = 0; i < x.size(); ++i) exact.push_back(ref(x[i], y[i]));
  expect_close(out, exact, ulps, detail::concat(name, " on ", dtype));
}

template <typename Error, typename Fn>
std::string error_message(Fn&& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no exception)";
}

}  // namespace ingot::testing
