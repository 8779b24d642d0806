// ingot-precompile: compiles every registered CUDA kernel module into the kernel cache.
//   ingot-precompile [--arch sm_90] [--jobs N] [--op NAME]
// Exit status 1 when any module fails to compile (the compiler log is printed).
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "ingot/cuda.h"

namespace {

int usage() {
  std::fprintf(stderr, "usage: ingot-precompile [--arch sm_XY] [--jobs N] [--op NAME]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  int major = 9, minor = 0;
  int jobs = static_cast<int>(std::thread::hardware_concurrency());
  std::string op;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (i + 1 >= argc) return usage();
    const std::string value = argv[++i];
    if (arg == "--arch") {
      const std::string digits = value.rfind("sm_", 0) == 0 ? value.substr(3) : value;
      if (digits.size() < 2) return usage();
      major = std::atoi(digits.substr(0, digits.size() - 1).c_str());
      minor = digits.back() - '0';
    } else if (arg == "--jobs") {
      jobs = std::atoi(value.c_str());
    } else if (arg == "--op") {
      op = value;
    } else {
      return usage();
    }
  }
  try {
    const ingot::cuda::PrecompileReport r = ingot::cuda::precompile(major, minor, jobs, op);
    for (const std::string& f : r.failures) std::fprintf(stderr, "FAILED %s\n", f.c_str());
    std::printf("ingot-precompile: sm_%d%d: %d modules (%d already cached), %zu failed, %.1f s\n",
                major, minor, r.modules, r.from_cache, r.failures.size(), r.seconds);
    return r.failures.empty() ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ingot-precompile: %s\n", e.what());
    return 1;
  }
}
