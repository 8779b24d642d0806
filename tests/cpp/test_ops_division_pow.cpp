// floor_divide, remainder and pow through the C++ API, against Python's definitions evaluated in
// long double: a // b == floor(a / b), a % b == a - b * (a // b), integer powers wrapping modulo
// 2^bits. Values on every dtype and layout are checked by the OpInfo table (test_opinfo.py).
#include <cmath>
#include <cstdint>
#include <limits>

#include "ops_test_support.h"

namespace ingot {
namespace {

using namespace ingot::testing;

// Python's a // b; integer division by zero is defined as 0, float division by zero is IEEE a / b.
long double py_floordiv(long double a, long double b, bool ints) {
  if (b == 0) return ints ? 0 : a / b;
  if (std::isnan(a) || std::isnan(b) || std::isinf(a)) return NAN;
  if (std::isinf(b)) return a == 0 || (a < 0) == (b < 0) ? std::copysign(0.0L, a / b) : -1;
  const long double q = std::floor(a / b);
  return q == 0 ? std::copysign(0.0L, a / b) : q;
}

// Python's a % b: the divisor's sign, a zero result signed like the divisor; x % 0 is 0 for
// integers and NaN for floats.
long double py_mod(long double a, long double b, bool ints) {
  if (b == 0) return ints ? 0 : NAN;
  if (std::isnan(a) || std::isnan(b) || std::isinf(a)) return NAN;
  if (std::isinf(b)) return a == 0 ? std::copysign(0.0L, b) : (a < 0) == (b < 0) ? a : b;
  const long double r = a - b * std::floor(a / b);
  return r == 0 ? std::copysign(0.0L, b) : r;
}

// Integer base ** exp by repeated multiplication modulo 2^64; negative exponents give
// 1 / base**|exp| truncated toward zero (PyTorch's rule).
long double int_pow(long double base, long double exp) {
  if (exp < 0) return base == 1 ? 1 : base == -1 ? (std::fmod(exp, 2.0L) == 0 ? 1 : -1) : 0;
  uint64_t r = 1;
  for (int64_t i = 0; i < static_cast<int64_t>(exp); ++i) r *= static_cast<uint64_t>(static_cast<int64_t>(base));
  return static_cast<long double>(static_cast<int64_t>(r));
}

bool signbit_of(const Tensor& t, int64_t i) { return std::signbit(values_of(t)[static_cast<size_t>(i)]); }

TEST(OpsDivisionPow, EverySignCombinationRoundsTowardNegativeInfinity) {
  for (ScalarType t : {kInt8, kInt16, kInt32, kInt64, kFloat16, kBFloat16, kFloat32, kFloat64}) {
    const Tensor a = tensor_of({7, -7, 7, -7, 6, -6}, {6}, t), b = tensor_of({2, 2, -2, -2, -3, 3}, {6}, t);
    std::vector<long double> q, r;
    for (const auto& [x, y] : std::vector<std::pair<int, int>>{{7, 2}, {-7, 2}, {7, -2}, {-7, -2}, {6, -3}, {-6, 3}}) {
      q.push_back(py_floordiv(x, y, true));
      r.push_back(py_mod(x, y, true));
    }
    EXPECT_EQ(values_of(floor_divide(a, b)), q) << t;
    EXPECT_EQ(values_of(remainder(a, b)), r) << t;
  }
}

TEST(OpsDivisionPow, IntegerDivisionAndModuloByZeroGiveZero) {
  for (ScalarType t : {kBool, kUInt8, kInt8, kInt16, kInt32, kInt64}) {
    const Tensor a = tensor_of({1, 0, 1}, {3}, t), zero = filled({3}, 0, t);
    EXPECT_EQ(ints_of(floor_divide(a, zero)), (std::vector<int64_t>{0, 0, 0})) << t;
    EXPECT_EQ(ints_of(remainder(a, zero)), (std::vector<int64_t>{0, 0, 0})) << t;
  }
  EXPECT_EQ(ints_of(floor_divide(tensor_of({-5}, {1}, kInt64), Scalar(0))), (std::vector<int64_t>{0}));
}

TEST(OpsDivisionPow, MostNegativeIntegerFloorDivideMinusOneWraps) {
  const int64_t lo = std::numeric_limits<int64_t>::min();
  Tensor a = full({2}, Scalar(lo), kInt64);
  EXPECT_EQ(ints_of(floor_divide(a, Scalar(-1))), (std::vector<int64_t>{lo, lo}));
  EXPECT_EQ(ints_of(remainder(a, Scalar(-1))), (std::vector<int64_t>{0, 0}));
  for (ScalarType t : {kInt8, kInt16, kInt32}) {
    const int64_t min = t == kInt8 ? INT8_MIN : t == kInt16 ? INT16_MIN : INT32_MIN;
    const Tensor m = tensor_of({static_cast<double>(min)}, {1}, t), minus_one = filled({1}, -1, t);
    EXPECT_EQ(ints_of(floor_divide(m, minus_one)), (std::vector<int64_t>{min})) << t;
    EXPECT_EQ(ints_of(remainder(m, minus_one)), (std::vector<int64_t>{0})) << t;
  }
}

TEST(OpsDivisionPow, FloatFloorDivideByZeroIsIeeeDivision) {
  const Tensor out = floor_divide(tensor_of({3, -3, 0, NAN}, {4}, kFloat32), filled({4}, 0));
  const std::vector<long double> v = values_of(out);
  EXPECT_EQ(v[0], INFINITY);
  EXPECT_EQ(v[1], -INFINITY);
  EXPECT_TRUE(std::isnan(v[2]) && std::isnan(v[3]));
  for (long double r : values_of(remainder(tensor_of({3, -3, 0}, {3}, kFloat64), Scalar(0.0)))) EXPECT_TRUE(std::isnan(r));
}

TEST(OpsDivisionPow, FloatZeroResultsCarryPythonSigns) {
  for (ScalarType t : kFloatDtypes) {
    // -0.0 // 5 == -0.0, 0.0 // -5 == -0.0, 1 // inf == 0.0; -0.0 % 3 == 0.0, 6 % -3 == -0.0.
    const Tensor q = floor_divide(tensor_of({-0.0, 0.0, 1, 3}, {4}, t), tensor_of({5, -5, INFINITY, 5}, {4}, t));
    EXPECT_TRUE(signbit_of(q, 0) && signbit_of(q, 1)) << t;
    EXPECT_FALSE(signbit_of(q, 2) || signbit_of(q, 3)) << t;
    const Tensor r = remainder(tensor_of({-0.0, 6, -6}, {3}, t), tensor_of({3, -3, 3}, {3}, t));
    EXPECT_FALSE(signbit_of(r, 0)) << t;
    EXPECT_TRUE(signbit_of(r, 1)) << t;
    EXPECT_FALSE(signbit_of(r, 2)) << t;
  }
}

TEST(OpsDivisionPow, InfiniteDivisorsFollowPython) {
  const Tensor a = tensor_of({-1, 1, 1, INFINITY}, {4}, kFloat64), b = tensor_of({INFINITY, INFINITY, -INFINITY, 2}, {4}, kFloat64);
  const std::vector<long double> q = values_of(floor_divide(a, b)), r = values_of(remainder(a, b));
  for (size_t i = 0; i < 3; ++i) {
    const long double x = values_of(a)[i], y = values_of(b)[i];
    EXPECT_EQ(q[i], py_floordiv(x, y, false)) << i;
    EXPECT_EQ(r[i], py_mod(x, y, false)) << i;
  }
  EXPECT_TRUE(std::isnan(q[3]) && std::isnan(r[3]));
}

TEST(OpsDivisionPow, IntegerPowWrapsAroundLikeRepeatedMultiplication) {
  const Tensor base = tensor_of({3, -3, 7, 2}, {4}, kInt32), exp = tensor_of({40, 41, 25, 31}, {4}, kInt32);
  const std::vector<int64_t> got = ints_of(pow(base, exp));
  const std::vector<long double> b = values_of(base), e = values_of(exp);
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i], static_cast<int64_t>(expected_in(kInt32, int_pow(b[i], e[i])))) << i;
  }
  EXPECT_EQ(ints_of(pow(full({1}, Scalar(int64_t{3}), kInt64), Scalar(41))),
            (std::vector<int64_t>{static_cast<int64_t>(int_pow(3, 41))}));
}

