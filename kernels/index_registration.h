// Registration macros for index kernels (kernels/index.h): one line per op instantiates the
// IndexKernel for every element size (moves) or dtype (accumulations), with int32 and int64
// indices. Kernel names: <op>_index_<b1|b2|b4|b8|b16|dtype>_<int32|int64> (b16: rows of smaller
// elements moved 16 bytes at a time).
#pragma once

#include "kernels/index.h"
#include "kernels/registration.h"

// Backends choose what an instantiation becomes by defining, before including an ops header,
//   INGOT_INDEX_KERNEL(op, data_tok, index_tok, KernelType)
// (CPU: register a loop; the CUDA module source names the alias). Undefined: types only.
#ifndef INGOT_INDEX_KERNEL
#define INGOT_INDEX_KERNEL(op, data_tok, index_tok, Kernel)
#endif

#define INGOT_INDEX_INSTANCE_(op, T, data_tok, I, index_tok, typed) \
  using op##_index_##data_tok##_##index_tok##_kernel =              \
      ::ingot::IndexKernel<op##_functor, T, I, typed>;              \
  INGOT_INDEX_KERNEL(op, data_tok, index_tok, op##_index_##data_tok##_##index_tok##_kernel);
#define INGOT_INDEX_BOTH_INDICES_(op, T, data_tok, typed)       \
  INGOT_INDEX_INSTANCE_(op, T, data_tok, int32_t, int32, typed) \
  INGOT_INDEX_INSTANCE_(op, T, data_tok, int64_t, int64, typed)
#define INGOT_INDEX_DTYPE_(op, T, tok, optok) INGOT_INDEX_BOTH_INDICES_(op, T, tok, true)

// Functors that only move elements: one instantiation per element size.
#define REGISTER_INDEX_MOVE_OP(op)                   \
  INGOT_INDEX_BOTH_INDICES_(op, uint8_t, b1, false)  \
  INGOT_INDEX_BOTH_INDICES_(op, uint16_t, b2, false) \
  INGOT_INDEX_BOTH_INDICES_(op, uint32_t, b4, false) \
  INGOT_INDEX_BOTH_INDICES_(op, uint64_t, b8, false) \
  INGOT_INDEX_BOTH_INDICES_(op, ::ingot::Bytes16, b16, false)
// Functors that compute with the element: one instantiation per dtype.
#define REGISTER_INDEX_ACCUMULATE_OP(op) INGOT_ALL_DTYPES(INGOT_INDEX_DTYPE_, op)
