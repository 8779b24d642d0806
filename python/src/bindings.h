// Shared declarations of the nanobind extension ingot._C: one bind_* function per concern, plus
// the conversions every binding file needs (dtype and device objects, Scalar, shape arguments).
#pragma once

#include <nanobind/nanobind.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "ingot/ingot.h"

namespace ingot::python {

namespace nb = nanobind;

void bind_errors(nb::module_& m);
void bind_dtypes(nb::module_& m);
void bind_device(nb::module_& m);
nb::class_<Tensor> bind_tensor(nb::module_& m);
void bind_factories(nb::module_& m);
void bind_threads(nb::module_& m);
void bind_dlpack(nb::module_& m, nb::class_<Tensor>& cls);
void bind_cuda(nb::module_& m, nb::class_<Tensor>& tensor);
void bind_shader(nb::module_& m);
// ingot._C._op_function: the fast callable every generated op is installed as (op_function.cpp).
void bind_op_function(nb::module_& m);
// ingot._C._install_operator_slots: Tensor's operators in C (operators.cpp).
void bind_operators(nb::module_& m);
// Generated from op_table.json by python/gen_op_bindings.py.
void bind_ops(nb::module_& m);

// Ops on at least this many elements run with the GIL released, so other Python threads make
// progress during a long op; below it, releasing costs more than it gives.
inline constexpr int64_t kReleaseGilNumel = int64_t{1} << 16;

// The largest element count among `tensors` (undefined ones count 0).
inline int64_t largest_numel(std::initializer_list<const Tensor*> tensors) {
  int64_t n = 0;
  for (const Tensor* t : tensors) n = std::max(n, t->defined() ? t->numel() : 0);
  return n;
}

// Runs `f` (which must not touch Python objects) without the GIL when `numel` is large.
template <typename F>
decltype(auto) release_gil_above(int64_t numel, F&& f) {
  if (numel < kReleaseGilNumel) return f();
  nb::gil_scoped_release release;
  return f();
}

// The ingot.<name> dtype object for `t` (borrowed; lives as long as the process).
nb::handle dtype_object(ScalarType t);
// The ScalarType of an ingot dtype object, or nullopt for any other object.
std::optional<ScalarType> dtype_of_object(nb::handle h);
// The ingot.device object for `d` (a new reference), and the Device of such an object (nullopt
// for any other object).
nb::handle device_object(Device d);
std::optional<Device> device_of_object(nb::handle h);

// The Tensor inside a Python object, or TypeError naming the op and argument.
Tensor& tensor_ref(nb::handle h, const char* op, const char* arg);

// A new ingot.Tensor owning `t`. What nb::cast(t, rv_policy::move) makes, without its search of
// the instance map for the address of `t` (a temporary, never found) and of the type map.
nb::object tensor_object(Tensor&& t);

// An op's result as a Python object: tensors through tensor_object, anything else (tuples of
// tensors, numbers) through nanobind's casters.
template <typename T>
nb::object to_python(T&& value) {
  if constexpr (std::is_same_v<std::remove_cvref_t<T>, Tensor> && !std::is_lvalue_reference_v<T>) {
    return tensor_object(std::move(value));
  } else {
    return nb::cast(std::forward<T>(value), nb::rv_policy::move);
  }
}

// A shape given as ints or as one sequence: t.reshape(2, 3) and t.reshape((2, 3)).
std::vector<int64_t> int_list(const nb::args& args, const char* op);
std::vector<int64_t> int_list(nb::handle seq, const char* op);

}  // namespace ingot::python
