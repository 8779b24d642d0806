// Exhaustive checks of Half and BFloat16 against a reference written independently of half.h:
// values decoded with ldexp in double, rounding decided by comparing distances in double.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>

#include "ingot/half.h"

using namespace ingot;

namespace {

struct Format {
  int exp_bits;
  int mant_bits;
  int bias() const { return (1 << (exp_bits - 1)) - 1; }
  uint16_t exp_mask() const { return static_cast<uint16_t>(((1 << exp_bits) - 1) << mant_bits); }
  uint16_t inf_bits() const { return exp_mask(); }
  uint16_t max_finite() const { return static_cast<uint16_t>(exp_mask() - 1); }
  bool is_nan(uint16_t b) const {
    return (b & exp_mask()) == exp_mask() && (b & ((1 << mant_bits) - 1)) != 0;
  }

  // The exact value of a bit pattern, from the IEEE field definitions.
  double decode(uint16_t b) const {
    const int sign = b >> 15;
    const int e = (b >> mant_bits) & ((1 << exp_bits) - 1);
    const int m = b & ((1 << mant_bits) - 1);
    double mag;
    if (e == (1 << exp_bits) - 1) {
      mag = m ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
    } else if (e == 0) {
      mag = std::ldexp(static_cast<double>(m), 1 - bias() - mant_bits);
    } else {
      mag = std::ldexp(static_cast<double>(m + (1 << mant_bits)), e - bias() - mant_bits);
    }
    return sign ? -mag : mag;
  }

  // Round-to-nearest-even of a non-NaN double, by binary search over the positive patterns.
  uint16_t round(double v) const {
    const uint16_t sign = std::signbit(v) ? 0x8000 : 0;
    const double a = std::fabs(v);
    // The overflow threshold is the midpoint between the largest finite value and 2^(emax+1);
    // a tie there goes to infinity (its significand is even).
    const double top = decode(max_finite());
    const double overflow = top + (std::ldexp(1.0, bias() + 1) - top) / 2;
    if (a >= overflow) return sign | inf_bits();
    uint16_t lo = 0, hi = max_finite();  // decode(lo) <= a <= decode(hi) once a <= top
    if (a >= top) return sign | max_finite();
    while (hi - lo > 1) {
      const uint16_t mid = static_cast<uint16_t>((lo + hi) / 2);
      (decode(mid) <= a ? lo : hi) = mid;
    }
    const double dlo = a - decode(lo), dhi = decode(hi) - a;
    const uint16_t pick = dlo < dhi ? lo : dhi < dlo ? hi : ((lo & 1) ? hi : lo);
    return sign | pick;
  }
};

constexpr Format kHalf{5, 10};
constexpr Format kBF16{8, 7};

template <typename T>
uint16_t to_bits(float f) {
  return T(f).x;
}
template <typename T>
float from_bits_value(uint16_t b) {
  return static_cast<float>(T(b, ingot::from_bits));
}

template <typename T>
void check_decode_all(const Format& fmt) {
  for (uint32_t b = 0; b <= 0xffff; ++b) {
    const auto bits = static_cast<uint16_t>(b);
    const float f = from_bits_value<T>(bits);
    const double ref = fmt.decode(bits);
    if (fmt.is_nan(bits)) {
      ASSERT_TRUE(std::isnan(f)) << std::hex << b;
    } else {
      ASSERT_EQ(static_cast<double>(f), ref) << std::hex << b;
      ASSERT_EQ(std::signbit(f), std::signbit(ref)) << std::hex << b;  // keeps -0
    }
  }
}

template <typename T>
void check_round_trip_all(const Format& fmt) {
  for (uint32_t b = 0; b <= 0xffff; ++b) {
    const auto bits = static_cast<uint16_t>(b);
    const uint16_t back = to_bits<T>(from_bits_value<T>(bits));
    if (fmt.is_nan(bits)) {
      ASSERT_TRUE(fmt.is_nan(back)) << std::hex << b << " -> " << back;
    } else {
      ASSERT_EQ(back, bits) << std::hex << b;
    }
  }
}

// For every pair of neighbours (including the largest finite value and infinity, and both signs):
// the exact midpoint goes to the even pattern, one float ulp either side goes to the nearer one.
template <typename T>
void check_midpoints_all(const Format& fmt) {
  for (uint16_t sign : {uint16_t{0}, uint16_t{0x8000}}) {
    for (uint32_t b = 0; b <= fmt.max_finite(); ++b) {
      const auto lo = static_cast<uint16_t>(b);
      const auto hi = static_cast<uint16_t>(b + 1);
      const double dlo = fmt.decode(static_cast<uint16_t>(sign | lo));
      const double dhi = b == fmt.max_finite() ? (sign ? -1 : 1) * std::ldexp(1.0, fmt.bias() + 1)
                                               : fmt.decode(static_cast<uint16_t>(sign | hi));
      const double mid_d = (dlo + dhi) / 2;
      const auto mid = static_cast<float>(mid_d);
      ASSERT_EQ(static_cast<double>(mid), mid_d) << "midpoint not exact in float";
      const float toward_hi = std::nextafter(mid, sign ? -INFINITY : INFINITY);
      const float toward_lo = std::nextafter(mid, sign ? INFINITY : -INFINITY);
      const auto even = static_cast<uint16_t>(sign | ((lo & 1) ? hi : lo));
      ASSERT_EQ(to_bits<T>(mid), even) << std::hex << (sign | lo);
      ASSERT_EQ(to_bits<T>(toward_hi), sign | hi) << std::hex << (sign | lo);
      ASSERT_EQ(to_bits<T>(toward_lo), sign | lo) << std::hex << (sign | lo);
      // The independent reference agrees on all three.
      ASSERT_EQ(fmt.round(mid), even);
      ASSERT_EQ(fmt.round(toward_hi), sign | hi);
      ASSERT_EQ(fmt.round(toward_lo), sign | lo);
    }
  }
}

// Random float bit patterns over the whole range, compared with the reference.
template <typename T>
void check_random_floats(const Format& fmt) {
  std::mt19937 rng(12345);
  for (int i = 0; i < 200000; ++i) {
    const uint32_t u = rng();
    float f;
    std::memcpy(&f, &u, 4);
    if (std::isnan(f)) {
      ASSERT_TRUE(fmt.is_nan(to_bits<T>(f))) << std::hex << u;
      continue;
    }
    ASSERT_EQ(to_bits<T>(f), fmt.round(f)) << std::hex << u;
  }
}

}  // namespace

