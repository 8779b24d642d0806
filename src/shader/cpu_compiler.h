// Builds a compile_shader source for the CPU: the host C++ compiler (the one ingot was built with,
// or $INGOT_SHADER_CXX) turns the generated translation unit into a shared object, which is cached
// like a CUDA module (backend/cuda/compile_cache.h) and dlopen'ed from memory.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "shader/cpu_abi.h"

namespace ingot::shader {

class CpuModule {
 public:
  explicit CpuModule(void* handle) : handle_(handle) {}
  // The exported entry `symbol`; CompileError when the object lacks it.
  shader_abi::Entry entry(const std::string& symbol) const;

 private:
  void* handle_;  // never closed: launched kernels may still be referenced
};

// The host compiler's path and its --version line (part of the cache key).
const std::string& host_compiler();
const std::string& host_compiler_identity();

// Compiles `unit` (the full translation unit, prelude included) with `options` appended to the
// compiler's command line. CompileError carries the compiler's output.
std::shared_ptr<const CpuModule> build_cpu_module(const std::string& unit,
                                                  const std::vector<std::string>& options,
                                                  const std::string& display_name);

}  // namespace ingot::shader
