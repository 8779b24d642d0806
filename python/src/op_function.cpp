// ingot._C._OpFunction: what ingot.add, Tensor.add and Tensor.__add__ are. The generated Python
// function of an op (ingot/_generated_ops.py) defines its signature and its slow path (numbers and
// array-likes converted, then retried); calling it costs a Python frame per call, as much as a
// tiny op itself. This callable maps the arguments onto the nanobind entry point's positional
// parameters in C and calls it directly; anything unusual (a missing or unknown argument, a
// TypeError from the entry point) goes to the Python function, so behaviour and messages are its.
#include <Python.h>
#include <structmember.h>

#include <nanobind/nanobind.h>

#include "bindings.h"

namespace ingot::python {

namespace {

constexpr Py_ssize_t kMaxParams = 16;

struct OpFunction {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  PyObject* dict;       // __name__, __doc__, __signature__, ...
  PyObject* entry;      // the nanobind function: every parameter, positionally
  PyObject* fallback;   // the generated Python function
  PyObject* names;      // tuple of parameter names, in order
  PyObject* defaults;   // tuple: each parameter's default, or `required` when it has none
  PyObject* required;   // the marker for a parameter without a default
  Py_ssize_t npositional;  // parameters that can be given by position (the rest are keyword-only)
  PyObject* defer_to;      // operator copies (_operator_function): the reflected dunder's name
};

// An operator's second operand that ingot cannot take but whose type has the reflected dunder
// (`defer_to`): the operator returns NotImplemented, so Python asks that operand, as it does for
// NumPy arrays and PyTorch tensors. Tensors and Python numbers never defer: their errors (a
// refused dtype, an overflow) are ingot's to raise.
bool defers(PyObject* other, PyObject* name) {
  if (PyLong_Check(other) || PyFloat_Check(other) || PyComplex_Check(other) ||
      nb::isinstance<Tensor>(nb::handle(other))) {
    return false;
  }
  return PyObject_HasAttr(reinterpret_cast<PyObject*>(Py_TYPE(other)), name) != 0;
}

PyObject* slow_call(OpFunction* f, PyObject* const* args, size_t nargsf, PyObject* kwnames) {
  PyObject* result = PyObject_Vectorcall(f->fallback, args, nargsf, kwnames);
  if (result == nullptr && f->defer_to != nullptr && PyVectorcall_NARGS(nargsf) == 2 &&
      kwnames == nullptr && PyErr_ExceptionMatches(PyExc_TypeError)) {
    // The error is set aside while defers() looks the dunder up, and restored unless it defers.
#if PY_VERSION_HEX >= 0x030C0000
    PyObject* error = PyErr_GetRaisedException();
    if (defers(args[1], f->defer_to)) {
      Py_DECREF(error);
      return Py_NewRef(Py_NotImplemented);
    }
    PyErr_SetRaisedException(error);
#else
    PyObject *type, *value, *traceback;
    PyErr_Fetch(&type, &value, &traceback);
    if (defers(args[1], f->defer_to)) {
      Py_XDECREF(type);
      Py_XDECREF(value);
      Py_XDECREF(traceback);
      return Py_NewRef(Py_NotImplemented);
    }
    PyErr_Restore(type, value, traceback);
#endif
  }
  return result;
}

// Index of keyword `key` among the parameter names, or -1. Call sites pass interned names, so the
// identity test nearly always decides.
Py_ssize_t param_index(OpFunction* f, PyObject* key) {
  const Py_ssize_t n = PyTuple_GET_SIZE(f->names);
  for (Py_ssize_t i = 0; i < n; ++i) {
    if (PyTuple_GET_ITEM(f->names, i) == key) return i;
  }
  for (Py_ssize_t i = 0; i < n; ++i) {
    if (PyUnicode_Compare(PyTuple_GET_ITEM(f->names, i), key) == 0) return i;
  }
  PyErr_Clear();  // a comparison error just means "not this one"
  return -1;
}

PyObject* op_vectorcall(PyObject* self, PyObject* const* args, size_t nargsf, PyObject* kwnames) {
  auto* f = reinterpret_cast<OpFunction*>(self);
  const Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
  const Py_ssize_t n = PyTuple_GET_SIZE(f->names);
  if (nargs > f->npositional) return slow_call(f, args, nargsf, kwnames);
  // One slot in front of the arguments lets the callee prepend without copying.
  PyObject* slots[kMaxParams + 1];
  PyObject** call = slots + 1;
  for (Py_ssize_t i = 0; i < nargs; ++i) call[i] = args[i];
  for (Py_ssize_t i = nargs; i < n; ++i) call[i] = nullptr;
  if (kwnames != nullptr) {
    const Py_ssize_t nkw = PyTuple_GET_SIZE(kwnames);
    for (Py_ssize_t k = 0; k < nkw; ++k) {
      const Py_ssize_t i = param_index(f, PyTuple_GET_ITEM(kwnames, k));
      if (i < 0 || call[i] != nullptr) return slow_call(f, args, nargsf, kwnames);
      call[i] = args[nargs + k];
    }
  }
  for (Py_ssize_t i = nargs; i < n; ++i) {
    if (call[i] != nullptr) continue;
    PyObject* d = PyTuple_GET_ITEM(f->defaults, i);
    if (d == f->required) return slow_call(f, args, nargsf, kwnames);
    call[i] = d;
  }
  PyObject* result =
      PyObject_Vectorcall(f->entry, call, static_cast<size_t>(n) | PY_VECTORCALL_ARGUMENTS_OFFSET, nullptr);
  if (result == nullptr && PyErr_ExceptionMatches(PyExc_TypeError)) {
    // No overload took these arguments as they are: the Python function converts and retries,
    // or raises its own error.
    PyErr_Clear();
    return slow_call(f, args, nargsf, kwnames);
  }
  return result;
}

// Tensor.add is this object: looked up on an instance, it binds like a Python function.
PyObject* op_descr_get(PyObject* self, PyObject* obj, PyObject*) {
  if (obj == nullptr || obj == Py_None) return Py_NewRef(self);
  return PyMethod_New(self, obj);
}

int op_traverse(PyObject* self, visitproc visit, void* arg) {
  auto* f = reinterpret_cast<OpFunction*>(self);
  Py_VISIT(Py_TYPE(self));
  Py_VISIT(f->dict);
  Py_VISIT(f->entry);
  Py_VISIT(f->fallback);
  Py_VISIT(f->names);
  Py_VISIT(f->defaults);
  Py_VISIT(f->required);
  Py_VISIT(f->defer_to);
  return 0;
}

int op_clear(PyObject* self) {
  auto* f = reinterpret_cast<OpFunction*>(self);
  Py_CLEAR(f->dict);
  Py_CLEAR(f->entry);
  Py_CLEAR(f->fallback);
  Py_CLEAR(f->names);
  Py_CLEAR(f->defaults);
  Py_CLEAR(f->required);
  Py_CLEAR(f->defer_to);
  return 0;
}

void op_dealloc(PyObject* self) {
  PyTypeObject* type = Py_TYPE(self);
  PyObject_GC_UnTrack(self);
  op_clear(self);
  type->tp_free(self);
  Py_DECREF(type);
}

PyObject* op_repr(PyObject* self) {
  auto* f = reinterpret_cast<OpFunction*>(self);
  return PyUnicode_FromFormat("<ingot op %R>", f->fallback);
}

PyMemberDef op_members[] = {
    {"__dictoffset__", T_PYSSIZET, offsetof(OpFunction, dict), READONLY, nullptr},
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(OpFunction, vectorcall), READONLY, nullptr},
    {nullptr, 0, 0, 0, nullptr}};

PyType_Slot op_slots[] = {{Py_tp_call, reinterpret_cast<void*>(PyVectorcall_Call)},
                          {Py_tp_descr_get, reinterpret_cast<void*>(op_descr_get)},
                          {Py_tp_traverse, reinterpret_cast<void*>(op_traverse)},
                          {Py_tp_clear, reinterpret_cast<void*>(op_clear)},
                          {Py_tp_dealloc, reinterpret_cast<void*>(op_dealloc)},
                          {Py_tp_repr, reinterpret_cast<void*>(op_repr)},
                          {Py_tp_members, op_members},
                          {0, nullptr}};

PyType_Spec op_spec = {"ingot._C._OpFunction", sizeof(OpFunction), 0,
                       Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL |
                           Py_TPFLAGS_METHOD_DESCRIPTOR,
                       op_slots};

PyTypeObject* g_op_type = nullptr;  // owned for the life of the process

}  // namespace

