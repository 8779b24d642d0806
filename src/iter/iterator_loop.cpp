// Host-side traversal of a TensorIterator: rows along dim 0, parallel chunks with OpenMP.
#include <exception>

#include "iter/tensor_iterator.h"

#if defined(INGOT_HAS_OPENMP)
#include <omp.h>
#endif

namespace ingot {

void TensorIteratorBase::serial_for_each(const loop1d_t& loop, int64_t begin, int64_t end) const {
  if (begin >= end) return;
  const int nt = ntensors();
  std::vector<char*> ptrs(nt);
  std::vector<int64_t> inner(nt, 0);
  if (ndim() == 0) {
    for (int k = 0; k < nt; ++k) ptrs[k] = operands_[k].data;
    loop(ptrs.data(), inner.data(), 1);
    return;
  }
  for (int k = 0; k < nt; ++k) inner[k] = operands_[k].stride_bytes[0];
  std::vector<int64_t> index(ndim());
  int64_t rest = begin;
  for (int d = 0; d < ndim(); ++d) {
    index[d] = rest % shape_[d];
    rest /= shape_[d];
  }
  for (int64_t linear = begin; linear < end;) {
    for (int k = 0; k < nt; ++k) {
      char* p = operands_[k].data;
      for (int d = 0; d < ndim(); ++d) p += index[d] * operands_[k].stride_bytes[d];
      ptrs[k] = p;
    }
    const int64_t n = std::min(shape_[0] - index[0], end - linear);
    loop(ptrs.data(), inner.data(), n);
    linear += n;
    index[0] += n;
    for (int d = 0; d + 1 < ndim() && index[d] == shape_[d]; ++d) {
      index[d] = 0;
      ++index[d + 1];
    }
  }
}

void TensorIteratorBase::for_each(const loop1d_t& loop, int64_t grain_size) const {
  const int64_t n = numel();
  if (n == 0) return;
#if defined(INGOT_HAS_OPENMP)
  if (n > grain_size && !omp_in_parallel() && omp_get_max_threads() > 1) {
    const int64_t max_tasks = (n + grain_size - 1) / std::max<int64_t>(grain_size, 1);
    const int threads = static_cast<int>(std::min<int64_t>(omp_get_max_threads(), max_tasks));
    std::exception_ptr error;
#pragma omp parallel num_threads(threads)
    {
      // The runtime may grant fewer threads than asked, so chunk by the team actually running.
      const int64_t team = omp_get_num_threads();
      const int64_t chunk = (n + team - 1) / team;
      const int64_t begin = omp_get_thread_num() * chunk;
      try {
        serial_for_each(loop, begin, std::min(n, begin + chunk));
      } catch (...) {
#pragma omp critical(ingot_for_each_error)
        if (!error) error = std::current_exception();
      }
    }
    if (error) std::rethrow_exception(error);
    return;
  }
#endif
  serial_for_each(loop, 0, n);
}

}  // namespace ingot
