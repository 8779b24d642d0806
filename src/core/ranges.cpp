// arange and linspace: values are a formula of the index, computed on the host in int64 (all
// integer arguments and an integer dtype) or double, then converted once to the dtype.
#include <cmath>

#include "core/host_fill.h"

namespace ingot {

namespace {

bool is_int_like(const Scalar& s) { return !s.is_floating_point(); }

void check_finite(std::string_view op, std::string_view what, const Scalar& s) {
  INGOT_CHECK(!s.is_floating_point() || std::isfinite(s.to<double>()), ValueError, op, ": ", what,
              " must be finite, got ", s);
}

// Number of values start, start+step, ... strictly before end, counted exactly in uint64.
int64_t integer_range_length(int64_t start, int64_t end, int64_t step) {
  const bool up = step > 0;
  const uint64_t span = up ? static_cast<uint64_t>(end) - static_cast<uint64_t>(start)
                           : static_cast<uint64_t>(start) - static_cast<uint64_t>(end);
  const uint64_t stride =
      up ? static_cast<uint64_t>(step) : uint64_t{0} - static_cast<uint64_t>(step);
  return static_cast<int64_t>(span / stride + (span % stride != 0));
}

}  // namespace

Tensor arange(const Scalar& end, std::optional<TensorOptions> options) {
  return arange(0, end, 1, options);
}

Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step,
              std::optional<TensorOptions> options) {
  const bool all_int = is_int_like(start) && is_int_like(end) && is_int_like(step);
  TensorOptions opts = options.value_or(TensorOptions());
  if (!opts.dtype_set_) opts = opts.dtype(all_int ? kInt64 : kFloat32);
  check_finite("arange", "start", start);
  check_finite("arange", "end", end);
  check_finite("arange", "step", step);
  const double s = start.to<double>(), e = end.to<double>(), st = step.to<double>();
  INGOT_CHECK(st != 0, ValueError, "arange: step must be nonzero");
  INGOT_CHECK(st > 0 ? e >= s : e <= s, ValueError, "arange: the range from start ", start,
              " to end ", end, " is inconsistent with the sign of step ", step);
  if (all_int) {
    const int64_t a = start.to<int64_t>(), b = end.to<int64_t>(), c = step.to<int64_t>();
    const int64_t n = integer_range_length(a, b, c);
    if (is_integral_type(opts.dtype_, true)) {
      // start + i * step lies in [start, end), but i * step alone may not fit: add modulo 2^64.
      return fill_on_host({n}, opts, [a, c](auto tag, int64_t i) {
        const uint64_t v =
            static_cast<uint64_t>(a) + static_cast<uint64_t>(i) * static_cast<uint64_t>(c);
        return convert<typename decltype(tag)::type>(static_cast<int64_t>(v));
      });
    }
    return fill_on_host({n}, opts, [s, st](auto tag, int64_t i) {
      return convert<typename decltype(tag)::type>(s + static_cast<double>(i) * st);
    });
  }
  const double length = std::ceil((e - s) / st);
  INGOT_CHECK(length < 9.2e18, ValueError, "arange: start ", start, ", end ", end, " and step ",
              step, " give too many values (", length, ")");
  return fill_on_host({static_cast<int64_t>(length)}, opts, [s, st](auto tag, int64_t i) {
    return convert<typename decltype(tag)::type>(s + static_cast<double>(i) * st);
  });
}

Tensor linspace(const Scalar& start, const Scalar& end, int64_t steps, TensorOptions options) {
  INGOT_CHECK(steps >= 0, ValueError, "linspace: number of steps must be non-negative, got ",
              steps);
  check_finite("linspace", "start", start);
  check_finite("linspace", "end", end);
  const double a = start.to<double>(), b = end.to<double>();
  const double step = steps > 1 ? (b - a) / static_cast<double>(steps - 1) : 0.0;
  // Each half counts from its own end, so both endpoints come out exact.
  return fill_on_host({steps}, options, [=](auto tag, int64_t i) {
    const double v = i < steps / 2 ? a + step * static_cast<double>(i)
                                   : b - step * static_cast<double>(steps - 1 - i);
    return convert<typename decltype(tag)::type>(v);
  });
}

}  // namespace ingot
