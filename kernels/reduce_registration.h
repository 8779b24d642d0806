// Registration macros for reductions: one line per op and dtype family instantiates ReduceKernel
// (kernels/reduce.h) for each input dtype.
//
// Backends choose what an instantiation becomes by defining, before including an ops header,
//   INGOT_REDUCE_KERNEL(op, in_tok, KernelType)
// (CPU: register the driver for it; CUDA: emit extern "C" __global__ kernels). Left undefined, the
// macros only instantiate types.
#pragma once

#include "kernels/reduce.h"
#include "kernels/registration.h"

#ifndef INGOT_REDUCE_KERNEL
#define INGOT_REDUCE_KERNEL(op, in_tok, Kernel)
#endif

// The functor is `<op>_reduction`; the kernel name is <op>_reduce_<out>_<in>, where <out> is the
// first output's dtype, taken from the functor's out_t (so the declared dtype cannot disagree).
#define INGOT_REDUCE_(op, T, tok, optok_unused)                                 \
  using op##_reduce_##tok##_kernel = ::ingot::ReduceKernel<op##_reduction, T>; \
  INGOT_REDUCE_KERNEL(op, tok, op##_reduce_##tok##_kernel);

#define REGISTER_REDUCE_OP(op) INGOT_ALL_DTYPES(INGOT_REDUCE_, op)
#define REGISTER_FLOAT_REDUCE_OP(op) INGOT_FLOAT_DTYPES(INGOT_REDUCE_, op)
