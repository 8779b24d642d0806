// A tour of the public API: factories, views that share storage, copies, printing, and ops
// declared in ops/ops.yaml (broadcasting, type promotion, out=, in-place, typed errors).
#include <ingot/ingot.h>

#include <cmath>
#include <iostream>
#include <string>
#include <vector>

namespace {

// A tensor of `dtype` on `device` holding `values` (converted as a cast would).
ingot::Tensor tensor_of(std::vector<double> values, ingot::ScalarType dtype, ingot::Device device) {
  const int64_t n = static_cast<int64_t>(values.size());
  return ingot::from_blob(values.data(), {n}, ingot::kFloat64).to(dtype, /*copy=*/true).to(device);
}

// The values of a tensor as doubles (any dtype, any device).
std::vector<double> values_of(const ingot::Tensor& t) {
  const ingot::Tensor c = t.to(ingot::Device(ingot::kCPU)).to(ingot::kFloat64, /*copy=*/true).contiguous();
  const double* p = c.data_ptr<double>();
  return std::vector<double>(p, p + c.numel());
}

// Prints an op's result and whether it matches what NumPy gives for the same float32 inputs
// (within 2 float32 ulp; NaN matches NaN, and the sign of zero counts).
bool check_against_numpy(const std::string& call, const ingot::Tensor& got, const std::vector<double>& numpy) {
  const std::vector<double> v = values_of(got);
  bool same = v.size() == numpy.size();
  for (size_t i = 0; same && i < v.size(); ++i) {
    const double tol = 2 * std::ldexp(1.0, std::ilogb(numpy[i] == 0 ? 1.0 : numpy[i]) - 23);
    same = std::isnan(numpy[i]) ? std::isnan(v[i])
                                : std::fabs(v[i] - numpy[i]) <= tol && std::signbit(v[i]) == std::signbit(numpy[i]);
  }
  std::cout << "  " << call << " = " << got << (same ? "  matches NumPy\n" : "  DIFFERS from NumPy\n");
  return same;
}

}  // namespace

