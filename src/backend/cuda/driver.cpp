#include "backend/cuda/driver.h"

#include <atomic>
#include <string>
#include <utility>
#include <vector>

#include "backend/cuda/dynamic_library.h"
#include "ingot/error.h"

namespace ingot::cuda {
namespace {

// Stands in for an entry point the installed driver lacks (one per signature).
template <typename F>
struct MissingEntry;
template <typename... A>
struct MissingEntry<CUresult(CUDAAPI*)(A...)> {
  static CUresult CUDAAPI call(A...) { return CUDA_ERROR_NOT_FOUND; }
};

// The blocking calls, counted on their way to the driver (host_synchronizations()).
std::atomic<uint64_t> g_host_synchronizations{0};
decltype(&::cuStreamSynchronize) g_stream_synchronize = nullptr;
decltype(&::cuEventSynchronize) g_event_synchronize = nullptr;
decltype(&::cuCtxSynchronize) g_ctx_synchronize = nullptr;
CUresult CUDAAPI counted_stream_synchronize(CUstream s) {
  ++g_host_synchronizations;
  return g_stream_synchronize(s);
}
CUresult CUDAAPI counted_event_synchronize(CUevent e) {
  ++g_host_synchronizations;
  return g_event_synchronize(e);
}
CUresult CUDAAPI counted_ctx_synchronize() {
  ++g_host_synchronizations;
  return g_ctx_synchronize();
}

#define INGOT_CUDA_STR_(x) #x
#define INGOT_CUDA_XSTR_(x) INGOT_CUDA_STR_(x)

struct LoadedDriver {
  DynamicLibrary lib;
  DriverApi api;
  CUresult init_result = CUDA_ERROR_NOT_INITIALIZED;
  std::string why_missing;
};

template <typename F>
void resolve(const DynamicLibrary& lib, F& entry, const char* versioned, const char* plain) {
  void* sym = lib.symbol(versioned);
  if (sym == nullptr) sym = lib.symbol(plain);
  entry = sym != nullptr ? reinterpret_cast<F>(sym) : &MissingEntry<F>::call;
}

const LoadedDriver& loaded_driver() {
  // Leaked on purpose: other static destructors may still release CUDA objects at exit, and the
  // driver must outlive them.
  static const LoadedDriver* const loaded = [] {
    auto* d = new LoadedDriver;
    const std::vector<std::string> candidates = {"libcuda.so.1", "libcuda.so"};
    d->lib = DynamicLibrary::open_first(candidates, &d->why_missing);
    if (d->lib && d->lib.symbol("cuInit") == nullptr) {
      d->why_missing = "\n  " + d->lib.path() + ": exports no cuInit";
      d->lib = DynamicLibrary();
    }
    if (!d->lib) return d;
      // #name is the unversioned name; INGOT_CUDA_XSTR_(name) what cuda.h maps it to.
#define INGOT_CUDA_RESOLVE(name) resolve(d->lib, d->api.name, INGOT_CUDA_XSTR_(name), #name);
    INGOT_CUDA_DRIVER_FUNCTIONS(INGOT_CUDA_RESOLVE)
#undef INGOT_CUDA_RESOLVE
    g_stream_synchronize = std::exchange(d->api.cuStreamSynchronize, &counted_stream_synchronize);
    g_event_synchronize = std::exchange(d->api.cuEventSynchronize, &counted_event_synchronize);
    g_ctx_synchronize = std::exchange(d->api.cuCtxSynchronize, &counted_ctx_synchronize);
    d->init_result = d->api.cuInit(0);
    return d;
  }();
  return *loaded;
}

}  // namespace

const DriverApi* driver_or_null() {
  const LoadedDriver& d = loaded_driver();
  return d.lib ? &d.api : nullptr;
}

const DriverApi& driver() {
  const LoadedDriver& d = loaded_driver();
  INGOT_CHECK(
      d.lib, AcceleratorError,
      "CUDA driver library not found (is an NVIDIA driver installed?); tried:", d.why_missing);
  return d.api;
}

uint64_t host_synchronizations() { return g_host_synchronizations.load(); }

CUresult driver_init_result() { return loaded_driver().init_result; }

std::string driver_error_message(const char* call, CUresult result) {
  const char* name = nullptr;
  const char* description = nullptr;
  if (const DriverApi* api = driver_or_null()) {
    if (api->cuGetErrorName(result, &name) != CUDA_SUCCESS) name = nullptr;
    if (api->cuGetErrorString(result, &description) != CUDA_SUCCESS) description = nullptr;
  }
  return detail::concat(call, " failed: ", name != nullptr ? name : "CUresult", " (",
                        static_cast<int>(result), ")", description != nullptr ? ": " : "",
                        description != nullptr ? description : "");
}

void check_driver(CUresult result, const char* call) {
  if (result != CUDA_SUCCESS) throw AcceleratorError(driver_error_message(call, result));
}

}  // namespace ingot::cuda
