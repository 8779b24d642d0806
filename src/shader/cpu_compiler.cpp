#include "shader/cpu_compiler.h"

#include <dlfcn.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <unordered_map>

#include "backend/cuda/compile_cache.h"
#include "backend/cuda/embedded_sources.h"
#include "backend/cuda/sha256.h"
#include "ingot/error.h"

#ifndef INGOT_VERSION
#error "INGOT_VERSION (the project version) must be defined by the build"
#endif
#ifndef INGOT_SHADER_DEFAULT_CXX
#error "INGOT_SHADER_DEFAULT_CXX (the host compiler found at build time) must be defined"
#endif

namespace ingot::shader {
namespace {

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs `command` through the shell; its exit status, with stdout and stderr in `output`.
int run_command(const std::string& command, std::string& output) {
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  INGOT_CHECK(pipe != nullptr, CompileError, "compile_shader: cannot run ", command);
  char buf[4096];
  size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) output.append(buf, n);
  const int status = ::pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

struct TempDir {
  std::filesystem::path path;
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "ingot-shader-XXXXXX").string();
    INGOT_CHECK(::mkdtemp(pattern.data()) != nullptr, CompileError,
                "compile_shader: cannot create a temporary directory like ", pattern);
    path = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

void write_file(const std::filesystem::path& path, std::string_view text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  INGOT_CHECK(out.good(), CompileError, "compile_shader: cannot write ", path.string());
}

cuda::CompiledModule compile_unit(const std::string& unit, const std::vector<std::string>& options,
                                  const std::string& display_name) {
  TempDir dir;
  // The headers the CUDA backend gives NVRTC, so that sources #include the same names on both.
  for (const cuda::EmbeddedSource& h : cuda::embedded_kernel_sources()) {
    write_file(dir.path / "include" / std::string(h.name), h.text);
  }
  write_file(dir.path / "shader.cpp", unit);
  std::string command = shell_quote(host_compiler()) +
                        " -std=c++20 -O2 -fPIC -shared -fvisibility=hidden -pthread -I" +
                        shell_quote((dir.path / "include").string());
  for (const std::string& option : options) command += " " + shell_quote(option);
  command += " -o " + shell_quote((dir.path / "shader.so").string()) + " " +
             shell_quote((dir.path / "shader.cpp").string());
  std::string log;
  const int rc = run_command(command, log);
  INGOT_CHECK(rc == 0, CompileError, "compile_shader: the host compiler failed to compile ",
              display_name, " (", host_compiler(), ", exit status ", rc, "):\n", log);
  std::ifstream in(dir.path / "shader.so", std::ios::binary);
  cuda::CompiledModule module;
  module.kind = cuda::BinaryKind::Cubin;  // the cache's file format needs a kind; unused here
  module.image.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  INGOT_CHECK(!module.image.empty(), CompileError, "compile_shader: the host compiler wrote no object for ",
              display_name);
  return module;
}

// dlopen()s a shared object held in memory through a file of its own, unlinked once loaded. Each
// load needs a new path: dlopen returns the already loaded object for a path it has seen.
void* load_from_memory(const std::string& image) {
  std::string path = (std::filesystem::temp_directory_path() / "ingot-shader-XXXXXX.so").string();
  const int fd = ::mkstemps(path.data(), 3);
  INGOT_CHECK(fd >= 0, CompileError, "compile_shader: cannot create ", path);
  size_t done = 0;
  while (done < image.size()) {
    const ssize_t n = ::write(fd, image.data() + done, image.size() - done);
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  ::close(fd);
  void* handle = done == image.size() ? ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL) : nullptr;
  const char* why = handle == nullptr ? ::dlerror() : nullptr;
  ::unlink(path.c_str());
  INGOT_CHECK(handle != nullptr, CompileError, "compile_shader: cannot load the compiled shader from ",
              path, ": ", why != nullptr ? why : "short write");
  return handle;
}

}  // namespace

shader_abi::Entry CpuModule::entry(const std::string& symbol) const {
  void* p = ::dlsym(handle_, symbol.c_str());
  INGOT_CHECK(p != nullptr, CompileError, "compile_shader: the compiled shader exports no ", symbol);
  return reinterpret_cast<shader_abi::Entry>(p);
}

const std::string& host_compiler() {
  static const std::string cxx = [] {
    const char* env = std::getenv("INGOT_SHADER_CXX");
    return std::string(env != nullptr && *env != '\0' ? env : INGOT_SHADER_DEFAULT_CXX);
  }();
  return cxx;
}

const std::string& host_compiler_identity() {
  static const std::string id = [] {
    std::string out;
    const int rc = run_command(shell_quote(host_compiler()) + " --version", out);
    INGOT_CHECK(rc == 0, CompileError, "compile_shader: the host compiler ", host_compiler(),
                " does not run (set INGOT_SHADER_CXX to a C++20 compiler): ", out);
    return host_compiler() + "\n" + out.substr(0, out.find('\n'));
  }();
  return id;
}

std::shared_ptr<const CpuModule> build_cpu_module(const std::string& unit,
                                                  const std::vector<std::string>& options,
                                                  const std::string& display_name) {
  cuda::Sha256 h;
  h.update_field("ingot cpu shader v1").update_field(INGOT_VERSION);
  h.update_field(std::to_string(shader_abi::kAbiVersion)).update_field(host_compiler_identity());
  h.update_field(cuda::embedded_kernel_sources_digest()).update_field(unit);
  h.update_field(std::to_string(options.size()));
  for (const std::string& o : options) h.update_field(o);
  const std::string key = "cpu-" + cuda::Sha256::hex(h.finish());

  // One loaded object per key and process: a second compile of a source reuses it.
  static std::mutex mutex;
  static std::unordered_map<std::string, std::shared_ptr<const CpuModule>> loaded;
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = loaded.find(key); it != loaded.end()) return it->second;
  const auto compiled = cuda::kernel_cache().get_or_compile(
      key, [&] { return compile_unit(unit, options, display_name); });
  auto module = std::make_shared<const CpuModule>(load_from_memory(compiled->image));
  loaded.emplace(key, module);
  return module;
}

}  // namespace ingot::shader