TEST(Half, DecodesEveryBitPatternExactly) { check_decode_all<Half>(kHalf); }
TEST(Half, RoundTripsEveryBitPattern) { check_round_trip_all<Half>(kHalf); }
TEST(Half, RoundsEveryMidpointToEvenAndNeighboursToNearer) { check_midpoints_all<Half>(kHalf); }
TEST(Half, MatchesReferenceOnRandomFloats) { check_random_floats<Half>(kHalf); }
TEST(BFloat16, DecodesEveryBitPatternExactly) { check_decode_all<BFloat16>(kBF16); }
TEST(BFloat16, RoundTripsEveryBitPattern) { check_round_trip_all<BFloat16>(kBF16); }
TEST(BFloat16, RoundsEveryMidpointToEvenAndNeighboursToNearer) {
  check_midpoints_all<BFloat16>(kBF16);
}
TEST(BFloat16, MatchesReferenceOnRandomFloats) { check_random_floats<BFloat16>(kBF16); }

TEST(Half, SpecialValues) {
  EXPECT_EQ(Half(0.0f).x, 0x0000);
  EXPECT_EQ(Half(-0.0f).x, 0x8000);
  EXPECT_EQ(Half(INFINITY).x, 0x7c00);
  EXPECT_EQ(Half(-INFINITY).x, 0xfc00);
  EXPECT_EQ(Half(65504.0f).x, 0x7bff);
  EXPECT_EQ(Half(65520.0f).x, 0x7c00);        // the overflow tie rounds to infinity
  EXPECT_EQ(Half(5.9604645e-08f).x, 0x0001);  // smallest subnormal
  EXPECT_EQ(Half(1e-10f).x, 0x0000);          // underflows to +0
  EXPECT_EQ(Half(-1e-10f).x, 0x8000);         // and keeps its sign
  EXPECT_EQ(Half(std::numeric_limits<float>::denorm_min()).x, 0x0000);
  EXPECT_TRUE(std::isnan(static_cast<float>(Half(NAN))));
  uint32_t low_payload_nan = 0x7f800001;  // payload bits that a plain shift would drop
  float f;
  std::memcpy(&f, &low_payload_nan, 4);
  EXPECT_TRUE(std::isnan(static_cast<float>(Half(f))));
}

TEST(BFloat16, SpecialValues) {
  EXPECT_EQ(BFloat16(-0.0f).x, 0x8000);
  EXPECT_EQ(BFloat16(INFINITY).x, 0x7f80);
  EXPECT_EQ(BFloat16(std::numeric_limits<float>::max()).x, 0x7f80);  // above the overflow tie
  EXPECT_EQ(BFloat16(1.0f).x, 0x3f80);
  uint32_t low_payload_nan = 0xff800001;
  float f;
  std::memcpy(&f, &low_payload_nan, 4);
  EXPECT_TRUE(std::isnan(static_cast<float>(BFloat16(f))));
}