int main() {
  // A GPU when one is there (ingot::cuda::is_available() is false, silently, without one).
  const ingot::Device device = ingot::cuda::is_available() ? ingot::Device(ingot::kCUDA) : ingot::Device(ingot::kCPU);
  std::cout << "ingot demo, running on " << device << "\n\n";

  ingot::Tensor a =
      ingot::arange(12, ingot::TensorOptions(ingot::kFloat32).device(device)).reshape({3, 4});
  std::cout << "a = arange(12).reshape({3, 4}):\n" << a << "\n\n";

  // Views share a's storage: no data moves.
  ingot::Tensor at = a.t();
  std::cout << "a.t() is a view (same storage: " << std::boolalpha
            << (at.storage().data() == a.storage().data())
            << "), contiguous: " << at.is_contiguous() << "\n"
            << at << "\n\n";

  ingot::Tensor column = a.select(1, 2);
  column.fill_(-1);
  std::cout << "a.select(1, 2).fill_(-1) writes through to a:\n" << a << "\n\n";

  // copy_ broadcasts the source and converts its dtype into the destination.
  ingot::Tensor b = ingot::zeros({2, 3, 4}, ingot::TensorOptions(ingot::kFloat64).device(device));
  b.copy_(a);
  std::cout << "zeros({2, 3, 4}, float64).copy_(a) broadcasts float32 a into float64:\n"
            << b << "\n\n";

  ingot::Tensor every_other = b.slice(2, 0, std::nullopt, 2).contiguous();
  std::cout << "b.slice(2, 0, end, 2).contiguous() copies a strided view into new memory:\n"
            << every_other << "\n\n";

  // Ops broadcast and promote like PyTorch: int64 row + float32 matrix -> float32.
  ingot::Tensor row = ingot::arange(4, ingot::TensorOptions(ingot::kInt64).device(device));
  std::cout << "add(a, arange(4) as int64, alpha=10) broadcasts the row and promotes to "
            << ingot::add(a, row, 10).dtype() << ":\n"
            << ingot::add(a, row, 10) << "\n\n";

  // float16 inputs compute in float32 and round once; eq + where select elementwise.
  ingot::Tensor h = a.to(ingot::kFloat16);
  ingot::Tensor angle = ingot::atan2(h, ingot::ones_like(h));
  std::cout << "atan2(a as float16, 1) stays float16:\n" << angle << "\n\n";
  ingot::Tensor masked = ingot::where(ingot::eq(a, -1), ingot::zeros_like(a), a.exp());
  std::cout << "where(a == -1, 0, exp(a)):\n" << masked << "\n\n";

  // A few of the elementwise ops, each checked against the values NumPy 2 prints for the same
  // float32 inputs (np.rint, np.logaddexp, np.hypot, np.arcsinh, np.cbrt, np.fmax, np.nan_to_num,
  // and // on int32).
  ingot::Tensor x = tensor_of({-2.5, -0.5, 0.5, 1.5, 2.5}, ingot::kFloat32, device);
  ingot::Tensor y = tensor_of({1.0, -3.0, 0.25, 2.0, -0.5}, ingot::kFloat32, device);
  const double inf = INFINITY, nan = NAN;
  std::cout << "x = " << x << ", y = " << y << "\n";
  bool all = check_against_numpy("round(x) (half to even)", ingot::round(x), {-2.0, -0.0, 0.0, 2.0, 2.0});
  all &= check_against_numpy("logaddexp(x, y)", ingot::logaddexp(x, y),
                             {1.0297504663467407, -0.42111027240753174, 1.075939416885376, 2.474076986312866,
                              2.5485873222351074});
  all &= check_against_numpy("hypot(x, y)", ingot::hypot(x, y),
                             {2.692582368850708, 3.041381359100342, 0.55901700258255, 2.5, 2.5495097637176514});
  all &= check_against_numpy("asinh(x)", ingot::asinh(x),
                             {-1.647231101989746, -0.4812118113040924, 0.4812118113040924, 1.19476318359375,
                              1.647231101989746});
  all &= check_against_numpy("cbrt(x)", ingot::cbrt(x),
                             {-1.3572087287902832, -0.7937005162239075, 0.7937005162239075, 1.1447142362594604,
                              1.3572087287902832});
  ingot::Tensor p = tensor_of({nan, 1, -2}, ingot::kFloat32, device), q = tensor_of({3, nan, -1}, ingot::kFloat32, device);
  all &= check_against_numpy("fmax([nan, 1, -2], [3, nan, -1]) (ignores NaN)", ingot::fmax(p, q), {3.0, 1.0, -1.0});
  ingot::Tensor specials = tensor_of({nan, inf, -inf, 1}, ingot::kFloat32, device);
  all &= check_against_numpy("nan_to_num([nan, inf, -inf, 1])", ingot::nan_to_num(specials),
                             {0.0, 3.4028234663852886e+38, -3.4028234663852886e+38, 1.0});
  ingot::Tensor n = tensor_of({7, -7, 7, -7}, ingot::kInt32, device), d = tensor_of({2, 2, -2, -2}, ingot::kInt32, device);
  all &= check_against_numpy("div(n, d, rounding_mode=\"floor\") on int32", ingot::div(n, d, "floor"),
                             {3, -4, -4, 3});
  std::cout << (all ? "every op above matches NumPy\n\n" : "some op above differs from NumPy\n\n");

  // out= and in-place write into existing memory; an in-place int result of true division
  // cannot hold float32, so it is refused with a typed error naming the op.
  ingot::Tensor counts = ingot::arange(3);
  try {
    counts.div_(2);
  } catch (const ingot::TypeError& e) {
    std::cout << "arange(3).div_(2) raised ingot::TypeError: " << e.what() << "\n";
  }
  try {
    (void)ingot::mul(a, ingot::ones({5}));
  } catch (const ingot::ValueError& e) {
    std::cout << "mul of shapes [3, 4] and [5] raised ingot::ValueError: " << e.what() << "\n";
  }
  return all ? 0 : 1;
}
