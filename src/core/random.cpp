// rand/randn/randint on the host with the per-element Philox scheme of kernels/philox.h; other
// devices receive the same values by copy until they run the scheme in their own kernels.
#include <limits>
#include <type_traits>
#include <utility>

#include "core/host_fill.h"
#include "ingot/factories.h"
#include "kernels/philox.h"

namespace ingot {

Generator& default_generator() {
  static Generator gen(0);
  return gen;
}

void manual_seed(uint64_t seed) { default_generator().manual_seed(seed); }

namespace {

// Element i of a draw takes the Philox words of (seed, offset + i); the draw reserves numel
// counters.
template <typename F>
Tensor draw(std::string_view op, IntArrayRef sizes, TensorOptions options, Generator* gen,
            F&& value) {
  const int64_t n = checked_numel(op, sizes);
  Generator& g = gen ? *gen : default_generator();
  const uint64_t seed = g.seed();
  const uint64_t offset = g.advance(static_cast<uint64_t>(n));
  return fill_on_host(sizes, options, [&](auto tag, int64_t i) {
    return value(tag, philox::element_words(seed, offset, static_cast<uint64_t>(i)));
  });
}

void check_floating(std::string_view op, ScalarType dtype) {
  INGOT_CHECK(is_floating_type(dtype), TypeError, op, ": dtype ", dtype,
              " is not a floating dtype (use randint for integers)");
}

// Significand digits of the uniform draw, so that it is exact in the output dtype.
template <typename T>
constexpr int uniform_digits() {
  if constexpr (std::is_same_v<T, Half>) return 11;
  if constexpr (std::is_same_v<T, BFloat16>) return 8;
  return 24;
}

}  // namespace

Tensor rand(IntArrayRef sizes, TensorOptions options, Generator* gen) {
  check_floating("rand", options.dtype_);
  return draw("rand", sizes, options, gen, [](auto tag, const philox::Counter& r) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, double>) {
      return philox::uniform_double(r.w[1], r.w[0]);
    } else {
      // Integer dtypes were rejected above; this branch only runs for the float types.
      return convert<T>(philox::uniform_float(r, uniform_digits<T>()));
    }
  });
}

Tensor randn(IntArrayRef sizes, TensorOptions options, Generator* gen) {
  check_floating("randn", options.dtype_);
  return draw("randn", sizes, options, gen, [](auto tag, const philox::Counter& r) {
    using T = typename decltype(tag)::type;
    return convert<T>(philox::normal_double(r));
  });
}

Tensor randint(int64_t low, int64_t high, IntArrayRef sizes, TensorOptions options,
               Generator* gen) {
  INGOT_CHECK(low < high, ValueError, "randint: low (", low, ") must be less than high (", high,
              ")");
  const ScalarType dtype = options.dtype_;
  if (is_integral_type(dtype, true)) {
    const auto [lo, hi] = visit_dtype(dtype, [](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (std::is_integral_v<T>) {
        return std::pair<int64_t, int64_t>(std::numeric_limits<T>::lowest(),
                                           static_cast<int64_t>(std::numeric_limits<T>::max()));
      } else {
        return std::pair<int64_t, int64_t>(0, 0);
      }
    });
    INGOT_CHECK(low >= lo && high - 1 <= hi, ValueError, "randint: range [", low, ", ", high,
                ") does not fit in dtype ", dtype, " (values ", lo, " .. ", hi, ")");
  }
  const uint64_t range = static_cast<uint64_t>(high) - static_cast<uint64_t>(low);
  return draw("randint", sizes, options, gen, [low, range](auto tag, const philox::Counter& r) {
    using T = typename decltype(tag)::type;
    return convert<T>(philox::integer_in_range(r, low, range));
  });
}

}  // namespace ingot