TEST(OpsDivisionPow, NegativeIntegerExponentGivesTruncatedReciprocal) {
  const Tensor base = tensor_of({1, -1, -1, 2, 0, -5}, {6}, kInt64), exp = tensor_of({-3, -3, -4, -1, -2, -1}, {6}, kInt64);
  EXPECT_EQ(ints_of(pow(base, exp)), (std::vector<int64_t>{1, -1, 1, 0, 0, 0}));
}

TEST(OpsDivisionPow, IntegerTensorToNegativeScalarPowerIsValueError) {
  // As PyTorch and NumPy: a Python-number exponent below 0 for an integer base is refused.
  const std::string msg = error_message<ValueError>([] { pow(tensor_of({1, -1, 3}, {3}, kInt8), Scalar(-1)); });
  EXPECT_NE(msg.find("pow"), std::string::npos) << msg;
  EXPECT_NE(msg.find("negative integer powers"), std::string::npos) << msg;
  EXPECT_NE(msg.find("-1"), std::string::npos) << msg;
  EXPECT_EQ(ints_of(pow(tensor_of({1, -1, 3}, {3}, kInt8), Scalar(2))), (std::vector<int64_t>{1, 1, 9}));
  EXPECT_EQ(values_of(pow(tensor_of({2}, {1}, kInt8), Scalar(-1.0))), (std::vector<long double>{0.5}));
}

