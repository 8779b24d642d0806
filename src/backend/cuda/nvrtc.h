// NVRTC, CUDA's run-time compiler, loaded at run time (never linked) from the CUDA toolkit or the
// nvidia-cuda-nvrtc pip wheel, and compile(): CUDA C++ source -> CUBIN (or PTX) for one GPU arch.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ingot::cuda {

// A header the source may #include by `name`; the text must outlive the compile call.
struct HeaderSource {
  std::string_view name;
  std::string_view text;
};

struct CompileRequest {
  std::string source;
  std::string name = "ingot_module.cu";  // the file name NVRTC's log refers to
  std::vector<HeaderSource> headers;
  // When set, stands for the headers' text in the cache key (embedded_sources_digest() for the
  // embedded set), so that a lookup need not hash them again; it must change when any text does.
  std::string headers_digest;
  std::vector<std::string> options;  // besides --gpu-architecture, which compile() adds
  int arch_major = 9;                // the GPU's compute capability
  int arch_minor = 0;
  // C++ names (e.g. "ingot::fill<float>") whose mangled names the result should report, for
  // template kernels that have no extern "C" name.
  std::vector<std::string> name_expressions;
};

enum class BinaryKind : uint8_t { Cubin = 1, Ptx = 2 };

// What the compiler chose for a target arch: SASS for that arch, or PTX for an older virtual one.
struct CodeTarget {
  BinaryKind kind;
  int arch;  // e.g. 90: sm_90 for Cubin, compute_90 for Ptx
};

struct CompiledModule {
  BinaryKind kind = BinaryKind::Cubin;
  int arch = 0;
  std::string image;  // CUBIN bytes or PTX text; cuModuleLoadData(image.data()) takes either
  std::vector<std::pair<std::string, std::string>> lowered_names;  // name expression -> symbol
  std::string log;  // compiler warnings; not kept by the cache

  // The symbol for a name expression of the request; nullptr when it was not asked for.
  const std::string* lowered_name(std::string_view expression) const;
};

// True when NVRTC can be loaded. Never throws and prints nothing.
bool nvrtc_is_available();

// The path NVRTC was loaded from (throws CompileError naming every place tried when none).
const std::string& nvrtc_library_path();

// The version of the loaded NVRTC as major * 1000 + minor * 10 (13000 for 13.0), like CUDA_VERSION.
int nvrtc_version();

// The real architectures NVRTC can produce CUBIN for (e.g. 75, 80, ..., 120), ascending.
std::span<const int> nvrtc_supported_archs();

// CUBIN for `arch` when it is supported, else PTX for the newest supported arch below it (the
// driver JIT-compiles that PTX for the device). Throws CompileError when every arch is newer.
CodeTarget choose_code_target(int arch, std::span<const int> supported);

// Compiles the request. Throws CompileError with NVRTC's full log when the source does not
// compile, and CompileError naming the call and NVRTC's message when NVRTC itself fails.
CompiledModule compile(const CompileRequest& request);

// Where NVRTC is looked for, in order (dlopen names and paths): $INGOT_NVRTC_PATH; the sonames
// libnvrtc.so.13, .so.12, .so (the loader's search path); $CUDA_HOME/lib64 and
// /usr/local/cuda/lib64; then each directory of $INGOT_NVRTC_SEARCH_PATH (':'-separated), as a
// library directory or as a site-packages directory holding the nvidia-cuda-nvrtc wheel
// (nvidia/cu13/lib, nvidia/cuda_nvrtc/lib).
std::vector<std::string> nvrtc_library_candidates();

}  // namespace ingot::cuda
