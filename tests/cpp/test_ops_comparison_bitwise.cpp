// ne/lt/le/gt/ge, bitwise and/or/xor/not, shifts and abs through the C++ API: IEEE and shift
// semantics, promotion, Scalar overloads, out=, in-place and the dtype errors. Values on every
// dtype and layout are checked by the OpInfo table (tests/python/test_opinfo.py).
#include <cmath>
#include <functional>

#include "ops_test_support.h"

namespace ingot {
namespace {

using namespace ingot::testing;
using BinaryOp = std::function<Tensor(const Tensor&, const Tensor&)>;

const std::vector<ScalarType> kIntegerDtypes = {kUInt8, kInt8, kInt16, kInt32, kInt64};

struct NamedComparison {
  const char* name;
  BinaryOp op;
  std::function<bool(long double, long double)> ref;
};

const std::vector<NamedComparison>& comparisons() {
  static const std::vector<NamedComparison> all = {
      {"ne", [](const Tensor& a, const Tensor& b) { return ne(a, b); }, [](long double x, long double y) { return x != y; }},
      {"lt", [](const Tensor& a, const Tensor& b) { return lt(a, b); }, [](long double x, long double y) { return x < y; }},
      {"le", [](const Tensor& a, const Tensor& b) { return le(a, b); }, [](long double x, long double y) { return x <= y; }},
      {"gt", [](const Tensor& a, const Tensor& b) { return gt(a, b); }, [](long double x, long double y) { return x > y; }},
      {"ge", [](const Tensor& a, const Tensor& b) { return ge(a, b); }, [](long double x, long double y) { return x >= y; }},
  };
  return all;
}

// Integer and boolean results are exact: no ULP slack.
void check_binary(const std::string& name, ScalarType dtype, ScalarType want_dtype, const BinaryOp& op,
                  const std::vector<double>& av, const std::vector<double>& bv, const Ref& ref) {
  check_binary_on(name, dtype, want_dtype, op, av, bv, ref, 0);
}

TEST(OpsComparison, NanComparesFalseExceptUnderNe) {
  for (ScalarType t : kFloatDtypes) {
    const Tensor a = tensor_of({NAN, NAN, 1.0}, {3}, t), b = tensor_of({NAN, 1.0, NAN}, {3}, t);
    EXPECT_EQ(ints_of(ne(a, b)), (std::vector<int64_t>{1, 1, 1})) << t;
    for (const NamedComparison& c : comparisons()) {
      if (std::string(c.name) != "ne") {
        EXPECT_EQ(ints_of(c.op(a, b)), (std::vector<int64_t>{0, 0, 0})) << c.name;
      }
    }
  }
}

TEST(OpsComparison, NegativeZeroEqualsPositiveZero) {
  const Tensor a = tensor_of({-0.0}, {1}, kFloat32), b = tensor_of({0.0}, {1}, kFloat32);
  EXPECT_EQ(ints_of(ne(a, b))[0], 0);
  EXPECT_EQ(ints_of(lt(a, b))[0], 0);
  EXPECT_EQ(ints_of(le(a, b))[0], 1);
}

TEST(OpsComparison, MixedDtypesCompareInTheCommonDtype) {
  const Tensor u = tensor_of({200, 0}, {2}, kUInt8), s = tensor_of({-1, 0}, {2}, kInt8);
  EXPECT_EQ(ints_of(gt(u, s)), (std::vector<int64_t>{1, 0}));  // int16, not a wrapped uint8 -1
  const Tensor i = tensor_of({1, 2, 3}, {3}, kInt32), h = tensor_of({1.5, 2.0, 2.5}, {3}, kFloat16);
  EXPECT_EQ(ints_of(lt(i, h)), (std::vector<int64_t>{1, 0, 0}));
  EXPECT_EQ(ints_of(ge(i, h)), (std::vector<int64_t>{0, 1, 1}));
}

TEST(OpsComparison, ScalarOverloadsCompareWithoutTruncatingTheScalar) {
  const Tensor i = tensor_of({1, 2, 3}, {3}, kInt32);
  EXPECT_EQ(ints_of(lt(i, Scalar(2.5))), (std::vector<int64_t>{1, 1, 0}));
  EXPECT_EQ(ints_of(i.gt(Scalar(2))), (std::vector<int64_t>{0, 0, 1}));
  EXPECT_EQ(ints_of(ne(i, Scalar(2))), (std::vector<int64_t>{1, 0, 1}));
  EXPECT_EQ(ints_of(i.le(Scalar(2))), (std::vector<int64_t>{1, 1, 0}));
  EXPECT_EQ(ints_of(ge(i, Scalar(3))), (std::vector<int64_t>{0, 0, 1}));
}

TEST(OpsComparison, OutOverloadsWriteZeroOrOneInTheOutDtype) {
  const Tensor i = tensor_of({1, 2, 3}, {3}, kInt32);
  Tensor out = filled({3}, 7, kFloat32);
  Tensor& r = lt_out(out, i, tensor_of({2, 2, 2}, {3}, kInt64));
  EXPECT_TRUE(r.is_same(out));
  EXPECT_EQ(values_of(out), (std::vector<long double>{1, 0, 0}));
  ge_out(out, i, Scalar(2));
  EXPECT_EQ(values_of(out), (std::vector<long double>{0, 1, 1}));
}

TEST(OpsComparison, InPlaceKeepsSelfDtype) {
  Tensor a = tensor_of({1.5, 2.5, 3.5}, {3}, kFloat64);
  Tensor& r = a.gt_(Scalar(2));
  EXPECT_TRUE(r.is_same(a));
  EXPECT_EQ(a.dtype(), kFloat64);
  EXPECT_EQ(values_of(a), (std::vector<long double>{0, 1, 1}));
  Tensor b = tensor_of({1, 5, 9}, {3}, kInt16);
  b.ne_(tensor_of({1, 4, 9}, {3}, kInt16));
  EXPECT_EQ(ints_of(b), (std::vector<int64_t>{0, 1, 0}));
}

TEST(OpsComparison, ShapeMismatchIsAValueErrorNamingTheOp) {
  const std::string msg = error_message<ValueError>([] { lt(filled({2}, 0), filled({3}, 0)); });
  EXPECT_NE(msg.find("lt"), std::string::npos) << msg;
}

// Bitwise and/or/xor: the reference works on the int64 values; expect_close wraps to the dtype.
TEST(OpsBitwise, NotIsLogicalNotOnBoolAndComplementOnIntegers) {
  EXPECT_EQ(ints_of(bitwise_not(tensor_of({1, 0}, {2}, kBool))), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(bitwise_not(tensor_of({1}, {1}, kBool)).dtype(), kBool);
  for (ScalarType t : kIntegerDtypes) {
    const Tensor a = tensor_of(sample_values(t, 20, 3), {20}, t);
    const Tensor out = bitwise_not(a);
    ASSERT_EQ(out.dtype(), t);
    std::vector<long double> exact;
    for (long double v : values_of(a)) exact.push_back(-v - 1);  // two's complement: ~x == -x - 1
    expect_close(out, exact, 0, detail::concat("bitwise_not on ", t));
  }
}

TEST(OpsBitwise, MixedIntegerDtypesPromoteAndScalarsDoNot) {
  const Tensor a = tensor_of({6, -1}, {2}, kInt8), b = tensor_of({3, 256}, {2}, kInt32);
  const Tensor r = bitwise_and(a, b);
  EXPECT_EQ(r.dtype(), kInt32);
  EXPECT_EQ(ints_of(r), (std::vector<int64_t>{2, 256}));
  const Tensor s = bitwise_or(a, Scalar(1));
  EXPECT_EQ(s.dtype(), kInt8);
  EXPECT_EQ(ints_of(s), (std::vector<int64_t>{7, -1}));
  EXPECT_EQ(ints_of(bitwise_xor(tensor_of({1, 0}, {2}, kBool), Scalar(true))), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(bitwise_and(tensor_of({1, 0}, {2}, kBool), tensor_of({3, 3}, {2}, kUInt8)).dtype(), kUInt8);
}

TEST(OpsBitwise, FloatingInputsAreTypeErrorsNamingTheOpAndDtype) {
  const Tensor f = filled({2}, 1, kFloat32), i = filled({2}, 1, kInt32);
  const std::vector<std::pair<std::string, std::function<void()>>> calls = {
      {"bitwise_and", [&] { bitwise_and(f, f); }},
      {"bitwise_or", [&] { bitwise_or(i, f); }},
      {"bitwise_xor", [&] { bitwise_xor(i, Scalar(1.5)); }},
      {"bitwise_not", [&] { bitwise_not(filled({2}, 1, kFloat16)); }},
      {"bitwise_left_shift", [&] { bitwise_left_shift(f, i); }},
      {"bitwise_right_shift", [&] { bitwise_right_shift(i, Scalar(1.0)); }},
  };
  for (const auto& [op, call] : calls) {
    const std::string msg = error_message<TypeError>(call);
    EXPECT_NE(msg.find(op), std::string::npos) << msg;
    EXPECT_NE(msg.find("float"), std::string::npos) << msg;
  }
}

TEST(OpsBitwise, ShiftsOfBoolAreTypeErrors) {
  const Tensor b = filled({2}, 1, kBool);
  const std::string msg = error_message<TypeError>([&] { bitwise_left_shift(b, b); });
  EXPECT_NE(msg.find("bitwise_left_shift"), std::string::npos) << msg;
  EXPECT_NE(msg.find("bool"), std::string::npos) << msg;
  EXPECT_THROW(bitwise_right_shift(b, b), TypeError);
}

int bits_of(ScalarType t) { return static_cast<int>(element_size(t) * 8); }

// Shift counts around and past the width, negative ones for signed dtypes.
std::vector<double> shift_counts(ScalarType t, int64_t n) {
  const int w = bits_of(t);
  std::vector<double> pool = {0, 1, 2, 3, static_cast<double>(w - 1), static_cast<double>(w), static_cast<double>(w + 1)};
  if (t != kUInt8) pool.insert(pool.end(), {-1, -static_cast<double>(w), 100});
  std::vector<double> v;
  for (int64_t i = 0; i < n; ++i) v.push_back(pool[static_cast<size_t>(i) % pool.size()]);
  return v;
}

TEST(OpsBitwise, LeftShiftMultipliesByPowersOfTwoModuloTheWidthAndGivesZeroOutOfRange) {
  for (ScalarType t : kIntegerDtypes) {
    const int w = bits_of(t);
    check_binary("bitwise_left_shift", t, t, [](const Tensor& a, const Tensor& b) { return bitwise_left_shift(a, b); },
                 sample_values(t, 35, 1), shift_counts(t, 35), [&](long double x, long double c) -> long double {
                   if (c < 0 || c >= w) return 0;
                   // x * 2^c modulo 2^64 (expect_close then wraps to the dtype's width).
                   const uint64_t m = static_cast<uint64_t>(static_cast<int64_t>(x)) * (uint64_t{1} << static_cast<int>(c));
                   return static_cast<long double>(static_cast<int64_t>(m));
                 });
  }
}

TEST(OpsBitwise, RightShiftFloorsAndSignFillsOutOfRange) {
  for (ScalarType t : kIntegerDtypes) {
    const int w = bits_of(t);
    check_binary("bitwise_right_shift", t, t, [](const Tensor& a, const Tensor& b) { return bitwise_right_shift(a, b); },
                 sample_values(t, 35, 1), shift_counts(t, 35), [&](long double x, long double c) -> long double {
                   if (c < 0 || c >= w) return x < 0 ? -1 : 0;
                   return std::floor(x / std::ldexp(1.0L, static_cast<int>(c)));
                 });
  }
}

TEST(OpsBitwise, ShiftsAtTheExtremesOfEachDtype) {
  EXPECT_EQ(ints_of(bitwise_left_shift(tensor_of({1}, {1}, kInt8), Scalar(7))), (std::vector<int64_t>{-128}));
  EXPECT_EQ(ints_of(bitwise_right_shift(tensor_of({-128}, {1}, kInt8), Scalar(7))), (std::vector<int64_t>{-1}));
  EXPECT_EQ(ints_of(bitwise_right_shift(tensor_of({255}, {1}, kUInt8), Scalar(7))), (std::vector<int64_t>{1}));
  EXPECT_EQ(ints_of(bitwise_left_shift(tensor_of({1}, {1}, kInt64), Scalar(63))),
            (std::vector<int64_t>{std::numeric_limits<int64_t>::min()}));
  EXPECT_EQ(ints_of(bitwise_right_shift(tensor_of({-5}, {1}, kInt64), Scalar(64))), (std::vector<int64_t>{-1}));
  EXPECT_EQ(ints_of(bitwise_left_shift(tensor_of({-5}, {1}, kInt32), Scalar(-1))), (std::vector<int64_t>{0}));
}

TEST(OpsBitwise, ShiftOfMixedDtypesComputesInTheCommonDtype) {
  const Tensor r = bitwise_left_shift(tensor_of({1}, {1}, kInt8), tensor_of({40}, {1}, kInt64));
  EXPECT_EQ(r.dtype(), kInt64);
  EXPECT_EQ(ints_of(r), (std::vector<int64_t>{int64_t{1} << 40}));
}

TEST(OpsBitwise, OutAndScalarOutOverloads) {
  const Tensor a = tensor_of({12, 10}, {2}, kInt16);
  Tensor out = filled({2}, -1, kInt64);
  EXPECT_TRUE(bitwise_xor_out(out, a, tensor_of({6, 3}, {2}, kInt16)).is_same(out));
  EXPECT_EQ(ints_of(out), (std::vector<int64_t>{10, 9}));
  bitwise_right_shift_out(out, a, Scalar(2));
  EXPECT_EQ(ints_of(out), (std::vector<int64_t>{3, 2}));
  bitwise_not_out(out, a);
  EXPECT_EQ(ints_of(out), (std::vector<int64_t>{-13, -11}));
  Tensor fout = filled({2}, 0, kFloat32);
  bitwise_and_out(fout, a, Scalar(4));  // int16 result cast to a float out is allowed
  EXPECT_EQ(values_of(fout), (std::vector<long double>{4, 0}));
}

TEST(OpsBitwise, OutIntoANonContiguousView) {
  Tensor base = filled({3, 4}, 0, kInt32);
  Tensor view = base.t();
  const Tensor a = tensor_of(sample_values(kInt32, 12, 1), {4, 3}, kInt32);
  bitwise_or_out(view, a, Scalar(5));
  EXPECT_EQ(ints_of(base.t()), ints_of(bitwise_or(a, Scalar(5))));
}

TEST(OpsBitwise, InPlaceFormsUpdateSelf) {
  Tensor a = tensor_of({12, 10}, {2}, kInt32);
  EXPECT_TRUE(a.bitwise_and_(Scalar(8)).is_same(a));
  EXPECT_EQ(ints_of(a), (std::vector<int64_t>{8, 8}));
  a.bitwise_or_(tensor_of({1, 2}, {2}, kInt64));  // int64 result fits the can-cast rule into int32
  EXPECT_EQ(a.dtype(), kInt32);
  EXPECT_EQ(ints_of(a), (std::vector<int64_t>{9, 10}));
  a.bitwise_xor_(Scalar(3));
  a.bitwise_left_shift_(Scalar(2));
  a.bitwise_right_shift_(tensor_of({1}, {1}, kInt32));
  EXPECT_EQ(ints_of(a), (std::vector<int64_t>{20, 18}));
  a.bitwise_not_();
  EXPECT_EQ(ints_of(a), (std::vector<int64_t>{-21, -19}));
  Tensor b = tensor_of({1, 0}, {2}, kBool);
  b.bitwise_xor_(Scalar(true));
  EXPECT_EQ(ints_of(b), (std::vector<int64_t>{0, 1}));
}

TEST(OpsBitwise, InPlaceThatCannotCastTheResultIsATypeError) {
  Tensor b = tensor_of({1, 0}, {2}, kBool);
  EXPECT_THROW(b.bitwise_or_(tensor_of({2, 2}, {2}, kInt32)), TypeError);  // int32 result into bool
  Tensor i = filled({2}, 1, kInt32);
  EXPECT_THROW(i.bitwise_and_(Scalar(1.5)), TypeError);
  Tensor f = filled({2}, 1, kFloat32);
  EXPECT_THROW(f.bitwise_not_(), TypeError);
}

TEST(OpsAbs, ClearsTheSignOfNegativeZero) {
  for (ScalarType t : kFloatDtypes) {
    const std::vector<long double> v = values_of(abs(tensor_of({-0.0, -INFINITY}, {2}, t)));
    EXPECT_FALSE(std::signbit(v[0])) << t;
    EXPECT_EQ(v[1], INFINITY) << t;
  }
}

TEST(OpsAbs, OfBoolIsIdentity) {
  const Tensor b = tensor_of({1, 0}, {2}, kBool);
  EXPECT_EQ(abs(b).dtype(), kBool);
  EXPECT_EQ(ints_of(abs(b)), (std::vector<int64_t>{1, 0}));
}

TEST(OpsAbs, OfTheMostNegativeIntegerWraps) {
  EXPECT_EQ(ints_of(abs(tensor_of({-128, -127}, {2}, kInt8))), (std::vector<int64_t>{-128, 127}));
  EXPECT_EQ(ints_of(abs(tensor_of({-32768}, {1}, kInt16))), (std::vector<int64_t>{-32768}));
  const int64_t min64 = std::numeric_limits<int64_t>::min();
  Tensor big = filled({1}, 0, kInt64);
  big.fill_(Scalar(min64));
  EXPECT_EQ(ints_of(abs(big)), (std::vector<int64_t>{min64}));
}

}  // namespace
}  // namespace ingot
