// Per-op host cost on the GPU, as a ratio to a bare cuLaunchKernel of an empty kernel timed in the
// same run (issue: CUDA backend, criterion 9), and the cost of compiling one kernel module: NVRTC's
// first initialisation, a cold compile after it, and a disk-cache hit. Prints one JSON object
// (microseconds per call; milliseconds for the compile times). Uses a fresh cache directory.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "backend/cuda/compile_cache.h"
#include "backend/cuda/device.h"
#include "backend/cuda/kernel_library.h"
#include "backend/cuda/driver.h"
#include "backend/cuda/nvrtc.h"
#include "backend/cuda/stream.h"
#include "ingot/cuda.h"
#include "ingot/ingot.h"

namespace {

template <typename F>
double us_per_call(F&& fn, int n = 20000) {
  for (int i = 0; i < 1000; ++i) fn();
  ingot::cuda::synchronize(0);
  double best = 1e30;
  for (int rep = 0; rep < 5; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i) fn();
    const double us =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() /
        n;
    ingot::cuda::synchronize(0);
    best = us < best ? us : best;
  }
  return best;
}

}  // namespace

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

int main() {
  using namespace ingot;
  char dir[] = "/tmp/ingot-bench-cacheXXXXXX";
  if (mkdtemp(dir) == nullptr) return 1;
  setenv("INGOT_CACHE_DIR", dir, 1);  // before the kernel cache reads it: every compile is cold
  if (!cuda::is_available()) {
    std::fprintf(stderr, "no CUDA device\n");
    return 1;
  }
  const cuda::DeviceProperties& props = cuda::device_properties(0);
  // Compile times: the first module pays NVRTC's initialisation; then a cold module of another
  // op; then that module again from disk after the in-memory cache is dropped.
  const KernelSignature* first_sig = kernel_registry().find("mul_dense_float32_float32");
  const KernelSignature* cold_sig = kernel_registry().find("add_dense_float32_float32_float32");
  auto t0 = std::chrono::steady_clock::now();
  cuda::CudaKernelLibrary::compile_module(*first_sig, KernelFlavor::Dense, props.major, props.minor);
  const double first_ms = ms_since(t0);
  t0 = std::chrono::steady_clock::now();
  cuda::CudaKernelLibrary::compile_module(*cold_sig, KernelFlavor::Dense, props.major, props.minor);
  const double cold_ms = ms_since(t0);
  cuda::kernel_cache().clear_memory();
  t0 = std::chrono::steady_clock::now();
  cuda::CudaKernelLibrary::compile_module(*cold_sig, KernelFlavor::Dense, props.major, props.minor);
  const double disk_ms = ms_since(t0);
  cuda::set_current_device(0);
  cuda::CompileRequest req;
  req.source = "extern \"C\" __global__ void empty_kernel(float* p) {}\n";
  req.arch_major = props.major;
  req.arch_minor = props.minor;
  const cuda::CompiledModule mod = cuda::compile(req);
  CUmodule module = nullptr;
  CUfunction fn = nullptr;
  INGOT_CU_CHECK(cuda::driver().cuModuleLoadData(&module, mod.image.data()));
  INGOT_CU_CHECK(cuda::driver().cuModuleGetFunction(&fn, module, "empty_kernel"));
  float* arg = nullptr;
  void* args[] = {&arg};
  const double bare = us_per_call([&] {
    INGOT_CU_CHECK(
        cuda::driver().cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, cuda::stream(0), args, nullptr));
  });
  const TensorOptions opts = TensorOptions(kFloat32).device(Device(kCUDA, 0));
  Tensor a = ones({16}, opts), b = ones({16}, opts), c = empty({16}, opts);
  const double out = us_per_call([&] { add_out(c, a, b); });
  const double fresh = us_per_call([&] { (void)add(a, b); });
  std::printf(
      "{\"empty cuLaunchKernel\": %.3f, \"ingot add(out=) C++\": %.3f, \"ingot add C++\": %.3f, "
      "\"ratio out=\": %.3f, \"ratio add\": %.3f, \"first compile ms (NVRTC init)\": %.1f, "
      "\"cold compile ms\": %.1f, \"disk cache hit ms\": %.2f}\n",
      bare, out, fresh, out / bare, fresh / bare, first_ms, cold_ms, disk_ms);
  return 0;
}
