// Runs a compile_shader kernel on the CPU: blocks in parallel over OpenMP threads, the threads of a
// block as fibers (fiber.h) that switch at barriers and warp exchanges, so that __syncthreads()
// really waits for the whole block. Kernels without barriers run their threads in a plain loop.
#pragma once

#include <cstdint>
#include <string>

#include "shader/cpu_abi.h"

namespace ingot::shader {

struct CpuLaunch {
  shader_abi::Entry entry = nullptr;
  void* const* args = nullptr;
  uint32_t grid[3] = {1, 1, 1};
  uint32_t block[3] = {1, 1, 1};
  int64_t dynamic_shared_bytes = 0;
  bool fibers = true;  // false only when the kernel cannot reach a barrier
  std::string kernel_name;  // for error messages
};

// The most threads a CPU group may have (fibers each have a stack of their own).
inline constexpr int kCpuMaxGroupThreads = 1024;

// Runs every block; throws AcceleratorError when a block deadlocks (threads waiting at different
// barriers) or a barrier is reached with fibers off.
void run_cpu_kernel(const CpuLaunch& launch);

}  // namespace ingot::shader
