// nanobind type casters for ingot's value types: Scalar <-> Python bool/int/float, and ScalarType
// <-> the ingot.dtype instances. Included by every binding file so conversions agree everywhere.
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <cstring>

#include "bindings.h"

namespace nanobind::detail {

template <>
struct type_caster<ingot::Scalar> {
  NB_TYPE_CASTER(ingot::Scalar, const_name("int | float | bool"))

  // Exact Python numbers always convert; NumPy scalars and other numbers only in the implicit
  // conversion pass, and never a Tensor (ops with a Tensor overload must pick that one).
  template <typename Flags>
  bool from_python(handle src, Flags flags, cleanup_list*) noexcept {
    PyObject* o = src.ptr();
    if (PyBool_Check(o)) {
      value = ingot::Scalar(o == Py_True);
      return true;
    }
    if (PyLong_Check(o)) return from_long(o);
    if (PyFloat_Check(o)) {
      value = ingot::Scalar(PyFloat_AS_DOUBLE(o));
      return true;
    }
    if (!(static_cast<uint32_t>(flags) & static_cast<uint32_t>(cast_flags::convert))) return false;
    if (nanobind::isinstance<ingot::Tensor>(src)) return false;
    const char* tp = Py_TYPE(o)->tp_name;
    if (std::strcmp(tp, "numpy.bool") == 0 || std::strcmp(tp, "numpy.bool_") == 0) {
      const int truth = PyObject_IsTrue(o);
      if (truth < 0) return clear_and_fail();
      value = ingot::Scalar(truth == 1);
      return true;
    }
    if (PyIndex_Check(o)) {
      PyObject* as_int = PyNumber_Index(o);
      if (!as_int) return clear_and_fail();
      const bool ok = from_long(as_int);
      Py_DECREF(as_int);
      return ok;
    }
    const double d = PyFloat_AsDouble(o);
    if (d == -1.0 && PyErr_Occurred()) return clear_and_fail();
    value = ingot::Scalar(d);
    return true;
  }

  static handle from_cpp(const ingot::Scalar& s, rv_policy, cleanup_list*) noexcept {
    if (s.is_bool()) return PyBool_FromLong(s.to<bool>() ? 1 : 0);
    if (s.is_integral()) return PyLong_FromLongLong(s.to<int64_t>());
    return PyFloat_FromDouble(s.to<double>());
  }

 private:
  bool from_long(PyObject* o) noexcept {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow != 0 || (v == -1 && PyErr_Occurred())) return clear_and_fail();
    value = ingot::Scalar(static_cast<int64_t>(v));
    return true;
  }
  static bool clear_and_fail() noexcept {
    PyErr_Clear();
    return false;
  }
};

template <>
struct type_caster<ingot::ScalarType> {
  NB_TYPE_CASTER(ingot::ScalarType, const_name("ingot.dtype"))

  template <typename Flags>
  bool from_python(handle src, Flags, cleanup_list*) noexcept {
    const std::optional<ingot::ScalarType> t = ingot::python::dtype_of_object(src);
    if (!t) return false;
    value = *t;
    return true;
  }

  static handle from_cpp(ingot::ScalarType t, rv_policy, cleanup_list*) noexcept {
    return ingot::python::dtype_object(t).inc_ref();
  }
};

// Device <-> ingot.device objects; a device string ("cuda:1") converts too.
template <>
struct type_caster<ingot::Device> {
  NB_TYPE_CASTER(ingot::Device, const_name("ingot.device | str"))

  template <typename Flags>
  bool from_python(handle src, Flags, cleanup_list*) noexcept {
    try {
      if (PyUnicode_Check(src.ptr())) {
        value = ingot::Device(nanobind::cast<std::string>(src));
        return true;
      }
      const std::optional<ingot::Device> d = ingot::python::device_of_object(src);
      if (!d) return false;
      value = *d;
      return true;
    } catch (...) {
      PyErr_Clear();
      return false;
    }
  }

  static handle from_cpp(ingot::Device d, rv_policy, cleanup_list*) noexcept {
    try {
      return ingot::python::device_object(d);
    } catch (...) {
      return handle();
    }
  }
};

}  // namespace nanobind::detail
