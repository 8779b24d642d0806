// INGOT_CPU_MULTIARCH on a CPU loop function: GCC compiles it for AVX-512 (x86-64-v4), AVX2
// (x86-64-v3) and the build's baseline, and the loader picks one for the running CPU (an ifunc).
// Mark coarse functions (a whole row, a block of rows): a call goes through the ifunc, while
// calls inside the function (itself, always_inline helpers, the functors) stay in its clone.
// The result does not depend on the pick: the loops fix their association in source, and the
// library is built with -ffp-contract=off (no fused multiply-add in one clone but not another).
// INGOT_CPU_MULTIARCH_AVX2 clones for AVX2 (x86-64-v3) and the baseline only: the elementwise
// loops, which are many (one per kernel) and memory-bound once vectorized at AVX2 width.
// Everything a clone should run must be inlined into it (INGOT_CPU_ALWAYS_INLINE on helpers and
// on lambdas): an out-of-line callee is compiled once, for the baseline.
// Elsewhere (clang, sanitizer builds, other architectures) the macros are empty.
#pragma once

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
#define INGOT_CPU_MULTIARCH __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#define INGOT_CPU_MULTIARCH_AVX2 __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define INGOT_CPU_MULTIARCH
#define INGOT_CPU_MULTIARCH_AVX2
#endif

#define INGOT_CPU_ALWAYS_INLINE inline __attribute__((always_inline))
// After a lambda's parameter list: its body is inlined into the caller (and so into the caller's
// clones).
#define INGOT_CPU_INLINE_LAMBDA __attribute__((always_inline))
