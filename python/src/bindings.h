// Shared declarations of the nanobind extension ingot._C: one bind_* function per concern, plus
// the conversions every binding file needs (dtype and device objects, Scalar, shape arguments).
#pragma once

#include <nanobind/nanobind.h>

#include <cstdint>
#include <vector>

#include "ingot/ingot.h"

namespace ingot::python {

namespace nb = nanobind;

// The Python-visible dtype: one immortal instance per ScalarType (ingot.float32, ...).
struct DType {
  ScalarType type;
};

void bind_errors(nb::module_& m);
void bind_dtypes(nb::module_& m);
void bind_device(nb::module_& m);
nb::class_<Tensor> bind_tensor(nb::module_& m);
void bind_factories(nb::module_& m);
void bind_dlpack(nb::module_& m, nb::class_<Tensor>& cls);
void bind_cuda(nb::module_& m, nb::class_<Tensor>& tensor);
// Generated from op_table.json by python/gen_op_bindings.py.
void bind_ops(nb::module_& m);

// The ingot.<name> dtype instance for `t` (borrowed; lives as long as the module).
nb::handle dtype_object(ScalarType t);

// The Tensor inside a Python object, or TypeError naming the op and argument.
Tensor& tensor_ref(nb::handle h, const char* op, const char* arg);

// A shape given as ints or as one sequence: t.reshape(2, 3) and t.reshape((2, 3)).
std::vector<int64_t> int_list(const nb::args& args, const char* op);
std::vector<int64_t> int_list(nb::handle seq, const char* op);

}  // namespace ingot::python
