// ingot.Tensor's binary and in-place operator slots in C. ingot/_tensor.py sets __add__, __radd__
// and __iadd__ (the op functions) on the type; Python then fills nb_add with slot_nb_add, which
// looks __add__ up on the type and makes an unbound call on every `a + b` (~15 ns of a 16-element
// add's ~250 on the dev box). _install_operator_slots then points the number slots of the exact
// Tensor type at functions that call those same objects directly, so behaviour and messages stay
// theirs.
//
// The objects are borrowed from the type's dict. That is safe because assigning or deleting a
// dunder on the type makes Python recompute the slots of that name (slot_nb_add again), so a slot
// here never outlives the entry it calls. Subclasses get Python's slot functions (their dunders are
// found through the MRO as plain functions), and with them Python's usual subclass rules.
#include <Python.h>
#include <nanobind/nanobind.h>

#include <array>
#include <string>
#include <utility>

#include "bindings.h"

namespace ingot::python {

namespace {

struct OperatorSlot {
  const char* name;  // the dunder's stem: "add" for __add__, __radd__ and __iadd__
  binaryfunc PyNumberMethods::*binary;
  binaryfunc PyNumberMethods::*inplace;
};

// Every operator whose slot takes two operands (not **: nb_power also takes a modulus).
constexpr std::array kSlots = {
    OperatorSlot{"add", &PyNumberMethods::nb_add, &PyNumberMethods::nb_inplace_add},
    OperatorSlot{"sub", &PyNumberMethods::nb_subtract, &PyNumberMethods::nb_inplace_subtract},
    OperatorSlot{"mul", &PyNumberMethods::nb_multiply, &PyNumberMethods::nb_inplace_multiply},
    OperatorSlot{"truediv", &PyNumberMethods::nb_true_divide,
                 &PyNumberMethods::nb_inplace_true_divide},
    OperatorSlot{"floordiv", &PyNumberMethods::nb_floor_divide,
                 &PyNumberMethods::nb_inplace_floor_divide},
    OperatorSlot{"mod", &PyNumberMethods::nb_remainder, &PyNumberMethods::nb_inplace_remainder},
    OperatorSlot{"matmul", &PyNumberMethods::nb_matrix_multiply,
                 &PyNumberMethods::nb_inplace_matrix_multiply},
    OperatorSlot{"and", &PyNumberMethods::nb_and, &PyNumberMethods::nb_inplace_and},
    OperatorSlot{"or", &PyNumberMethods::nb_or, &PyNumberMethods::nb_inplace_or},
    OperatorSlot{"xor", &PyNumberMethods::nb_xor, &PyNumberMethods::nb_inplace_xor},
    OperatorSlot{"lshift", &PyNumberMethods::nb_lshift, &PyNumberMethods::nb_inplace_lshift},
    OperatorSlot{"rshift", &PyNumberMethods::nb_rshift, &PyNumberMethods::nb_inplace_rshift},
};

// __op__, __rop__ and __iop__ of each slot (borrowed, see above), and the type they belong to.
struct Dunders {
  PyObject* forward;
  PyObject* reflected;
  PyObject* inplace;
};
std::array<Dunders, kSlots.size()> g_dunders{};
PyTypeObject* g_type = nullptr;

PyObject* call(PyObject* fn, PyObject* self, PyObject* other) {
  PyObject* args[] = {self, other};
  return PyObject_Vectorcall(fn, args, 2, nullptr);
}

// Python calls a type's binary slot for `x op y` when x is of that type, and for the reflected
// form when only y is (x's type had no slot or returned NotImplemented).
template <size_t K>
PyObject* binary_slot(PyObject* x, PyObject* y) {
  if (Py_TYPE(x) == g_type) return call(g_dunders[K].forward, x, y);
  return call(g_dunders[K].reflected, y, x);
}

template <size_t K>
PyObject* inplace_slot(PyObject* x, PyObject* y) {
  return call(g_dunders[K].inplace, x, y);
}

template <size_t... K>
void install(PyTypeObject* type, std::index_sequence<K...>) {
  PyNumberMethods* number = type->tp_as_number;
  ((number->*kSlots[K].binary = &binary_slot<K>), ...);
  ((number->*kSlots[K].inplace = &inplace_slot<K>), ...);
}

// The callable the type's dict holds under `name` (borrowed), or ValueError.
PyObject* dunder(PyTypeObject* type, const std::string& name) {
  PyObject* fn = PyDict_GetItemString(type->tp_dict, name.c_str());
  INGOT_CHECK(fn != nullptr && PyCallable_Check(fn), ValueError,
              "_install_operator_slots: ingot.Tensor has no ", name);
  return fn;
}

}  // namespace

void bind_operators(nb::module_& m) {
  // Called once by ingot/_tensor.py, after the operators' dunders are set on `cls`.
  m.def("_install_operator_slots", [](nb::type_object cls) {
    auto* type = reinterpret_cast<PyTypeObject*>(cls.ptr());
    INGOT_CHECK(type->tp_as_number != nullptr && (type->tp_flags & Py_TPFLAGS_HEAPTYPE), ValueError,
                "_install_operator_slots: not a heap type with number slots");
    for (size_t k = 0; k < kSlots.size(); ++k) {
      const std::string stem = kSlots[k].name;
      g_dunders[k] = {dunder(type, "__" + stem + "__"), dunder(type, "__r" + stem + "__"),
                      dunder(type, "__i" + stem + "__")};
    }
    g_type = type;
    install(type, std::make_index_sequence<kSlots.size()>{});
    PyType_Modified(type);
  });
}

}  // namespace ingot::python
