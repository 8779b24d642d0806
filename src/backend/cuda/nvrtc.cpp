#include "backend/cuda/nvrtc.h"

#include <nvrtc.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "backend/cuda/dynamic_library.h"
#include "ingot/error.h"

namespace ingot::cuda {
namespace {

// clang-format off
#define INGOT_NVRTC_FUNCTIONS(_) \
  _(nvrtcGetErrorString) _(nvrtcVersion) _(nvrtcGetNumSupportedArchs) _(nvrtcGetSupportedArchs) \
  _(nvrtcCreateProgram) _(nvrtcDestroyProgram) _(nvrtcCompileProgram) _(nvrtcAddNameExpression) \
  _(nvrtcGetProgramLogSize) _(nvrtcGetProgramLog) _(nvrtcGetPTXSize) _(nvrtcGetPTX) \
  _(nvrtcGetCUBINSize) _(nvrtcGetCUBIN) _(nvrtcGetLoweredName)
// clang-format on

struct NvrtcApi {
#define INGOT_NVRTC_MEMBER(name) decltype(&::name) name = nullptr;
  INGOT_NVRTC_FUNCTIONS(INGOT_NVRTC_MEMBER)
#undef INGOT_NVRTC_MEMBER
};

struct LoadedNvrtc {
  DynamicLibrary lib;
  NvrtcApi api;
  int version = 0;
  std::vector<int> archs;
  std::string why_missing;
};

// Resolves every entry point; false (and the missing name in `why`) when one is absent.
bool resolve_all(const DynamicLibrary& lib, NvrtcApi& api, std::string& why) {
#define INGOT_NVRTC_RESOLVE(name)                                     \
  api.name = reinterpret_cast<decltype(api.name)>(lib.symbol(#name)); \
  if (api.name == nullptr) {                                          \
    why += "\n  " + lib.path() + ": exports no " #name;               \
    return false;                                                     \
  }
  INGOT_NVRTC_FUNCTIONS(INGOT_NVRTC_RESOLVE)
#undef INGOT_NVRTC_RESOLVE
  return true;
}

const LoadedNvrtc& loaded_nvrtc() {
  // Leaked on purpose, like the driver: nothing may run after NVRTC is unloaded at exit.
  static const LoadedNvrtc* const loaded = [] {
    auto* n = new LoadedNvrtc;
    const std::vector<std::string> candidates = nvrtc_library_candidates();
    n->lib = DynamicLibrary::open_first(candidates, &n->why_missing);
    int major = 0;
    int minor = 0;
    int count = 0;
    if (!n->lib || !resolve_all(n->lib, n->api, n->why_missing) ||
        n->api.nvrtcVersion(&major, &minor) != NVRTC_SUCCESS ||
        n->api.nvrtcGetNumSupportedArchs(&count) != NVRTC_SUCCESS || count <= 0) {
      n->lib = DynamicLibrary();
      return n;
    }
    n->version = major * 1000 + minor * 10;
    n->archs.resize(static_cast<std::size_t>(count));
    if (n->api.nvrtcGetSupportedArchs(n->archs.data()) != NVRTC_SUCCESS) n->archs.clear();
    std::sort(n->archs.begin(), n->archs.end());
    return n;
  }();
  return *loaded;
}

const NvrtcApi& nvrtc() {
  const LoadedNvrtc& n = loaded_nvrtc();
  INGOT_CHECK(n.lib, CompileError,
              "NVRTC (the CUDA run-time compiler) not found; install the CUDA toolkit or the "
              "nvidia-cuda-nvrtc wheel, or set INGOT_NVRTC_PATH. Tried:",
              n.why_missing);
  return n.api;
}

void check_nvrtc(nvrtcResult result, const char* call) {
  if (result == NVRTC_SUCCESS) return;
  throw CompileError(detail::concat(call, " failed: ", nvrtc().nvrtcGetErrorString(result), " (",
                                    static_cast<int>(result), ")"));
}
#define INGOT_NVRTC_CHECK(expr) check_nvrtc((expr), #expr)

// Destroys the program on every path out of compile().
struct ProgramGuard {
  nvrtcProgram program = nullptr;
  ~ProgramGuard() {
    if (program != nullptr) nvrtc().nvrtcDestroyProgram(&program);
  }
};

std::string program_log(nvrtcProgram program) {
  std::size_t size = 0;
  if (nvrtc().nvrtcGetProgramLogSize(program, &size) != NVRTC_SUCCESS || size <= 1) return {};
  std::string log(size, '\0');
  if (nvrtc().nvrtcGetProgramLog(program, log.data()) != NVRTC_SUCCESS) return {};
  log.resize(size - 1);  // the size counts the terminating NUL
  return log;
}

std::string arch_name(CodeTarget t) {
  return detail::concat(t.kind == BinaryKind::Cubin ? "sm_" : "compute_", t.arch);
}

// The wheels' libnvrtc.so.<major>[.<minor>...] files in `dir`, newest name first.
void add_wheel_libraries(const std::filesystem::path& dir, std::vector<std::string>& out) {
  std::error_code ec;
  std::vector<std::string> found;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string file = entry.path().filename().string();
    if (file.rfind("libnvrtc.so", 0) == 0) found.push_back(entry.path().string());
  }
  std::sort(found.rbegin(), found.rend());
  out.insert(out.end(), found.begin(), found.end());
}

}  // namespace

const std::string* CompiledModule::lowered_name(std::string_view expression) const {
  for (const auto& [expr, symbol] : lowered_names) {
    if (expr == expression) return &symbol;
  }
  return nullptr;
}

std::vector<std::string> nvrtc_library_candidates() {
  std::vector<std::string> out;
  if (const char* path = std::getenv("INGOT_NVRTC_PATH"); path != nullptr && *path != '\0') {
    out.emplace_back(path);
  }
  const char* const sonames[] = {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"};
  out.insert(out.end(), std::begin(sonames), std::end(sonames));
  std::vector<std::string> toolkits;
  if (const char* home = std::getenv("CUDA_HOME"); home != nullptr && *home != '\0') {
    toolkits.push_back(std::string(home) + "/lib64");
  }
  toolkits.emplace_back("/usr/local/cuda/lib64");
  for (const std::string& dir : toolkits) {
    for (const char* soname : sonames) out.push_back(dir + "/" + soname);
  }
  for (const std::string& dir : split_search_path(std::getenv("INGOT_NVRTC_SEARCH_PATH"))) {
    const std::filesystem::path root(dir);
    add_wheel_libraries(root, out);
    add_wheel_libraries(root / "nvidia" / "cu13" / "lib", out);
    add_wheel_libraries(root / "nvidia" / "cuda_nvrtc" / "lib", out);
  }
  return out;
}

bool nvrtc_is_available() { return static_cast<bool>(loaded_nvrtc().lib); }

const std::string& nvrtc_library_path() {
  nvrtc();
  return loaded_nvrtc().lib.path();
}

int nvrtc_version() {
  nvrtc();
  return loaded_nvrtc().version;
}

std::span<const int> nvrtc_supported_archs() {
  nvrtc();
  return loaded_nvrtc().archs;
}

CodeTarget choose_code_target(int arch, std::span<const int> supported) {
  if (std::find(supported.begin(), supported.end(), arch) != supported.end()) {
    return {BinaryKind::Cubin, arch};
  }
  int best = 0;
  for (int a : supported) {
    if (a <= arch) best = std::max(best, a);
  }
  INGOT_CHECK(best > 0, CompileError, "NVRTC cannot compile for sm_", arch, ": the oldest arch it ",
              "supports is sm_", supported.empty() ? 0 : supported.front());
  return {BinaryKind::Ptx, best};
}

CompiledModule compile(const CompileRequest& request) {
  const NvrtcApi& api = nvrtc();
  const CodeTarget target =
      choose_code_target(request.arch_major * 10 + request.arch_minor, nvrtc_supported_archs());

  // NVRTC takes NUL-terminated strings; the header views need not be.
  std::vector<std::string> header_texts;
  std::vector<std::string> header_names;
  for (const HeaderSource& h : request.headers) {
    header_texts.emplace_back(h.text);
    header_names.emplace_back(h.name);
  }
  std::vector<const char*> texts;
  std::vector<const char*> names;
  for (std::size_t i = 0; i < header_texts.size(); ++i) {
    texts.push_back(header_texts[i].c_str());
    names.push_back(header_names[i].c_str());
  }
  ProgramGuard guard;
  INGOT_NVRTC_CHECK(api.nvrtcCreateProgram(&guard.program, request.source.c_str(),
                                           request.name.c_str(), static_cast<int>(texts.size()),
                                           texts.data(), names.data()));
  for (const std::string& expr : request.name_expressions) {
    INGOT_NVRTC_CHECK(api.nvrtcAddNameExpression(guard.program, expr.c_str()));
  }

  const std::string arch_option = "--gpu-architecture=" + arch_name(target);
  std::vector<const char*> options = {arch_option.c_str()};
  for (const std::string& opt : request.options) options.push_back(opt.c_str());
  const nvrtcResult result =
      api.nvrtcCompileProgram(guard.program, static_cast<int>(options.size()), options.data());
  CompiledModule out;
  out.log = program_log(guard.program);
  INGOT_CHECK(result == NVRTC_SUCCESS, CompileError, "NVRTC failed to compile ", request.name,
              " for ", arch_name(target), " (", api.nvrtcGetErrorString(result), "):\n", out.log);

  out.kind = target.kind;
  out.arch = target.arch;
  std::size_t size = 0;
  if (target.kind == BinaryKind::Cubin) {
    INGOT_NVRTC_CHECK(api.nvrtcGetCUBINSize(guard.program, &size));
    out.image.resize(size);
    INGOT_NVRTC_CHECK(api.nvrtcGetCUBIN(guard.program, out.image.data()));
  } else {
    INGOT_NVRTC_CHECK(api.nvrtcGetPTXSize(guard.program, &size));
    out.image.resize(size);
    INGOT_NVRTC_CHECK(api.nvrtcGetPTX(guard.program, out.image.data()));
    if (!out.image.empty() && out.image.back() == '\0') out.image.pop_back();  // data() adds it
  }
  for (const std::string& expr : request.name_expressions) {
    const char* lowered = nullptr;
    INGOT_NVRTC_CHECK(api.nvrtcGetLoweredName(guard.program, expr.c_str(), &lowered));
    out.lowered_names.emplace_back(expr, lowered);
  }
  return out;
}

}  // namespace ingot::cuda
