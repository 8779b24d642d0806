// compile_shader on the CPU: the user's CUDA-dialect source, after cpu_dialect.h, becomes a shared
// object with one exported entry per kernel (cpu_compiler.h); launches run on cpu_runtime.h.
#include <limits>
#include <regex>

#include "shader/cpu_compiler.h"
#include "shader/cpu_runtime.h"
#include "shader/shader_state.h"

namespace ingot::shader {
namespace {

// `extern __shared__ T name[];` (dynamic shared memory) becomes a pointer to the block's buffer,
// on the same line so that compiler messages keep the user's line numbers.
std::string rewrite_dynamic_shared(const std::string& source) {
  static const std::regex decl(R"(extern\s+__shared__\s+([^;\[\]{}()]*?[\w>])\s*(\w+)\s*\[\s*\]\s*;)");
  return std::regex_replace(source, decl,
                            "$1* const $2 = static_cast<$1*>(::ingot_cpu_dialect::self->dynamic_shared);");
}

// Threads need fibers when they can reach a barrier; a source that includes nothing and names no
// barrier or warp exchange cannot, and runs its threads in a plain loop.
bool needs_fibers(const std::string& source) {
  for (const char* word : {"#include", "__syncthreads", "__syncwarp", "_sync", "__shfl", "__ballot"}) {
    if (source.find(word) != std::string::npos) return true;
  }
  return false;
}

std::string line_directive(int line, const std::string& file) {
  std::string quoted;
  for (char c : file) quoted += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
  return "#line " + std::to_string(line) + " \"" + quoted + "\"\n";
}

// The translation unit: prelude, the user's source with its own line numbers, then `entries`.
std::string translation_unit(const LibraryState& s, const std::string& entries) {
  return "#include \"shader/cpu_dialect.h\"\n" + line_directive(1, s.options.name) +
         rewrite_dynamic_shared(s.source) + "\n" + line_directive(1, "<ingot shader entries>") +
         entries;
}

std::string entry_line(const std::string& symbol, size_t nparams, const std::string& expression) {
  return "INGOT_SHADER_ENTRY(" + symbol + ", " + std::to_string(nparams) + ", " + expression + ")\n";
}

struct CpuLibraryModule {
  std::shared_ptr<const CpuModule> module;
};

class CpuKernel final : public CompiledKernel {
 public:
  CpuKernel(std::shared_ptr<const CpuModule> module, shader_abi::Entry entry, std::string name,
            bool fibers, int error_buffer_param)
      : module_(std::move(module)),
        entry_(entry),
        name_(std::move(name)),
        fibers_(fibers),
        error_buffer_param_(error_buffer_param) {}

  KernelLimits limits() const override { return {kCpuMaxGroupThreads, 0, 0}; }

  void check_geometry(const Geometry& g) const override {
    // CUDA's limits, so that a launch that runs here also runs on a GPU.
    static const uint32_t max_block[3] = {1024, 1024, 64};
    static const uint32_t max_grid[3] = {2147483647u, 65535u, 65535u};
    for (int d = 0; d < 3; ++d) {
      INGOT_CHECK(g.block[d] <= max_block[d], ValueError, "kernel ", name_, ": group_size[", d,
                  "] = ", g.block[d], " is above the limit of ", max_block[d]);
      INGOT_CHECK(g.grid[d] <= max_grid[d], ValueError, "kernel ", name_, ": ", g.grid[d],
                  " groups along dim ", d, " are above the limit of ", max_grid[d]);
    }
    INGOT_CHECK(g.shared_bytes <= (int64_t{1} << 30), ValueError, "kernel ", name_, ": ",
                g.shared_bytes, " bytes of dynamic shared memory per group is too much");
    INGOT_CHECK(g.stream == nullptr, ValueError, "kernel ", name_,
                ": a CPU launch takes no stream");
  }

  void launch(void* const* args, const Geometry& g) const override {
    CpuLaunch l;
    l.entry = entry_;
    l.args = args;
    for (int d = 0; d < 3; ++d) {
      l.grid[d] = g.grid[d];
      l.block[d] = g.block[d];
    }
    l.dynamic_shared_bytes = g.shared_bytes;
    l.fibers = fibers_;
    l.kernel_name = name_;
    run_cpu_kernel(l);
    if (error_buffer_param_ >= 0) {
      check_error_buffer_after_cpu_launch(*static_cast<void* const*>(args[error_buffer_param_]));
    }
  }

 private:
  std::shared_ptr<const CpuModule> module_;  // keeps the entry's object loaded
  shader_abi::Entry entry_;
  std::string name_;
  bool fibers_;
  int error_buffer_param_;
};

int error_buffer_param(const ParsedKernel& kernel, const KernelRequest& request) {
  for (size_t i = 0; i < kernel.params.size(); ++i) {
    if (classify_param(kernel.params[i], kernel.template_params, request.template_args).kind ==
        ParamKind::ErrorBuffer) {
      return static_cast<int>(i);
    }
  }
  return -1;
}

}  // namespace

void compile_cpu_library(LibraryState& s) {
  std::string entries;
  for (const ParsedKernel& k : s.kernels) {
    if (k.template_params.empty()) entries += entry_line("ingot_entry_" + k.name, k.params.size(), k.name);
  }
  auto lib = std::make_shared<CpuLibraryModule>();
  lib->module = build_cpu_module(translation_unit(s, entries), s.options.compiler_options, s.options.name);
  s.module = lib;
}

std::unique_ptr<CompiledKernel> cpu_kernel(LibraryState& s, const ParsedKernel& kernel,
                                           const KernelRequest& request) {
  std::shared_ptr<const CpuModule> module;
  std::string symbol = "ingot_entry_" + kernel.name;
  if (request.template_args.empty()) {
    module = static_cast<const CpuLibraryModule*>(s.module.get())->module;
  } else {
    // Explicit instantiation: taking the address of name<args> in an entry instantiates it.
    symbol = "ingot_entry_instance";
    module = build_cpu_module(
        translation_unit(s, entry_line(symbol, kernel.params.size(), expression_of(request))),
        s.options.compiler_options, s.options.name);
  }
  return std::make_unique<CpuKernel>(module, module->entry(symbol), expression_of(request),
                                     needs_fibers(s.source), error_buffer_param(kernel, request));
}

}  // namespace ingot::shader
