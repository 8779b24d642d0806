// Registration macros: one line per op and dtype family instantiates the kernel templates of
// elementwise.h for each dtype (DESIGN.md §3). Naming: <op>_<flavor>_<out>_<in>[_<alpha>], where
// <in> is the dtype of the last input. The functor is `<op>_functor`; a static_assert checks
// that calling it with the declared input types returns the declared output dtype.
//
// Backends choose what an instantiation becomes by defining, before including an ops header,
//   INGOT_ELEMENTWISE_KERNEL(op, out_tok, in_tok, alpha_tok, KernelType)
// (CPU: register a function pointer per flavor; CUDA: emit extern "C" __global__ kernels).
// alpha_tok is `none` for ops without alpha. Left undefined, the macros only instantiate types.
#pragma once

#include "kernels/elementwise.h"

#ifndef INGOT_ELEMENTWISE_KERNEL
#define INGOT_ELEMENTWISE_KERNEL(op, out_tok, in_tok, alpha_tok, Kernel)
#endif

// Dtype families as (op, C++ type, dtype token, opmath dtype token).
#define INGOT_FLOAT_DTYPES(_, op)              \
  _(op, ::ingot::Half, float16, float32)       \
  _(op, ::ingot::BFloat16, bfloat16, float32)  \
  _(op, float, float32, float32)               \
  _(op, double, float64, float64)
#define INGOT_INTEGER_NO_BOOL_DTYPES(_, op) \
  _(op, uint8_t, uint8, uint8)              \
  _(op, int8_t, int8, int8)                 \
  _(op, int16_t, int16, int16)              \
  _(op, int32_t, int32, int32)              \
  _(op, int64_t, int64, int64)
#define INGOT_INTEGER_DTYPES(_, op) \
  _(op, bool, bool, bool)           \
  INGOT_INTEGER_NO_BOOL_DTYPES(_, op)
#define INGOT_ALL_DTYPES(_, op) \
  INGOT_INTEGER_DTYPES(_, op)   \
  INGOT_FLOAT_DTYPES(_, op)

#define INGOT_OPND(Stored, Compute) ::ingot::Operand<Stored, ::ingot::opmath_t<Compute>>
// Kernels hand the functor opmath_t of each operand (float for float16/bfloat16); check that call.
#define INGOT_DECL(T) ::ingot::declval<::ingot::opmath_t<T>>()

