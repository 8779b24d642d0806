#include "backend/cuda/kernel_library.h"

#include <string_view>

#include "backend/cuda/compile_cache.h"
#include "backend/cuda/device.h"
#include "backend/cuda/device/params.h"
#include "backend/cuda/driver.h"
#include "backend/cuda/embedded_sources.h"
#include "backend/cuda/stream.h"

namespace ingot::cuda {

CudaKernelLibrary& cuda_kernel_library() {
  static CudaKernelLibrary* library = [] {
    auto* lib = new CudaKernelLibrary();  // never destroyed: modules stay loaded until exit
    register_kernel_library(kCUDA, lib);
    return lib;
  }();
  return *library;
}

[[maybe_unused]] static CudaKernelLibrary& cuda_library_registered = cuda_kernel_library();

namespace {

// Options every elementwise module is compiled with. No fast math and no contraction into fused
// multiply-adds: results round as the CPU backend's do.
const std::vector<std::string>& module_options() {
  static const std::vector<std::string> options = {"-std=c++17", "--fmad=false", "-DNDEBUG"};
  return options;
}

CompileRequest module_request(const KernelSignature& sig, KernelFlavor flavor, int major,
                              int minor) {
  CompileRequest r;
  r.source = CudaKernelLibrary::module_source(sig, flavor);
  r.name = sig.names[static_cast<size_t>(flavor)] + ".cu";
  for (const EmbeddedSource& h : embedded_kernel_sources()) r.headers.push_back(h);
  r.headers_digest = std::string(embedded_kernel_sources_digest());
  r.options = module_options();
  r.arch_major = major;
  r.arch_minor = minor;
  return r;
}

size_t dtype_bytes(ScalarType t) { return element_size(t); }

// The widest element among the signature's stored types: it fixes the kernels' vector width and
// elements per thread (device/params.h), which the host must mirror to size the grid.
int widest_bytes(const KernelSignature& sig) {
  size_t w = dtype_bytes(sig.out);
  for (int i = 0; i < sig.ninputs; ++i) w = std::max(w, dtype_bytes(sig.inputs[i]));
  return static_cast<int>(w);
}

bool aligned_to(const void* p, size_t bytes) { return reinterpret_cast<uintptr_t>(p) % bytes == 0; }

Params make_params(const KernelSignature& sig, KernelFlavor flavor, const ElementwiseArgs& a,
                   int64_t numel) {
  Params p{};
  const int nops = sig.ninputs + 1;
  p.ndim = a.ndim;
  p.numel = static_cast<int32_t>(numel);
  p.fixed_input = a.scalar_input;
  p.scalar = a.scalar;
  p.alpha = a.alpha;
  for (int d = 0; d < a.ndim; ++d) p.sizes[d] = IntDivider::make(static_cast<uint32_t>(a.sizes[d]));
  for (int k = 0; k < nops; ++k) {
    p.data[k] = a.data[k];
    p.dtypes[k] = a.dtypes[k];
    for (int d = 0; d < a.ndim; ++d) p.strides[k][d] = static_cast<int32_t>(a.strides[k][d]);
  }
  const int vec = vector_elems(widest_bytes(sig));
  bool aligned = flavor == KernelFlavor::Dense || flavor == KernelFlavor::Scalar ||
                 (flavor == KernelFlavor::Broadcast && a.sizes[0] % vec == 0);
  for (int k = 0; k < nops && aligned; ++k) {
    if (flavor == KernelFlavor::Scalar && k - 1 == a.scalar_input) continue;
    const size_t run = dtype_bytes(k == 0 ? sig.out : sig.inputs[k - 1]) * static_cast<size_t>(vec);
    aligned = aligned_to(a.data[k], run) && (flavor != KernelFlavor::Broadcast || a.ndim < 2 ||
                                             a.strides[k][1] % static_cast<int64_t>(run) == 0);
  }
  p.aligned = aligned ? 1 : 0;
  // The broadcast kernel reads row strides from dim 1 even for a single row.
  if (flavor == KernelFlavor::Broadcast && a.ndim < 2) {
    for (int k = 0; k < nops; ++k) p.strides[k][1] = 0;
  }
  return p;
}

}  // namespace

std::string CudaKernelLibrary::module_source(const KernelSignature& sig, KernelFlavor flavor) {
  const std::string& dense = sig.names[static_cast<size_t>(KernelFlavor::Dense)];
  // <op>_dense_<suffix>: the suffix names the dtypes, as every flavor's name does.
  const std::string suffix = dense.substr(sig.op.size() + sizeof("_dense_") - 1);
  return ingot::detail::concat("#include \"", sig.header,
                               "\"\n#include \"backend/cuda/device/elementwise.cuh\"\n",
                               "INGOT_CUDA_KERNEL(", sig.op, ", ", flavor_name(flavor), ", ",
                               suffix, ", ::ingot::", sig.type_name, ")\n");
}

void CudaKernelLibrary::compile_module(const KernelSignature& sig, KernelFlavor flavor, int major,
                                       int minor) {
  kernel_cache().get_or_compile(module_request(sig, flavor, major, minor));
}

CUfunction CudaKernelLibrary::function(const KernelSignature& sig, KernelFlavor flavor,
                                       int device) {
  PerDevice& per = devices_[static_cast<size_t>(device)];
  std::call_once(per.init, [&] {
    per.size = kernel_registry().all().size();
    per.entries = std::make_unique<Entry[]>(per.size);
  });
  INGOT_CHECK(static_cast<size_t>(sig.id) < per.size, NotImplementedError,
              "cuda kernel library: kernel ", sig.names[static_cast<size_t>(flavor)],
              " was registered after the library started");
  std::atomic<CUfunction>& slot =
      per.entries[static_cast<size_t>(sig.id)].fns[static_cast<size_t>(flavor)];
  CUfunction fn = slot.load(std::memory_order_acquire);
  if (fn != nullptr) return fn;

  std::lock_guard<std::mutex> lock(mutex_);
  fn = slot.load(std::memory_order_acquire);
  if (fn != nullptr) return fn;
  const DeviceProperties& props = device_properties(device);
  const auto compiled =
      kernel_cache().get_or_compile(module_request(sig, flavor, props.major, props.minor));
  CUmodule module = nullptr;  // stays loaded for the life of the process
  INGOT_CU_CHECK(driver().cuModuleLoadData(&module, compiled->image.data()));
  INGOT_CU_CHECK(
      driver().cuModuleGetFunction(&fn, module, sig.names[static_cast<size_t>(flavor)].c_str()));
  slot.store(fn, std::memory_order_release);
  return fn;
}

void CudaKernelLibrary::launch(const KernelSignature& sig, KernelFlavor flavor,
                               const ElementwiseArgs& args, int64_t numel, Device device) {
  set_current_device(device.index);
  const CUfunction fn = function(sig, flavor, device.index);
  Params params = make_params(sig, flavor, args, numel);
  const int64_t per_block =
      static_cast<int64_t>(kBlockThreads) * elems_per_thread(widest_bytes(sig));
  const auto blocks = static_cast<unsigned>((numel + per_block - 1) / per_block);
  void* kernel_args[] = {&params};
  INGOT_CU_CHECK(driver().cuLaunchKernel(fn, blocks, 1, 1, kBlockThreads, 1, 1, 0,
                                         stream(device.index), kernel_args, nullptr));
}

}  // namespace ingot::cuda
