// ingot._C._cuda: the CUDA runtime for Python (ingot.cuda wraps it), and Tensor.to(device).
#include "ingot/cuda.h"

#include <nanobind/stl/string.h>

#include <string>

#include "bindings.h"
#include "casters.h"

namespace ingot::python {

void bind_cuda(nb::module_& m, nb::class_<Tensor>& tensor) {
  nb::module_ c = m.def_submodule("_cuda", "CUDA runtime entry points (see ingot/cuda.py).");
  c.def("is_available", &cuda::is_available);
  c.def("device_count", &cuda::device_count);
  // Kernels may run for long: other Python threads go on meanwhile.
  c.def("synchronize", &cuda::synchronize, nb::arg("device") = 0,
        nb::call_guard<nb::gil_scoped_release>());
  c.def(
      "memory_stats",
      [](int device) {
        const cuda::MemoryStats s = cuda::memory_stats(device);
        nb::dict d;
        d["allocated_bytes"] = s.allocated_bytes;
        d["peak_allocated_bytes"] = s.peak_allocated_bytes;
        d["allocations"] = s.allocations;
        d["total_allocations"] = s.total_allocations;
        d["reserved_bytes"] = s.reserved_bytes;
        return d;
      },
      nb::arg("device") = 0);
  c.def("reset_peak_memory_stats", &cuda::reset_peak_memory_stats, nb::arg("device") = 0);
  c.def("empty_cache", &cuda::empty_cache, nb::arg("device") = 0);
  c.def(
      "device_properties",
      [](int device) {
        const cuda::DeviceProperties& p = cuda::device_properties(device);
        nb::dict d;
        d["name"] = p.name;
        d["major"] = p.major;
        d["minor"] = p.minor;
        d["multi_processor_count"] = p.multiprocessor_count;
        d["total_memory"] = p.total_memory;
        d["max_threads_per_block"] = p.max_threads_per_block;
        d["warp_size"] = p.warp_size;
        d["max_shared_memory_per_block"] = p.max_shared_memory_per_block;
        d["l2_cache_size"] = p.l2_cache_size;
        return d;
      },
      nb::arg("device") = 0);

  c.def(
      "precompile",
      [](int major, int minor, int jobs, const std::string& op) {
        cuda::PrecompileReport r;
        {
          nb::gil_scoped_release released;  // minutes of NVRTC: other threads go on
          r = cuda::precompile(major, minor, jobs, op);
        }
        nb::dict d;
        d["modules"] = r.modules;
        d["from_cache"] = r.from_cache;
        d["seconds"] = r.seconds;
        nb::list failures;
        for (const std::string& f : r.failures) failures.append(f);
        d["failures"] = failures;
        return d;
      },
      nb::arg("major"), nb::arg("minor"), nb::arg("jobs"), nb::arg("op"));

  tensor.def(
      "to", [](const Tensor& t, Device device, bool copy) { return t.to(device, copy); },
      nb::arg("device"), nb::arg("copy") = false, nb::call_guard<nb::gil_scoped_release>());
}

}  // namespace ingot::python