// One instantiation. Decl: the declared output type; check_args: the functor call, in parens,
// that must return Decl; the operands (Operand<...>) come last.
#define INGOT_DEFINE_KERNEL_(op, otok, itok, atok, Decl, Out, Alpha, check_args, ...)          \
  static_assert(::ingot::is_same_v<decltype(op##_functor() check_args), ::ingot::opmath_t<Decl>>, \
                #op ": the functor's return type is not the declared output dtype " #otok);     \
  using op##_##otok##_##itok##_##atok##_kernel =                                               \
      ::ingot::ElementwiseKernel<op##_functor, Out, Alpha, __VA_ARGS__>;                        \
  INGOT_ELEMENTWISE_KERNEL(op, otok, itok, atok, op##_##otok##_##itok##_##atok##_kernel);

// ---- unary: T -> T, or integer/bool -> float32
#define INGOT_UNARY_(op, T, tok, optok) \
  INGOT_DEFINE_KERNEL_(op, tok, tok, none, T, T, ::ingot::NoAlpha, (INGOT_DECL(T)), INGOT_OPND(T, T))
#define INGOT_INT2FLOAT_UNARY_(op, T, tok, optok)                                        \
  INGOT_DEFINE_KERNEL_(op, float32, tok, none, float, float, ::ingot::NoAlpha, (INGOT_DECL(float)), \
                       ::ingot::Operand<T, float>)
#define REGISTER_UNARY_OP(op) INGOT_ALL_DTYPES(INGOT_UNARY_, op)
#define REGISTER_FLOAT_UNARY_OP(op) INGOT_FLOAT_DTYPES(INGOT_UNARY_, op)
#define REGISTER_INTEGER_UNARY_OP(op) INGOT_INTEGER_DTYPES(INGOT_UNARY_, op)
#define REGISTER_INTEGER_UNARY_OP_NO_BOOL(op) INGOT_INTEGER_NO_BOOL_DTYPES(INGOT_UNARY_, op)
#define REGISTER_INT2FLOAT_UNARY_OP(op) INGOT_INTEGER_DTYPES(INGOT_INT2FLOAT_UNARY_, op)

// ---- binary: (T, T) -> T; (int, int) -> float32; (T, T) -> bool
#define INGOT_BINARY_(op, T, tok, optok)                                               \
  INGOT_DEFINE_KERNEL_(op, tok, tok, none, T, T, ::ingot::NoAlpha, (INGOT_DECL(T), INGOT_DECL(T)), \
                       INGOT_OPND(T, T), INGOT_OPND(T, T))
#define INGOT_INT2FLOAT_BINARY_(op, T, tok, optok)                                        \
  INGOT_DEFINE_KERNEL_(op, float32, tok, none, float, float, ::ingot::NoAlpha,             \
                       (INGOT_DECL(float), INGOT_DECL(float)), ::ingot::Operand<T, float>, \
                       ::ingot::Operand<T, float>)
#define INGOT_COMPARISON_(op, T, tok, optok)                                                \
  INGOT_DEFINE_KERNEL_(op, bool, tok, none, bool, bool, ::ingot::NoAlpha, (INGOT_DECL(T), INGOT_DECL(T)), \
                       INGOT_OPND(T, T), INGOT_OPND(T, T))
#define REGISTER_BINARY_OP(op) INGOT_ALL_DTYPES(INGOT_BINARY_, op)
#define REGISTER_FLOAT_BINARY_OP(op) INGOT_FLOAT_DTYPES(INGOT_BINARY_, op)
#define REGISTER_INTEGER_BINARY_OP(op) INGOT_INTEGER_DTYPES(INGOT_BINARY_, op)
#define REGISTER_INTEGER_BINARY_OP_NO_BOOL(op) INGOT_INTEGER_NO_BOOL_DTYPES(INGOT_BINARY_, op)
#define REGISTER_INT2FLOAT_BINARY_OP(op) INGOT_INTEGER_DTYPES(INGOT_INT2FLOAT_BINARY_, op)
#define REGISTER_COMPARISON_OP(op) INGOT_ALL_DTYPES(INGOT_COMPARISON_, op)

// ---- binary with alpha: f(a, b, alpha); alpha arrives in opmath_t<T> and is named by it
#define INGOT_BINARY_ALPHA_(op, T, tok, optok)                                                 \
  INGOT_DEFINE_KERNEL_(op, tok, tok, optok, T, T, ::ingot::opmath_t<T>,                         \
                       (INGOT_DECL(T), INGOT_DECL(T), INGOT_DECL(T)), INGOT_OPND(T, T), INGOT_OPND(T, T))
#define REGISTER_BINARY_ALPHA_OP(op) INGOT_ALL_DTYPES(INGOT_BINARY_ALPHA_, op)
#define REGISTER_FLOAT_BINARY_ALPHA_OP(op) INGOT_FLOAT_DTYPES(INGOT_BINARY_ALPHA_, op)
#define REGISTER_INTEGER_BINARY_ALPHA_OP_NO_BOOL(op) INGOT_INTEGER_NO_BOOL_DTYPES(INGOT_BINARY_ALPHA_, op)

// ---- ternary: (T, T, T) -> T; select: (bool, T, T) -> T
#define INGOT_TERNARY_(op, T, tok, optok)                                                  \
  INGOT_DEFINE_KERNEL_(op, tok, tok, none, T, T, ::ingot::NoAlpha,                          \
                       (INGOT_DECL(T), INGOT_DECL(T), INGOT_DECL(T)), INGOT_OPND(T, T), INGOT_OPND(T, T), \
                       INGOT_OPND(T, T))
#define INGOT_SELECT_(op, T, tok, optok)                                                       \
  INGOT_DEFINE_KERNEL_(op, tok, tok, none, T, T, ::ingot::NoAlpha,                              \
                       (INGOT_DECL(bool), INGOT_DECL(T), INGOT_DECL(T)), ::ingot::Operand<bool, bool>, \
                       INGOT_OPND(T, T), INGOT_OPND(T, T))
#define REGISTER_TERNARY_OP(op) INGOT_ALL_DTYPES(INGOT_TERNARY_, op)
#define REGISTER_FLOAT_TERNARY_OP(op) INGOT_FLOAT_DTYPES(INGOT_TERNARY_, op)
#define REGISTER_SELECT_OP(op) INGOT_ALL_DTYPES(INGOT_SELECT_, op)

// ======== Families added for the elementwise op set (kept apart from the macros above) ========

// ---- unary predicates: T -> bool on every dtype (isnan, signbit, logical_not)
#define INGOT_PREDICATE_(op, T, tok, optok) \
  INGOT_DEFINE_KERNEL_(op, bool, tok, none, bool, bool, ::ingot::NoAlpha, (INGOT_DECL(T)), INGOT_OPND(T, T))
#define REGISTER_PREDICATE_OP(op) INGOT_ALL_DTYPES(INGOT_PREDICATE_, op)

// ---- binary on the storage type, no opmath: float16/bfloat16 values reach the functor as
// Half/BFloat16 (nextafter must step by the storage dtype's spacing, not float32's)
#define INGOT_STORAGE_BINARY_(op, T, tok, optok)                                                 \
  INGOT_DEFINE_KERNEL_(op, tok, tok, none, T, T, ::ingot::NoAlpha, (INGOT_DECL(T), INGOT_DECL(T)), \
                       ::ingot::Operand<T, T>, ::ingot::Operand<T, T>)
#define REGISTER_STORAGE_FLOAT_BINARY_OP(op) INGOT_FLOAT_DTYPES(INGOT_STORAGE_BINARY_, op)

// ---- with a scalar parameter: f(inputs..., param), the parameter in opmath_t<T> (the kernel
// name ends in its dtype, like alpha). Stubs pass it to exec_{unary,ternary}_kernel.
#define INGOT_UNARY_PARAM_(op, T, tok, optok)                                                   \
  INGOT_DEFINE_KERNEL_(op, tok, tok, optok, T, T, ::ingot::opmath_t<T>, (INGOT_DECL(T), INGOT_DECL(T)), \
                       INGOT_OPND(T, T))
#define INGOT_INT2FLOAT_UNARY_PARAM_(op, T, tok, optok)                                                  \
  INGOT_DEFINE_KERNEL_(op, float32, tok, float32, float, float, float, (INGOT_DECL(float), INGOT_DECL(float)), \
                       ::ingot::Operand<T, float>)
#define INGOT_TERNARY_PARAM_(op, T, tok, optok)                                                           \
  INGOT_DEFINE_KERNEL_(op, tok, tok, optok, T, T, ::ingot::opmath_t<T>,                                     \
                       (INGOT_DECL(T), INGOT_DECL(T), INGOT_DECL(T), INGOT_DECL(T)), INGOT_OPND(T, T), \
                       INGOT_OPND(T, T), INGOT_OPND(T, T))
#define REGISTER_FLOAT_UNARY_PARAM_OP(op) INGOT_FLOAT_DTYPES(INGOT_UNARY_PARAM_, op)
#define REGISTER_INT2FLOAT_UNARY_PARAM_OP(op) INGOT_INTEGER_DTYPES(INGOT_INT2FLOAT_UNARY_PARAM_, op)
#define REGISTER_FLOAT_TERNARY_PARAM_OP(op) INGOT_FLOAT_DTYPES(INGOT_TERNARY_PARAM_, op)
#define REGISTER_INTEGER_TERNARY_PARAM_OP_NO_BOOL(op) INGOT_INTEGER_NO_BOOL_DTYPES(INGOT_TERNARY_PARAM_, op)
