// Composite ops (ops.yaml CompositeImplicit): written with other ops, so they run on every backend.
// Each costs several passes; a native kernel can replace one later (a migration of all overloads).
#include <algorithm>
#include <vector>

#include "dispatch_stubs.h"
#include "ingot/factories.h"
#include "ingot/generated/functions.h"
#include "ingot/type_promotion.h"

namespace ingot::native {

namespace {

// The largest finite value of a floating dtype: nan_to_num's default for +inf.
double largest_finite(ScalarType dtype) {
  switch (dtype) {
    case kFloat16:
      return 65504.0;
    case kBFloat16:
      return 3.3895313892515355e38;
    case kFloat32:
      return 3.4028234663852886e38;
    default:
      return 1.7976931348623157e308;
  }
}

}  // namespace

// Three selects in place on out: NaN, then +inf, then -inf. Integer and bool tensors have none.
Tensor& nan_to_num_out(Tensor& out, const Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                       std::optional<double> neginf) {
  if (!is_floating_type(self.dtype())) return out.is_same(self) ? out : out.copy_(self);
  const double big = largest_finite(self.dtype());
  where_out(out, isnan(self), scalar_to_tensor(nan.value_or(0.0)), self);
  where_out(out, isposinf(out), scalar_to_tensor(posinf.value_or(big)), out);
  where_out(out, isneginf(out), scalar_to_tensor(neginf.value_or(-big)), out);
  return out;
}

Tensor nan_to_num(const Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                  std::optional<double> neginf) {
  Tensor out = empty_like(self);
  return native::nan_to_num_out(out, self, nan, posinf, neginf);
}

Tensor& nan_to_num_(Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                    std::optional<double> neginf) {
  return native::nan_to_num_out(self, self, nan, posinf, neginf);
}

// As PyTorch and NumPy: equal values (infinities included) are close; otherwise |a - b| <= atol +
// rtol * |b|, finite, in the promoted dtype. Integers compare in float64 so that a - b cannot wrap.
Tensor isclose(const Tensor& self, const Tensor& other, double rtol, double atol, bool equal_nan) {
  INGOT_CHECK(rtol >= 0 && atol >= 0, ValueError, "isclose: rtol (", rtol, ") and atol (", atol,
              ") must be non-negative");
  INGOT_CHECK(self.defined() && other.defined(), ValueError, "isclose: self and other must be defined tensors");
  const std::vector<int64_t> a_shape = self.sizes().vec(), b_shape = other.sizes().vec();
  for (size_t i = 1; i <= std::min(a_shape.size(), b_shape.size()); ++i) {
    const int64_t x = a_shape[a_shape.size() - i], y = b_shape[b_shape.size() - i];
    INGOT_CHECK(x == y || x == 1 || y == 1, ValueError, "isclose: shapes ", self.sizes(), " and ", other.sizes(),
                " cannot be broadcast");
  }
  Tensor close = eq(self, other);
  if (equal_nan) close = logical_or(close, logical_and(isnan(self), isnan(other)));
  const ScalarType common = result_type(self, other);
  if (common == kBool) return close;
  const ScalarType compute = is_floating_type(common) ? common : kFloat64;
  const Tensor a = self.to(compute), b = other.to(compute);
  const Tensor diff = abs(sub(a, b));
  const Tensor allowed = add(abs(mul(b, Scalar(rtol))), Scalar(atol));
  return logical_or(close, logical_and(isfinite(diff), le(diff, allowed)));
}

}  // namespace ingot::native
