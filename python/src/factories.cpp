// Factory entry points. ingot/_creation.py gives them NumPy-style signatures and defaults, so these
// take normalized arguments: a shape sequence, an ingot.dtype, an ingot.device.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>

#include "bindings.h"
#include "casters.h"

namespace ingot::python {

namespace {

TensorOptions options(ScalarType dtype, Device device) { return TensorOptions(dtype).device(device); }

// *_like: the source's dtype and device unless overridden.
std::optional<TensorOptions> like_options(const Tensor& t, std::optional<ScalarType> dtype,
                                          std::optional<Device> device) {
  if (!dtype && !device) return std::nullopt;
  return options(dtype.value_or(t.dtype()), device.value_or(t.device()));
}

template <typename F>
void def_sized(nb::module_& m, const char* name, F make) {
  m.def(name, [make, name](nb::handle shape, ScalarType dtype, Device device) {
    return make(int_list(shape, name), options(dtype, device));
  }, nb::arg("shape"), nb::arg("dtype"), nb::arg("device"));
}

template <typename F>
void def_like(nb::module_& m, const char* name, F make) {
  m.def(name, [make](const Tensor& t, std::optional<ScalarType> dtype, std::optional<Device> device) {
    return make(t, like_options(t, dtype, device));
  }, nb::arg("a"), nb::arg("dtype").none(), nb::arg("device").none());
}

}  // namespace

void bind_factories(nb::module_& m) {
  def_sized(m, "empty", [](IntArrayRef s, TensorOptions o) { return empty(s, o); });
  def_sized(m, "zeros", [](IntArrayRef s, TensorOptions o) { return zeros(s, o); });
  def_sized(m, "ones", [](IntArrayRef s, TensorOptions o) { return ones(s, o); });
  def_sized(m, "rand", [](IntArrayRef s, TensorOptions o) { return rand(s, o); });
  def_sized(m, "randn", [](IntArrayRef s, TensorOptions o) { return randn(s, o); });
  m.def("full", [](nb::handle shape, const Scalar& value, ScalarType dtype, Device device) {
    return full(int_list(shape, "full"), value, options(dtype, device));
  });
  m.def("randint", [](int64_t low, int64_t high, nb::handle shape, ScalarType dtype, Device device) {
    return randint(low, high, int_list(shape, "randint"), options(dtype, device));
  });
  // The dtype defaults as in the C++ API: int64 when every bound is an integer, else float32.
  m.def("arange", [](const Scalar& start, const Scalar& end, const Scalar& step,
                     std::optional<ScalarType> dtype, Device device) {
    const bool integral = !start.is_floating_point() && !end.is_floating_point() && !step.is_floating_point();
    return arange(start, end, step, options(dtype.value_or(integral ? kInt64 : kFloat32), device));
  }, nb::arg("start"), nb::arg("end"), nb::arg("step"), nb::arg("dtype").none(), nb::arg("device"));
  m.def("linspace", [](const Scalar& start, const Scalar& end, int64_t steps, ScalarType dtype, Device device) {
    return linspace(start, end, steps, options(dtype, device));
  });
  m.def("eye", [](int64_t n, std::optional<int64_t> cols, ScalarType dtype, Device device) {
    return eye(n, cols, options(dtype, device));
  }, nb::arg("n"), nb::arg("m").none(), nb::arg("dtype"), nb::arg("device"));
  def_like(m, "empty_like", [](const Tensor& t, std::optional<TensorOptions> o) { return empty_like(t, o); });
  def_like(m, "zeros_like", [](const Tensor& t, std::optional<TensorOptions> o) { return zeros_like(t, o); });
  def_like(m, "ones_like", [](const Tensor& t, std::optional<TensorOptions> o) { return ones_like(t, o); });
  m.def("full_like", [](const Tensor& t, const Scalar& value, std::optional<ScalarType> dtype,
                        std::optional<Device> device) {
    return full_like(t, value, like_options(t, dtype, device));
  }, nb::arg("a"), nb::arg("value"), nb::arg("dtype").none(), nb::arg("device").none());
  m.def("manual_seed", [](uint64_t seed) { manual_seed(seed); }, nb::arg("seed"));
}

}  // namespace ingot::python