TEST(OpsDivisionPow, PowPromotesLikePyTorch) {
  const Tensor i = tensor_of({4, 9}, {2}, kInt32);
  const Tensor half = pow(i, Scalar(0.5));
  EXPECT_EQ(half.dtype(), kFloat32);
  EXPECT_EQ(values_of(half), (std::vector<long double>{2, 3}));
  EXPECT_EQ(pow(i, Scalar(2)).dtype(), kInt32);
  EXPECT_EQ(pow(filled({2}, 3, kFloat16), Scalar(2)).dtype(), kFloat16);
  EXPECT_EQ(pow(tensor_of({2}, {1}, kUInt8), tensor_of({3}, {1}, kInt8)).dtype(), kInt16);
  EXPECT_EQ(floor_divide(i, Scalar(2.5)).dtype(), kFloat32);
  EXPECT_EQ(remainder(filled({2}, 1, kInt64), filled({2}, 1, kFloat16)).dtype(), kFloat16);
}

TEST(OpsDivisionPow, FloatPowSpecialValuesFollowC) {
  const Tensor base = tensor_of({NAN, 1, -8, 0, -0.0, INFINITY}, {6}, kFloat64);
  const Tensor exp = tensor_of({0, NAN, 1.0 / 3, -1, -1, -2}, {6}, kFloat64);
  const std::vector<long double> got = values_of(pow(base, exp)), b = values_of(base), e = values_of(exp);
  for (size_t i = 0; i < got.size(); ++i) {
    const long double want = std::pow(b[i], e[i]);
    EXPECT_TRUE(got[i] == want || (std::isnan(got[i]) && std::isnan(want))) << i;
  }
}

TEST(OpsDivisionPow, ScalarOverloadsMatchTheTensorForms) {
  const Tensor a = tensor_of({-7, -1, 0, 5, 9}, {5}, kInt16);
  EXPECT_EQ(values_of(floor_divide(a, Scalar(-2))), values_of(floor_divide(a, filled({5}, -2, kInt16))));
  EXPECT_EQ(values_of(a.remainder(Scalar(3))), values_of(remainder(a, filled({5}, 3, kInt16))));
  EXPECT_EQ(values_of(a.pow(Scalar(3))), values_of(pow(a, filled({5}, 3, kInt16))));
}

