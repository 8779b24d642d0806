#include "backend/cuda/kernel_library.h"

#include <cstdlib>
#include <sstream>
#include <string_view>
#include <utility>

#include "backend/cuda/compile_cache.h"
#include "backend/cuda/device.h"
#include "backend/cuda/device/params.h"
#include "backend/cuda/driver.h"
#include "backend/cuda/embedded_sources.h"
#include "backend/cuda/stream.h"
#include "backend/dim_kernel_registry.h"

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

// Options every elementwise module is compiled with. No fast math, no flush to zero, and no
// contraction of a*b + c into a fused multiply-add: functors round as written, as on the CPU
// (lerp, addcmul, add with alpha give the CPU's bits). Allowing contraction measured no faster
// on the H200 (bench/RESULTS.md).
// INGOT_NVRTC_EXTRA_OPTIONS (space-separated, read once) appends options to every module, for
// tuning runs that compare kernel variants selected by -D flags; they are part of the cache key.
const std::vector<std::string>& module_options() {
  static const std::vector<std::string> options = [] {
    std::vector<std::string> o = {"-std=c++17", "--fmad=false", "-DNDEBUG"};
    if (const char* extra = std::getenv("INGOT_NVRTC_EXTRA_OPTIONS"); extra != nullptr) {
      std::istringstream words(extra);
      for (std::string w; words >> w;) o.push_back(w);
    }
    return o;
  }();
  return options;
}

CompileRequest module_request(std::string source, const std::string& kernel, int major, int minor) {
  CompileRequest r;
  r.source = std::move(source);
  r.name = kernel + ".cu";
  for (const EmbeddedSource& h : embedded_kernel_sources()) r.headers.push_back(h);
  // Only the headers this module reaches: an edit to one kernel header recompiles its modules.
  static const HeaderDigests digests(embedded_kernel_sources());
  r.headers_digest = digests.digest_for(r.source);
  r.options = module_options();
  r.arch_major = major;
  r.arch_minor = minor;
  return r;
}

// The dtypes a kernel stores its operands in: the signature's, or (specialized cast) the
// operands' own. The widest fixes the vector width and elements per thread (device/params.h),
// which the host mirrors to check alignment and size the grid.
struct StoredTypes {
  int n = 0;  // operands, output first
  ScalarType t[kMaxOperands]{};
  int widest() const {
    size_t w = 1;
    for (int k = 0; k < n; ++k) w = std::max(w, element_size(t[k]));
    return static_cast<int>(w);
  }
};

StoredTypes signature_types(const KernelSignature& sig) {
  StoredTypes s;
  s.n = sig.ninputs + 1;
  s.t[0] = sig.out;
  for (int i = 0; i < sig.ninputs; ++i) s.t[i + 1] = sig.inputs[i];
  return s;
}

// A cast whose operands are all contiguous runs as a dense kernel specialized, at NVRTC time, to
// the operands' own dtypes: vector loads and no per-element dtype switch.
bool contiguous_cast(const ElementwiseArgs& a, int nops) {
  if (a.ndim != 1 || a.scalar_input >= 0) return false;
  for (int k = 0; k < nops; ++k) {
    if (a.strides[k][0] != static_cast<int64_t>(element_size(a.dtypes[k]))) return false;
  }
  return true;
}

// The C++ spelling of a dtype's element type, for generated kernel source.
const char* cpp_type_name(ScalarType t) {
  switch (t) {
#define INGOT_CPP_TYPE_NAME(cpp, code, name) \
  case ScalarType::code:                     \
    return #cpp;
    INGOT_FORALL_SCALAR_TYPES(INGOT_CPP_TYPE_NAME)
#undef INGOT_CPP_TYPE_NAME
  }
  return "void";
}

bool aligned_to(const void* p, size_t bytes) { return reinterpret_cast<uintptr_t>(p) % bytes == 0; }