void bind_op_function(nb::module_& m) {
  g_op_type = reinterpret_cast<PyTypeObject*>(PyType_FromSpec(&op_spec));
  if (g_op_type == nullptr) throw nb::python_error();
  m.attr("_OpFunction") = nb::handle(reinterpret_cast<PyObject*>(g_op_type));
  // _op_function(entry, fallback, names, defaults, required, npositional): see OpFunction.
  m.def("_op_function", [](nb::handle entry, nb::handle fallback, nb::tuple names, nb::tuple defaults,
                           nb::handle required, Py_ssize_t npositional) {
    const Py_ssize_t n = static_cast<Py_ssize_t>(nb::len(names));
    INGOT_CHECK(n <= kMaxParams && static_cast<Py_ssize_t>(nb::len(defaults)) == n && npositional >= 0 &&
                    npositional <= n,
                ValueError, "_op_function: bad parameter table");
    auto* f = PyObject_GC_New(OpFunction, g_op_type);
    if (f == nullptr) throw nb::python_error();
    f->vectorcall = op_vectorcall;
    f->dict = PyDict_New();
    f->entry = Py_NewRef(entry.ptr());
    f->fallback = Py_NewRef(fallback.ptr());
    f->names = Py_NewRef(names.ptr());
    f->defaults = Py_NewRef(defaults.ptr());
    f->required = Py_NewRef(required.ptr());
    f->npositional = npositional;
    f->defer_to = nullptr;
    PyObject_GC_Track(f);
    nb::object result = nb::steal(reinterpret_cast<PyObject*>(f));
    if (f->dict == nullptr) throw nb::python_error();
    return result;
  });
  // _operator_function(op, reflected): a copy of _OpFunction `op` for Tensor's operator dunders,
  // returning NotImplemented for an operand that ingot cannot take and whose type defines
  // `reflected` ("__radd__"); see defers(). It shares op's attributes (__name__, __doc__, ...).
  m.def("_operator_function", [](nb::handle op, nb::str reflected) {
    INGOT_CHECK(Py_TYPE(op.ptr()) == g_op_type, TypeError,
                "_operator_function: not an _OpFunction");
    const auto* src = reinterpret_cast<const OpFunction*>(op.ptr());
    auto* f = PyObject_GC_New(OpFunction, g_op_type);
    if (f == nullptr) throw nb::python_error();
    f->vectorcall = op_vectorcall;
    f->dict = Py_NewRef(src->dict);
    f->entry = Py_NewRef(src->entry);
    f->fallback = Py_NewRef(src->fallback);
    f->names = Py_NewRef(src->names);
    f->defaults = Py_NewRef(src->defaults);
    f->required = Py_NewRef(src->required);
    f->npositional = src->npositional;
    f->defer_to = Py_NewRef(reflected.ptr());
    PyUnicode_InternInPlace(&f->defer_to);
    PyObject_GC_Track(f);
    return nb::steal(reinterpret_cast<PyObject*>(f));
  });
}

}  // namespace ingot::python
