// `lib`: what host stubs call. Each call forwards to the kernel library of the iterator's device,
// so one stub (REGISTER_DISPATCH) serves every backend.
#pragma once

#include <string_view>

#include "backend/kernel_library.h"

namespace ingot::native {

struct KernelLibraryFront {
  void exec_unary_kernel(TensorIteratorBase& iter, std::string_view op) const {
    kernel_library(iter.device_type(), iter.name()).exec_unary_kernel(iter, op);
  }
  void exec_binary_kernel(TensorIteratorBase& iter, std::string_view op) const {
    kernel_library(iter.device_type(), iter.name()).exec_binary_kernel(iter, op);
  }
  void exec_binary_kernel(TensorIteratorBase& iter, std::string_view op, const Scalar& alpha) const {
    kernel_library(iter.device_type(), iter.name()).exec_binary_kernel(iter, op, alpha);
  }
  void exec_ternary_kernel(TensorIteratorBase& iter, std::string_view op) const {
    kernel_library(iter.device_type(), iter.name()).exec_ternary_kernel(iter, op);
  }
  // A scalar parameter (round's decimals, addcmul's value) reaches the functor as a last argument.
  void exec_unary_kernel(TensorIteratorBase& iter, std::string_view op, const Scalar& param) const {
    kernel_library(iter.device_type(), iter.name()).exec_unary_kernel(iter, op, param);
  }
  void exec_ternary_kernel(TensorIteratorBase& iter, std::string_view op, const Scalar& param) const {
    kernel_library(iter.device_type(), iter.name()).exec_ternary_kernel(iter, op, param);
  }
  // Index ops (kernels/index.h, src/native/index_iterator.h).
  void exec_index_kernel(TensorIteratorBase& iter, std::string_view op, const IndexParams& params) const {
    kernel_library(iter.device_type(), iter.name()).exec_index_kernel(iter, op, params, iter.name());
  }
  // Reductions: `param` reaches the functor as prm.p (var's correction, a norm's order).
  void exec_reduce_kernel(TensorIteratorBase& iter, std::string_view op, double param = 0.0) const {
    kernel_library(iter.device_type(), iter.name()).exec_reduce_kernel(iter, op, param);
  }
};

inline constexpr KernelLibraryFront lib{};

}  // namespace ingot::native