TEST(OpsDivisionPow, ScalarBaseOverloadPromotesLikeANumberAndWritesOut) {
  const Tensor e = tensor_of({0, 1, 3, 10}, {4}, kInt16);
  const Tensor r = pow(Scalar(2), e);  // an int number with an int16 tensor stays int16
  EXPECT_EQ(r.dtype(), kInt16);
  EXPECT_EQ(ints_of(r), (std::vector<int64_t>{1, 2, 8, 1024}));
  const Tensor f = pow(Scalar(0.5), e);  // a float number lifts the result to float32
  EXPECT_EQ(f.dtype(), kFloat32);
  EXPECT_EQ(values_of(f), (std::vector<long double>{1.0L, 0.5L, 0.125L, 1.0L / 1024}));
  // out= receives the int16 result: 3^10 = 59049 wraps to -6487 before the float64 store.
  Tensor out = empty({4}, kFloat64);
  EXPECT_TRUE(pow_out(out, Scalar(3), e).is_same(out));
  EXPECT_EQ(values_of(out), (std::vector<long double>{1, 3, 27, 59049 - 65536}));
}

TEST(OpsDivisionPow, OutOverloadsWriteIntoTheGivenTensor) {
  const Tensor a = tensor_of({-7, 7, 5}, {3}, kInt32), b = tensor_of({2, -2, 3}, {3}, kInt32);
  Tensor out = filled({3}, 0, kFloat64);
  Tensor& r = floor_divide_out(out, a, b);
  EXPECT_TRUE(r.is_same(out));
  EXPECT_EQ(values_of(out), values_of(floor_divide(a, b)));
  remainder_out(out, a, Scalar(-3));
  EXPECT_EQ(values_of(out), values_of(remainder(a, filled({3}, -3, kInt32))));
  pow_out(out, a, Scalar(3));
  EXPECT_EQ(values_of(out), values_of(pow(a, filled({3}, 3, kInt32))));
  Tensor int_out = filled({3}, 0, kInt32);
  EXPECT_THROW(pow_out(int_out, a, Scalar(0.5)), TypeError);
}

TEST(OpsDivisionPow, InPlaceOverloadsKeepSelfAndItsDtype) {
  Tensor a = tensor_of({-7, 7, 5}, {3}, kInt64);
  const Tensor before = a.clone(), b = tensor_of({2, -2, 3}, {3}, kInt64);
  Tensor& r = a.floor_divide_(b);
  EXPECT_TRUE(r.is_same(a));
  EXPECT_EQ(values_of(a), values_of(floor_divide(before, b)));
  a.remainder_(Scalar(3)).pow_(Scalar(2));
  EXPECT_EQ(values_of(a), values_of(pow(remainder(floor_divide(before, b), Scalar(3)), Scalar(2))));
  Tensor h = tensor_of({-2.5, 3}, {2}, kFloat16);
  h.floor_divide_(tensor_of({2, 2}, {2}, kInt32));
  EXPECT_EQ(h.dtype(), kFloat16);
  EXPECT_EQ(values_of(h), (std::vector<long double>{-2, 1}));
}

TEST(OpsDivisionPow, InPlaceThatCannotCastTheResultIsATypeErrorNamingTheOp) {
  Tensor i = filled({3}, 4, kInt32);
  EXPECT_NE(error_message<TypeError>([&] { i.floor_divide_(filled({3}, 0.5)); }).find("floor_divide"), std::string::npos);
  EXPECT_THROW(i.remainder_(Scalar(1.5)), TypeError);
  EXPECT_THROW(i.pow_(Scalar(0.5)), TypeError);
  Tensor b = filled({3}, 1, kBool);
  EXPECT_THROW(b.pow_(filled({3}, 2, kInt32)), TypeError);
}

}  // namespace
}  // namespace ingot