Params make_params(const StoredTypes& types, KernelFlavor flavor, const ElementwiseArgs& a,
                   int64_t numel) {
  Params p{};
  const int nops = types.n;
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
  const int vec = vector_elems(types.widest());
  bool aligned = flavor == KernelFlavor::Dense || flavor == KernelFlavor::Scalar ||
                 (flavor == KernelFlavor::Broadcast && a.sizes[0] % vec == 0);
  for (int k = 0; k < nops && aligned; ++k) {
    if (flavor == KernelFlavor::Scalar && k - 1 == a.scalar_input) continue;
    const size_t run = element_size(types.t[k]) * static_cast<size_t>(vec);
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

std::string CudaKernelLibrary::cast_kernel_name(const KernelSignature& sig,
                                                const ScalarType* dtypes) {
  std::string name = sig.names[static_cast<size_t>(KernelFlavor::Cast)] + "_";
  for (int k = 0; k <= sig.ninputs; ++k) (name += '_') += dtype_name(dtypes[k]);
  return name;
}

std::string CudaKernelLibrary::cast_module_source(const KernelSignature& sig,
                                                  const ScalarType* dtypes) {
  std::string types;
  for (int k = 0; k <= sig.ninputs; ++k) (types += ", ") += cpp_type_name(dtypes[k]);
  return ingot::detail::concat("#include \"", sig.header,
                               "\"\n#include \"backend/cuda/device/elementwise.cuh\"\n",
                               "using namespace ingot;\nINGOT_CUDA_CAST_KERNEL(",
                               cast_kernel_name(sig, dtypes), ", ", sig.type_name, types, ")\n");
}

void CudaKernelLibrary::compile_module(const KernelSignature& sig, KernelFlavor flavor, int major,
                                       int minor) {
  kernel_cache().get_or_compile(module_request(
      module_source(sig, flavor), sig.names[static_cast<size_t>(flavor)], major, minor));
}

void CudaKernelLibrary::compile_source(std::string source, const std::string& name, int major, int minor) {
  kernel_cache().get_or_compile(module_request(std::move(source), name, major, minor));
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
  fn = load_function(module_source(sig, flavor), sig.names[static_cast<size_t>(flavor)], device);
  slot.store(fn, std::memory_order_release);
  return fn;
}

CUmodule CudaKernelLibrary::load_module(std::string source, const std::string& name, int device) {
  const DeviceProperties& props = device_properties(device);
  const auto compiled = kernel_cache().get_or_compile(
      module_request(std::move(source), name, props.major, props.minor));
  CUmodule module = nullptr;  // stays loaded for the life of the process
  INGOT_CU_CHECK(driver().cuModuleLoadData(&module, compiled->image.data()));
  return module;
}

CUfunction CudaKernelLibrary::load_function(std::string source, const std::string& name,
                                            int device) {
  CUfunction fn = nullptr;
  INGOT_CU_CHECK(driver().cuModuleGetFunction(&fn, load_module(std::move(source), name, device), name.c_str()));
  return fn;
}

void CudaKernelLibrary::compile_dim_module(const DimKernelSignature& sig, int major, int minor) {
  kernel_cache().get_or_compile(module_request(dim_module_source(sig), sig.name, major, minor));
}

CUfunction CudaKernelLibrary::cast_function(const KernelSignature& sig, const ScalarType* dtypes,
                                            int device) {
  uint64_t key = static_cast<uint64_t>(sig.id) << 32 | static_cast<uint64_t>(device) << 20;
  for (int k = 0; k <= sig.ninputs; ++k) key |= static_cast<uint64_t>(dtypes[k]) << (4 * k);
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = cast_functions_.find(key);
  if (it != cast_functions_.end()) return it->second;
  const CUfunction fn =
      load_function(cast_module_source(sig, dtypes), cast_kernel_name(sig, dtypes), device);
  cast_functions_.emplace(key, fn);
  return fn;
}

void CudaKernelLibrary::launch(const KernelSignature& sig, KernelFlavor flavor,
                               const ElementwiseArgs& args, int64_t numel, Device device) {
  set_current_device(device.index);
  StoredTypes types = signature_types(sig);
  CUfunction fn = nullptr;
  if (flavor == KernelFlavor::Cast && contiguous_cast(args, types.n)) {
    for (int k = 0; k < types.n; ++k) types.t[k] = args.dtypes[k];
    fn = cast_function(sig, args.dtypes, device.index);
    flavor = KernelFlavor::Dense;  // the specialized kernel is the dense loop
  } else {
    fn = function(sig, flavor, device.index);
  }
  Params params = make_params(types, flavor, args, numel);
  unsigned blocks = 0;
  if (flavor == KernelFlavor::Tiled) {  // one block per tile (device/elementwise.cuh)
    const int64_t kTile = kTileSide;
    blocks = static_cast<unsigned>(((args.sizes[0] + kTile - 1) / kTile) *
                                   ((args.sizes[1] + kTile - 1) / kTile));
  } else {
    const int64_t per_block = static_cast<int64_t>(kBlockThreads) * elems_per_thread(types.widest());
    blocks = static_cast<unsigned>((numel + per_block - 1) / per_block);
  }
  void* kernel_args[] = {&params};
  INGOT_CU_CHECK(driver().cuLaunchKernel(fn, blocks, 1, 1, kBlockThreads, 1, 1, 0,
                                         stream(device.index), kernel_args, nullptr));
}

}  // namespace ingot::cuda
