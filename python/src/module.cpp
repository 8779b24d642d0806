// ingot._C: the nanobind extension. Exceptions, dtypes and devices live here; tensors, factories,
// DLPack and the generated ops each have their own file.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <array>
#include <string>

#include "bindings.h"
#include "casters.h"
#include "dlpack_import.h"

namespace ingot::python {

namespace {

// dtype objects (owned, see bind_dtypes) and the custom exceptions (borrowed from the module).
std::array<PyObject*, kNumScalarTypes> g_dtypes{};
PyObject* g_accelerator_error = nullptr;
PyObject* g_compile_error = nullptr;
PyObject* g_device_class = nullptr;    // ingot._device.device (owned)
PyObject* g_device_factory = nullptr;  // device._of(code, name, index): the interned object (owned)

char dtype_kind(ScalarType t) {
  if (t == kBool) return 'b';
  if (is_floating_type(t)) return 'f';
  return is_signed_type(t) ? 'i' : 'u';
}

}  // namespace

nb::handle dtype_object(ScalarType t) { return g_dtypes[static_cast<size_t>(t)]; }

std::optional<ScalarType> dtype_of_object(nb::handle h) {
  for (int i = 0; i < kNumScalarTypes; ++i) {
    if (h.ptr() == g_dtypes[static_cast<size_t>(i)]) return static_cast<ScalarType>(i);
  }
  return std::nullopt;
}

void bind_errors(nb::module_& m) {
  g_accelerator_error = PyErr_NewExceptionWithDoc(
      "ingot.AcceleratorError",
      "A CUDA error: a driver or runtime call failed, or a kernel reported bad input through the error\n"
      "buffer (raised at the next synchronization, with the first message).",
      PyExc_RuntimeError, nullptr);
  g_compile_error = PyErr_NewExceptionWithDoc(
      "ingot.CompileError",
      "A kernel did not compile at run time (NVRTC, for an op's kernel or compile_shader); the message\n"
      "holds the compiler's log.",
      PyExc_RuntimeError, nullptr);
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
    } catch (const dlpack::BufferError& e) {
      PyErr_SetString(PyExc_BufferError, e.what());
    } catch (const Error& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    }
  });
}

// The dtype objects are plain Python objects (ingot/_dtype.py builds them from this table and
// hands them back once): the extension owns one strong reference to each for the life of the
// process, so a dtype still referenced by another library at exit is no nanobind instance that
// nanobind would report as leaked.
void bind_dtypes(nb::module_& m) {
  m.def("_dtype_table", [] {
    nb::list rows;
    for (int i = 0; i < kNumScalarTypes; ++i) {
      const auto t = static_cast<ScalarType>(i);
      rows.append(nb::make_tuple(std::string(dtype_name(t)), element_size(t), std::string(1, dtype_kind(t)),
                                 is_floating_type(t)));
    }
    return rows;
  });
  m.def("_register_dtypes", [](nb::sequence objects) {
    INGOT_CHECK(nb::len(objects) == static_cast<size_t>(kNumScalarTypes), ValueError,
                "_register_dtypes: expected ", kNumScalarTypes, " dtype objects");
    for (int i = 0; i < kNumScalarTypes; ++i) {
      nb::handle(g_dtypes[static_cast<size_t>(i)]).dec_ref();
      g_dtypes[static_cast<size_t>(i)] = nb::object(objects[static_cast<size_t>(i)]).release().ptr();
    }
  });
}

// Devices, like dtypes, are plain Python objects (ingot/_device.py), interned per (type, index);
// the extension keeps the class and its factory for the life of the process.
void bind_device(nb::module_& m) {
  m.def("_parse_device", [](const std::string& spec) {
    const Device d(spec);
    return nb::make_tuple(static_cast<int>(d.type), std::string(device_type_name(d.type)), static_cast<int>(d.index));
  });
  m.def("_register_device", [](nb::handle cls, nb::handle factory) {
    nb::handle(g_device_class).dec_ref();
    nb::handle(g_device_factory).dec_ref();
    g_device_class = cls.inc_ref().ptr();
    g_device_factory = factory.inc_ref().ptr();
  });
}

nb::handle device_object(Device d) {
  return nb::handle(g_device_factory)(static_cast<int>(d.type), std::string(device_type_name(d.type)),
                                      static_cast<int>(d.index))
      .release();
}

std::optional<Device> device_of_object(nb::handle h) {
  if (g_device_class == nullptr || !PyObject_TypeCheck(h.ptr(), reinterpret_cast<PyTypeObject*>(g_device_class))) {
    return std::nullopt;
  }
  return Device(static_cast<DeviceType>(nb::cast<int>(h.attr("_code"))), nb::cast<int8_t>(h.attr("_index")));
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
  py::bind_threads(m);
  py::bind_dlpack(m, tensor);
  py::bind_cuda(m, tensor);
  py::bind_shader(m);
  py::bind_op_function(m);
  py::bind_operators(m);
  nb::module_ ops = m.def_submodule("_ops", "Generated op entry points (see ingot/_generated_ops.py).");
  py::bind_ops(ops);
}
