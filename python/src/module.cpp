// ingot._C: the nanobind extension. Exceptions, dtypes and devices live here; tensors, factories,
// DLPack and the generated ops each have their own file.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <array>
#include <string>

#include "bindings.h"
#include "casters.h"

namespace ingot::python {

namespace {

// Borrowed from the module (which keeps them alive): dtype instances and the custom exceptions.
std::array<PyObject*, kNumScalarTypes> g_dtypes{};
PyObject* g_accelerator_error = nullptr;
PyObject* g_compile_error = nullptr;

char dtype_kind(ScalarType t) {
  if (t == kBool) return 'b';
  if (is_floating_type(t)) return 'f';
  return is_signed_type(t) ? 'i' : 'u';
}

// "cpu" or "cuda:1", as PyTorch prints devices.
std::string device_str(Device d) {
  if (d.is_cpu()) return "cpu";
  return std::string(device_type_name(d.type)) + ":" + std::to_string(d.index);
}

}  // namespace

nb::handle dtype_object(ScalarType t) { return g_dtypes[static_cast<size_t>(t)]; }

void bind_errors(nb::module_& m) {
  g_accelerator_error = PyErr_NewException("ingot.AcceleratorError", PyExc_RuntimeError, nullptr);
  g_compile_error = PyErr_NewException("ingot.CompileError", PyExc_RuntimeError, nullptr);
  m.attr("AcceleratorError") = nb::handle(g_accelerator_error);
  m.attr("CompileError") = nb::handle(g_compile_error);
  // One translator, most derived types first, so AcceleratorError is not caught as ingot::Error.
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const ValueError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const TypeError& e) {
      PyErr_SetString(PyExc_TypeError, e.what());
    } catch (const OverflowError& e) {
      PyErr_SetString(PyExc_OverflowError, e.what());
    } catch (const IndexError& e) {
      PyErr_SetString(PyExc_IndexError, e.what());
    } catch (const NotImplementedError& e) {
      PyErr_SetString(PyExc_NotImplementedError, e.what());
    } catch (const OutOfMemoryError& e) {
      PyErr_SetString(PyExc_MemoryError, e.what());
    } catch (const AcceleratorError& e) {
      PyErr_SetString(g_accelerator_error, e.what());
    } catch (const CompileError& e) {
      PyErr_SetString(g_compile_error, e.what());
    } catch (const Error& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    }
  });
}

void bind_dtypes(nb::module_& m) {
  nb::class_<DType>(m, "dtype")
      .def_prop_ro("name", [](const DType& d) { return std::string(dtype_name(d.type)); })
      .def_prop_ro("itemsize", [](const DType& d) { return element_size(d.type); })
      .def_prop_ro("kind", [](const DType& d) { return std::string(1, dtype_kind(d.type)); })
      .def_prop_ro("is_floating_point", [](const DType& d) { return is_floating_type(d.type); })
      .def("__repr__", [](const DType& d) { return "ingot." + std::string(dtype_name(d.type)); })
      .def("__str__", [](const DType& d) { return std::string(dtype_name(d.type)); })
      .def("__eq__", [](const DType& a, const DType& b) { return a.type == b.type; })
      .def("__eq__", [](const DType& a, const std::string& b) { return dtype_name(a.type) == b; })
      .def("__eq__", [](const DType&, nb::handle) { return false; })
      // Equal to its name, so hashes like the name (NumPy dtypes compare equal to strings too).
      .def("__hash__", [](const DType& d) { return nb::hash(nb::str(dtype_name(d.type).data())); });
  for (int i = 0; i < kNumScalarTypes; ++i) {
    const auto t = static_cast<ScalarType>(i);
    nb::object obj = nb::cast(DType{t});
    g_dtypes[static_cast<size_t>(i)] = obj.ptr();
    m.attr(std::string(dtype_name(t)).c_str()) = obj;
  }
}

void bind_device(nb::module_& m) {
  nb::class_<Device>(m, "device")
      .def(nb::init_implicit<std::string>())
      .def(nb::init<Device>())
      .def_prop_ro("type", [](Device d) { return std::string(device_type_name(d.type)); })
      .def_prop_ro("index", [](Device d) { return static_cast<int>(d.index); })
      .def("__str__", &device_str)
      .def("__repr__", [](Device d) { return "device(type='" + std::string(device_type_name(d.type)) +
                                              "', index=" + std::to_string(d.index) + ")"; })
      .def("__eq__", [](Device a, Device b) { return a == b; })
      .def("__eq__", [](Device a, const std::string& b) { return a == Device(b); })
      .def("__eq__", [](Device, nb::handle) { return false; })
      .def("__hash__", [](Device d) { return static_cast<int>(d.type) * 256 + d.index; });
}

}  // namespace ingot::python

NB_MODULE(_C, m) {
  namespace py = ingot::python;
  namespace nb = nanobind;
  m.doc() = "ingot's native extension; use the ingot package, not this module.";
  py::bind_errors(m);
  py::bind_dtypes(m);
  py::bind_device(m);
  nb::class_<ingot::Tensor> tensor = py::bind_tensor(m);
  py::bind_factories(m);
  py::bind_dlpack(m, tensor);
  py::bind_cuda(m, tensor);
  nb::module_ ops = m.def_submodule("_ops", "Generated op entry points (see ingot/_generated_ops.py).");
  py::bind_ops(ops);
}
