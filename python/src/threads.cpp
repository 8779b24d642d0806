// ingot.set_num_threads / ingot.get_num_threads: the CPU backend's thread count.
#include "bindings.h"
#include "ingot/threads.h"

namespace ingot::python {

void bind_threads(nb::module_& m) {
  m.def("set_num_threads", &ingot::set_num_threads, nb::arg("n"),
        "Threads the CPU backend runs large ops on from now on (n >= 1). INGOT_NUM_THREADS sets the "
        "start-up value; the default is OpenMP's (OMP_NUM_THREADS, else one per core).");
  m.def("get_num_threads", &ingot::get_num_threads, "Threads the CPU backend runs large ops on.");
  m.def("_cpu_vector_math", &ingot::cpu_vector_math);
  m.def("_cpu_memory_policy", &ingot::cpu_memory_policy);
}

}  // namespace ingot::python
