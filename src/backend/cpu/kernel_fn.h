// What a CPU kernel is, apart from the library that launches it: the generated registration units
// include only this (not the iterator or tensor headers), so host-path changes leave them built.
#pragma once

#include <array>
#include <cstdint>

#include "backend/kernel_registry.h"
#include "kernels/elementwise.h"

namespace ingot::cpu {

// Runs elements [begin, end) of a kernel's iteration.
using KernelFn = void (*)(const ElementwiseArgs& args, int64_t begin, int64_t end);
using FlavorFns = std::array<KernelFn, kNumFlavors>;

// Attaches the flavors of registered signature `id` to the CPU kernel library.
void attach_kernels(int id, const FlavorFns& fns);

}  // namespace ingot::cpu
