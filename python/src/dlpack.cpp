// DLPack export (Tensor.__dlpack__, __dlpack_device__) and import (ingot.from_dlpack): zero-copy
// in both directions, versioned 1.x capsules ("dltensor_versioned") and legacy ones ("dltensor").
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>

#include <vector>

#include "bindings.h"
#include "casters.h"
#include "dlpack.h"
#include "dlpack_import.h"
#include "ingot/cuda.h"

namespace ingot::python {

namespace {

using namespace dlpack;

constexpr const char* kLegacyName = "dltensor";
constexpr const char* kLegacyUsed = "used_dltensor";
constexpr const char* kVersionedName = "dltensor_versioned";
constexpr const char* kVersionedUsed = "used_dltensor_versioned";

DLDevice to_dl_device(Device d) { return {d.is_cpu() ? kDLCPU : kDLCUDA, d.is_cpu() ? 0 : d.index}; }

// Owns the exported tensor (keeping its storage alive) and the shape/stride arrays DLPack points at.
template <typename Managed>
struct ExportHolder {
  Managed managed{};
  Tensor tensor;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;

  static void deleter(Managed* m) { delete static_cast<ExportHolder*>(m->manager_ctx); }
};

template <typename Managed>
Managed* make_managed(const Tensor& t) {
  auto* holder = new ExportHolder<Managed>{};
  holder->tensor = t;
  holder->shape = t.sizes().vec();
  holder->strides = t.strides().vec();
  Managed& m = holder->managed;
  m.manager_ctx = holder;
  m.deleter = &ExportHolder<Managed>::deleter;
  DLTensor& dl = m.dl_tensor;
  dl.data = t.data_ptr();
  dl.device = to_dl_device(t.device());
  dl.ndim = static_cast<int32_t>(t.dim());
  dl.dtype = to_dl_dtype(t.dtype());
  dl.shape = holder->shape.data();
  dl.strides = holder->strides.data();
  dl.byte_offset = 0;
  return &m;
}

// A capsule nobody consumed still owns its tensor: release it (keeping any pending exception).
template <typename Managed>
void capsule_destructor(PyObject* capsule, const char* name) {
  if (!PyCapsule_IsValid(capsule, name)) return;  // renamed "used_..." by a consumer
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  auto* m = static_cast<Managed*>(PyCapsule_GetPointer(capsule, name));
  if (m && m->deleter) m->deleter(m);
  PyErr_Restore(type, value, traceback);
}

void legacy_destructor(PyObject* c) { capsule_destructor<DLManagedTensor>(c, kLegacyName); }
void versioned_destructor(PyObject* c) { capsule_destructor<DLManagedTensorVersioned>(c, kVersionedName); }

nb::object export_dlpack(const Tensor& self, nb::handle stream, std::optional<nb::tuple> max_version,
                         std::optional<nb::tuple> dl_device, std::optional<bool> copy) {
  if (self.device().is_cpu() && !stream.is_none() && !(PyLong_Check(stream.ptr()) && nb::cast<int64_t>(stream) == -1)) {
    throw nb::buffer_error("__dlpack__: stream must be None for a CPU tensor");
  }
  if (dl_device) {
    const DLDevice want{nb::cast<int32_t>((*dl_device)[0]), nb::cast<int32_t>((*dl_device)[1])};
    const DLDevice have = to_dl_device(self.device());
    if (want.device_type != have.device_type || want.device_id != have.device_id) {
      throw nb::buffer_error(detail::concat("__dlpack__: cannot export a tensor on ", self.device(),
                                            " to DLPack device (", want.device_type, ", ", want.device_id, ")")
                                 .c_str());
    }
  }
  // The consumer reads on its stream (DLPack: None or 1 is the legacy default stream, ingot's own;
  // -1 asks for no ordering): make that stream wait for ingot's pending work.
  if (self.device().is_cuda() && !stream.is_none()) {
    const int64_t s = nb::cast<int64_t>(stream);
    if (s != -1 && s != 1) cuda::make_stream_wait(self.device().index, static_cast<std::uintptr_t>(s));
  }
  const bool copied = copy.value_or(false);
  const Tensor t = copied ? self.clone() : self;
  const bool versioned = max_version && nb::cast<int64_t>((*max_version)[0]) >= 1;
  if (!versioned) {
    auto* m = make_managed<DLManagedTensor>(t);
    return nb::steal(PyCapsule_New(m, kLegacyName, &legacy_destructor));
  }
  auto* m = make_managed<DLManagedTensorVersioned>(t);
  m->version = {kMajorVersion, kMinorVersion};
  m->flags = copied ? kFlagIsCopied : 0;
  return nb::steal(PyCapsule_New(m, kVersionedName, &versioned_destructor));
}

nb::tuple dlpack_device(const Tensor& self) {
  const DLDevice d = to_dl_device(self.device());
  return nb::make_tuple(d.device_type, d.device_id);
}

// The producer's memory as a tensor; its deleter runs (under the GIL, since producers such as
// NumPy release Python objects in it) when the last ingot view of it goes away. The capsule is
// marked consumed only once the import succeeded, so on an error its own destructor frees it.
template <typename Managed>
Tensor consume(PyObject* capsule, const char* used_name, Managed* m, std::optional<bool> copy) {
  Tensor t = from_dltensor(m->dl_tensor, [m] {
    if (!m->deleter || !Py_IsInitialized()) return;
    nb::gil_scoped_acquire gil;
    m->deleter(m);
  }, copy);
  PyCapsule_SetName(capsule, used_name);
  return t;
}

nb::object call_dlpack(nb::handle obj, std::optional<bool> copy) {
  if (!nb::hasattr(obj, "__dlpack__")) {
    throw nb::type_error(detail::concat("from_dlpack: ", nb::inst_name(obj).c_str(),
                                        " does not implement __dlpack__")
                             .c_str());
  }
  nb::object method = obj.attr("__dlpack__");
  // A CUDA producer orders its work before ingot's stream, the legacy default stream (DLPack: 1).
  nb::object stream = nb::none();
  if (nb::hasattr(obj, "__dlpack_device__")) {
    const nb::tuple dev = nb::cast<nb::tuple>(obj.attr("__dlpack_device__")());
    if (nb::cast<int32_t>(dev[0]) == kDLCUDA) stream = nb::int_(1);
  }
  try {
    if (copy) {
      return method(nb::arg("stream") = stream, nb::arg("max_version") = nb::make_tuple(kMajorVersion, kMinorVersion),
                    nb::arg("copy") = *copy);
    }
    return method(nb::arg("stream") = stream, nb::arg("max_version") = nb::make_tuple(kMajorVersion, kMinorVersion));
  } catch (nb::python_error& e) {
    if (!e.matches(PyExc_TypeError)) throw;
  }
  return method();  // a pre-1.0 producer without keyword arguments
}

Tensor import_dlpack(nb::handle obj, std::optional<bool> copy) {
  nb::object capsule = PyCapsule_CheckExact(obj.ptr()) ? nb::borrow(obj) : call_dlpack(obj, copy);
  PyObject* c = capsule.ptr();
  Tensor t;
  bool read_only = false;
  if (PyCapsule_IsValid(c, kVersionedName)) {
    auto* m = static_cast<DLManagedTensorVersioned*>(PyCapsule_GetPointer(c, kVersionedName));
    if (m->version.major != kMajorVersion) {
      const uint32_t major = m->version.major;
      if (m->deleter) m->deleter(m);
      PyCapsule_SetName(c, kVersionedUsed);
      throw nb::buffer_error(detail::concat("from_dlpack: unsupported DLPack major version ", major).c_str());
    }
    read_only = (m->flags & kFlagReadOnly) != 0;
    t = consume(c, kVersionedUsed, m, copy);
  } else if (PyCapsule_IsValid(c, kLegacyName)) {
    t = consume(c, kLegacyUsed, static_cast<DLManagedTensor*>(PyCapsule_GetPointer(c, kLegacyName)), copy);
  } else {
    throw nb::type_error("from_dlpack: expected a DLPack capsule ('dltensor' or 'dltensor_versioned') that was not consumed yet");
  }
  // ingot has no read-only tensors, so read-only memory is copied rather than shared.
  if (read_only && copy == false) {
    throw nb::buffer_error("from_dlpack: the producer's memory is read-only and copy=False forbids a copy");
  }
  return (read_only || copy == true) ? t.clone() : t;
}

}  // namespace

void bind_dlpack(nb::module_& m, nb::class_<Tensor>& cls) {
  cls.def("__dlpack__", &export_dlpack, nb::kw_only(), nb::arg("stream").none() = nb::none(),
          nb::arg("max_version").none() = nb::none(), nb::arg("dl_device").none() = nb::none(),
          nb::arg("copy").none() = nb::none())
      .def("__dlpack_device__", &dlpack_device);
  m.def("from_dlpack", &import_dlpack, nb::arg("x"), nb::kw_only(), nb::arg("copy").none() = nb::none(),
        "Wraps any DLPack producer (or capsule) as an ingot.Tensor without copying.");
}

}  // namespace ingot::python
