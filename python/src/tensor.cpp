// ingot.Tensor: metadata, views and copies. Python-level conveniences (repr, indexing, operators,
// NumPy conversion) are in ingot/_tensor.py; the generated ops add their methods at import.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/vector.h>

#include <numeric>

#include "bindings.h"
#include "casters.h"

namespace ingot::python {

namespace {

nb::handle g_tensor_type;  // ingot.Tensor (owned by the module)

nb::tuple to_tuple(IntArrayRef values, int64_t scale = 1) {
  nb::tuple result = nb::steal<nb::tuple>(PyTuple_New(static_cast<Py_ssize_t>(values.size())));
  for (size_t i = 0; i < values.size(); ++i) {
    PyTuple_SET_ITEM(result.ptr(), static_cast<Py_ssize_t>(i), PyLong_FromLongLong(values[i] * scale));
  }
  return result;
}

Tensor clone(const Tensor& t) {
  return release_gil_above(t.numel(), [&] { return t.clone(); });
}

// NumPy's .T: all dims reversed (a no-op view for 0-d and 1-d tensors).
Tensor reversed_dims(const Tensor& t) {
  std::vector<int64_t> dims(static_cast<size_t>(t.dim()));
  std::iota(dims.rbegin(), dims.rend(), int64_t{0});
  return t.permute(dims);
}

}  // namespace

Tensor& tensor_ref(nb::handle h, const char* op, const char* arg) {
  if (!nb::isinstance<Tensor>(h)) {
    throw nb::type_error(detail::concat(op, ": argument '", arg, "' must be an ingot.Tensor, got ",
                                        nb::inst_name(h).c_str())
                             .c_str());
  }
  return *nb::inst_ptr<Tensor>(h);
}

nb::object tensor_object(Tensor&& t) {
  nb::object o = nb::inst_alloc(g_tensor_type);
  new (nb::inst_ptr<Tensor>(o)) Tensor(std::move(t));
  nb::inst_mark_ready(o);  // ready, and the instance runs ~Tensor when it dies
  return o;
}

std::vector<int64_t> int_list(nb::handle seq, const char* op) {
  if (PyLong_Check(seq.ptr()) || PyIndex_Check(seq.ptr())) return {nb::cast<int64_t>(seq)};
  if (!PySequence_Check(seq.ptr())) {
    throw nb::type_error(detail::concat(op, ": expected a sequence of ints, got ",
                                        nb::inst_name(seq).c_str())
                             .c_str());
  }
  std::vector<int64_t> out;
  for (nb::handle item : nb::borrow<nb::sequence>(seq)) {
    if (!PyIndex_Check(item.ptr())) {
      throw nb::type_error(detail::concat(op, ": expected ints, got ", nb::inst_name(item).c_str()).c_str());
    }
    out.push_back(nb::cast<int64_t>(item));
  }
  return out;
}

std::vector<int64_t> int_list(const nb::args& args, const char* op) {
  if (args.size() == 1) return int_list(nb::handle(args[0]), op);
  return int_list(nb::handle(args), op);
}

constexpr const char* kTensorDoc =
    "An n-dimensional array on the CPU or a CUDA device: a dtype, a shape, strides (in elements) and\n"
    "a storage it may share with other tensors (views) or with NumPy and PyTorch (DLPack).\n"
    "Made by ingot.asarray, ingot.tensor, the factories (zeros, arange, ...) and the ops; most ops\n"
    "are also methods (t.sum(dim=1), t.add_(1)).";

nb::class_<Tensor> bind_tensor(nb::module_& m) {
#if NB_VERSION_MAJOR > 2 || (NB_VERSION_MAJOR == 2 && NB_VERSION_MINOR >= 13)
  // A dead instance goes to a per-type pool (~Tensor has run; it stays in nanobind's instance map)
  // and the next result reuses it: no map insert and erase, no PyObject malloc and free per op.
  nb::class_<Tensor> cls(m, "Tensor", nb::pooled(), kTensorDoc);
#else
  nb::class_<Tensor> cls(m, "Tensor", kTensorDoc);
#endif
  g_tensor_type = cls;
  cls.def_prop_ro("shape", [](const Tensor& t) { return to_tuple(t.sizes()); })
      // Byte strides, as NumPy's ndarray.strides; stride() gives element strides like PyTorch.
      .def_prop_ro("strides", [](const Tensor& t) {
        return to_tuple(t.strides(), static_cast<int64_t>(t.itemsize()));
      })
      .def("stride", [](const Tensor& t) { return to_tuple(t.strides()); })
      .def("stride", [](const Tensor& t, int64_t dim) { return t.stride(dim); }, nb::arg("dim"))
      .def_prop_ro("dtype", [](const Tensor& t) { return t.dtype(); })
      .def_prop_ro("device", [](const Tensor& t) { return t.device(); })
      .def_prop_ro("ndim", [](const Tensor& t) { return t.dim(); })
      .def_prop_ro("size", [](const Tensor& t) { return t.numel(); })
      .def("numel", [](const Tensor& t) { return t.numel(); })
      .def_prop_ro("itemsize", [](const Tensor& t) { return t.itemsize(); })
      .def_prop_ro("nbytes", [](const Tensor& t) { return t.nbytes(); })
      .def_prop_ro("storage_offset", [](const Tensor& t) { return t.storage_offset(); })
      .def_prop_ro("data_ptr", [](const Tensor& t) { return reinterpret_cast<uintptr_t>(t.data_ptr()); })
      .def_prop_ro("T", &reversed_dims)
      .def("is_contiguous", &Tensor::is_contiguous)
      .def("item", [](const Tensor& t) { return t.item(); })
      .def("view", [](const Tensor& t, const nb::args& shape) { return t.view(int_list(shape, "view")); })
      .def("reshape", [](const Tensor& t, const nb::args& shape) { return t.reshape(int_list(shape, "reshape")); })
      .def("permute", [](const Tensor& t, const nb::args& dims) { return t.permute(int_list(dims, "permute")); })
      .def("expand", [](const Tensor& t, const nb::args& shape) { return t.expand(int_list(shape, "expand")); })
      .def("broadcast_to", [](const Tensor& t, nb::handle shape) {
        return t.broadcast_to(int_list(shape, "broadcast_to"));
      }, nb::arg("shape"))
      .def("transpose", &Tensor::transpose, nb::arg("dim0"), nb::arg("dim1"))
      .def("squeeze", [](const Tensor& t, std::optional<int64_t> dim) {
        return dim ? t.squeeze(*dim) : t.squeeze();
      }, nb::arg("dim") = nb::none())
      .def("unsqueeze", &Tensor::unsqueeze, nb::arg("dim"))
      .def("flatten", &Tensor::flatten)
      .def("flip", [](const Tensor& t, nb::handle dims) { return t.flip(int_list(dims, "flip")); }, nb::arg("dims"))
      .def("diagonal", &Tensor::diagonal, nb::arg("offset") = 0, nb::arg("dim1") = 0, nb::arg("dim2") = 1)
      .def("as_strided", [](const Tensor& t, nb::handle shape, nb::handle strides, std::optional<int64_t> offset) {
        return t.as_strided(int_list(shape, "as_strided"), int_list(strides, "as_strided"), offset);
      }, nb::arg("shape"), nb::arg("strides"), nb::arg("storage_offset") = nb::none())
      .def("select", &Tensor::select, nb::arg("dim"), nb::arg("index"))
      .def("slice", &Tensor::slice, nb::arg("dim"), nb::arg("start") = nb::none(),
           nb::arg("stop") = nb::none(), nb::arg("step") = 1)
      .def("contiguous", [](const Tensor& t) { return release_gil_above(t.numel(), [&] { return t.contiguous(); }); })
      .def("clone", &clone)
      .def("copy", &clone)
      .def("astype", [](const Tensor& t, ScalarType dtype, bool copy) {
        return release_gil_above(t.numel(), [&] { return t.to(dtype, copy); });
      }, nb::arg("dtype"), nb::arg("copy") = true)
      .def("copy_", [](nb::handle self, const Tensor& src) {
        Tensor& dst = tensor_ref(self, "copy_", "self");
        release_gil_above(dst.numel(), [&] { dst.copy_(src); });
        return nb::borrow(self);
      }, nb::arg("src"))
      .def("fill_", [](nb::handle self, const Scalar& value) {
        Tensor& dst = tensor_ref(self, "fill_", "self");
        release_gil_above(dst.numel(), [&] { dst.fill_(value); });
        return nb::borrow(self);
      }, nb::arg("value"))
      // Same bits, another dtype of the same size (bfloat16 <-> uint16 for NumPy without ml_dtypes).
      .def("_bitcast", [](const Tensor& t, ScalarType dtype) {
        INGOT_CHECK(element_size(dtype) == t.itemsize(), TypeError, "_bitcast: ", t.dtype(), " and ", dtype,
                    " differ in size");
        return Tensor::make(t.storage(), dtype, t.sizes(), t.strides(), t.storage_offset());
      }, nb::arg("dtype"))
      .def("_is_view_of", [](const Tensor& a, const Tensor& b) { return a.storage().is_same(b.storage()); });
  // Wraps a Python number as a 0-dim tensor ranked below dimensioned tensors in type promotion.
  m.def("_scalar_tensor", [](const Scalar& s, std::optional<Device> device) {
    return scalar_to_tensor(s, device.value_or(Device()));
  }, nb::arg("value"), nb::arg("device").none() = nb::none());
  m.def("promote_types", &promote_types, nb::arg("a"), nb::arg("b"));
  m.def("can_cast", &can_cast, nb::arg("from_"), nb::arg("to"));
  m.def("result_type", [](const Tensor& a, const Tensor& b) { return result_type(a, b); });
  m.def("result_type", [](const Tensor& a, const Scalar& b) { return result_type(a, b); });
  return cls;
}

}  // namespace ingot::python
