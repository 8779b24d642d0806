#include "backend/cpu/loops.h"

#if defined(INGOT_HAS_OPENMP)
#include <omp.h>
#endif

namespace ingot {

int cpu_num_threads() {
#if defined(INGOT_HAS_OPENMP)
  return omp_get_max_threads();
#else
  return 1;
#endif
}

namespace detail {

void check_kernel_signature(const TensorIteratorBase& iter, int arity, ScalarType result,
                            const ScalarType* args) {
  INGOT_CHECK(iter.noutputs() == 1, ValueError, iter.name(),
              ": cpu_kernel needs exactly one output, the iterator has ", iter.noutputs());
  INGOT_CHECK(iter.ninputs() == arity, ValueError, iter.name(), ": the kernel takes ", arity,
              " arguments but the iterator has ", iter.ninputs(), " inputs");
  INGOT_CHECK(iter.dtype(0) == result, TypeError, iter.name(), ": the kernel returns ", result,
              " but the output has dtype ", iter.dtype(0));
  for (int i = 0; i < arity; ++i) {
    INGOT_CHECK(iter.input_dtype(i) == args[i], TypeError, iter.name(), ": the kernel takes ",
                args[i], " for argument ", i, " but input ", i, " has dtype ", iter.input_dtype(i));
  }
}

}  // namespace detail

}  // namespace ingot
