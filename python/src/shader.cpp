// compile_shader for Python: the library and kernel objects (wrapped by ingot/_shader.py, which
// adds attribute access and dir()), and the conversion of Python arguments to KernelArgs.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <vector>

#include "backend/cuda/compile_cache.h"
#include "bindings.h"

namespace ingot::python {
namespace {

KernelArg to_kernel_arg(const ShaderKernel& k, nb::handle h, size_t i) {
  if (nb::isinstance<Tensor>(h)) return KernelArg(nb::cast<const Tensor&>(h));
  if (PyBool_Check(h.ptr())) return KernelArg(h.ptr() == Py_True);
  if (PyLong_Check(h.ptr())) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
    INGOT_CHECK(overflow == 0, OverflowError, "kernel ", k.name(), ": argument ", i,
                " does not fit in 64 bits");
    return KernelArg(v);
  }
  if (PyFloat_Check(h.ptr())) return KernelArg(PyFloat_AsDouble(h.ptr()));
  if (PyList_Check(h.ptr()) || PyTuple_Check(h.ptr())) {
    std::vector<Tensor> tensors;
    for (nb::handle item : nb::borrow<nb::sequence>(h)) {
      INGOT_CHECK(nb::isinstance<Tensor>(item), TypeError, "kernel ", k.name(), ": argument ", i,
                  " is a list holding a ", nb::inst_name(item).c_str(), "; lists must hold tensors");
      tensors.push_back(nb::cast<const Tensor&>(item));
    }
    return KernelArg(std::move(tensors));
  }
  throw TypeError(detail::concat("kernel ", k.name(), ": argument ", i, " is a ",
                                 nb::inst_name(h).c_str(), "; kernels take tensors, lists of tensors, ints, floats and bools"));
}

void call_kernel(const ShaderKernel& k, const nb::args& args, const nb::kwargs& kwargs) {
  LaunchConfig config;
  bool have_threads = false;
  for (auto [key, value] : kwargs) {
    const std::string name = nb::cast<std::string>(key);
    if (name == "threads") {
      config.threads = int_list(value, "threads");
      have_threads = true;
    } else if (name == "group_size") {
      if (!value.is_none()) config.group_size = int_list(value, "group_size");
    } else if (name == "shared_mem") {
      config.shared_memory_bytes = nb::cast<int64_t>(value);
    } else if (name == "stream") {
      if (!value.is_none()) config.stream = reinterpret_cast<void*>(nb::cast<uintptr_t>(value));
    } else {
      throw TypeError(detail::concat("kernel ", k.name(), ": unexpected keyword argument '", name,
                                     "' (a launch takes threads=, group_size=, shared_mem=, stream=)"));
    }
  }
  INGOT_CHECK(have_threads, TypeError, "kernel ", k.name(),
              ": threads= (the total number of threads per dim) is required");
  std::vector<KernelArg> bound;
  for (size_t i = 0; i < args.size(); ++i) bound.push_back(to_kernel_arg(k, args[i], i));
  nb::gil_scoped_release release;
  k(bound, config);
}

}  // namespace

void bind_shader(nb::module_& m) {
  nb::class_<ShaderKernel>(m, "_ShaderKernel")
      .def_prop_ro("name", &ShaderKernel::name)
      .def_prop_ro("max_threads_per_group", [](const ShaderKernel& k) { return k.limits().max_threads_per_group; })
      .def_prop_ro("num_registers", [](const ShaderKernel& k) { return k.limits().registers; })
      .def_prop_ro("static_shared_bytes", [](const ShaderKernel& k) { return k.limits().static_shared_bytes; })
      .def_prop_ro("params",
                   [](const ShaderKernel& k) {
                     nb::list out;
                     for (const KernelParam& p : k.params()) out.append(nb::make_tuple(p.name, p.type));
                     return out;
                   })
      .def("__call__", &call_kernel);
  nb::class_<ShaderLibrary>(m, "_ShaderLibrary")
      .def_prop_ro("device", [](const ShaderLibrary& l) { return nb::steal(device_object(l.device())); })
      .def("kernel_names", &ShaderLibrary::kernel_names)
      .def("kernel", &ShaderLibrary::kernel);
  // The compile cache's counters (CUDA modules and CPU shader objects), for tests.
  m.def("_kernel_cache_stats", [] {
    const cuda::KernelCache::Stats s = cuda::kernel_cache().stats();
    nb::dict d;
    d["memory_hits"] = s.memory_hits;
    d["disk_hits"] = s.disk_hits;
    d["misses"] = s.misses;
    d["disk_writes"] = s.disk_writes;
    return d;
  });
  m.def(
      "_compile_shader",
      [](const std::string& source, nb::handle device, std::vector<std::string> options, std::string name) {
        ShaderOptions o;
        if (!device.is_none()) {
          std::optional<Device> d = device_of_object(device);
          o.device = d ? *d : Device(nb::cast<std::string>(device));
        }
        o.compiler_options = std::move(options);
        o.name = std::move(name);
        nb::gil_scoped_release release;  // the compilers take a while
        return compile_shader(source, o);
      },
      nb::arg("source"), nb::arg("device").none(), nb::arg("options"), nb::arg("name"));
}

}  // namespace ingot::python
