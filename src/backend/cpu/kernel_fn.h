// What a CPU kernel is, apart from the library that launches it: the generated registration units
// include only this (not the iterator or tensor headers), so host-path changes leave them built.
#pragma once

#include <array>
#include <cstdint>

#include "backend/kernel_registry.h"
#include "kernels/elementwise.h"
#include "kernels/index.h"
#include "kernels/reduce.h"

namespace ingot {
struct DimArgs;
}  // namespace ingot

namespace ingot::cpu {

// Below this many elements a launch runs on the calling thread; above it, in OpenMP chunks.
inline constexpr int64_t kCpuGrainSize = 32768;
// Threads a parallel launch may use: INGOT_NUM_THREADS / set_num_threads, else OpenMP's default
// (1 without OpenMP). Every CPU driver (elementwise, index, dim, reduction) sizes its team by it.
int cpu_num_threads();

// Runs elements [begin, end) of a kernel's iteration.
using KernelFn = void (*)(const ElementwiseArgs& args, int64_t begin, int64_t end);
using FlavorFns = std::array<KernelFn, kNumFlavors>;
// Runs elements [begin, end) of an index kernel's iteration, reporting bad indices into `errors`.
using IndexKernelFn = void (*)(const ElementwiseArgs& args, int64_t begin, int64_t end,
                               const IndexParams& params, ErrorBuffer* errors);
// Runs units [begin, end) (dim_loops.h) of a dim kernel's launch.
using DimFn = void (*)(const DimArgs& args, int64_t begin, int64_t end);
// Runs a whole reduction (the driver of src/backend/cpu/reduce_loops.h, threads included).
using ReduceFn = void (*)(const ReduceArgs& args);

// Attach a kernel to the CPU kernel library by the id of its signature in the shared registry of
// its kind (kernel_registry, index_kernel_registry, dim_kernel_registry, reduce_registry).
void attach_kernels(int id, const FlavorFns& fns);
void attach_index_kernel(int id, IndexKernelFn fn);
void attach_dim_kernel(int id, DimFn fn);
void attach_reduce_kernel(int id, ReduceFn fn);

}  // namespace ingot::cpu
