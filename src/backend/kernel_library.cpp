#include "backend/kernel_library.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "kernels/cast.h"

namespace ingot {

namespace {

constexpr int kAnyInput = -1;

// The registry's signatures for one op, and the one whose dtypes its last call matched exactly
// (a program repeats its dtypes: the next call usually takes it without a search).
struct OpKernels {
  const std::vector<const KernelSignature*>* sigs = nullptr;
  const KernelSignature* recent = nullptr;
};

// `op`'s kernels, from a small per-thread cache keyed by the name's address (stubs pass string
// literals) and checked by content, so a call neither hashes the name nor probes the registry's
// map. Ops without kernels are not cached (the registry may still grow); neither are long names
// (`spare` then holds the answer).
OpKernels& kernels_for(std::string_view op, OpKernels& spare) {
  struct Entry {
    OpKernels kernels;
    size_t size = 0;
    char name[40];
  };
  constexpr size_t kSlots = 64;
  thread_local std::array<Entry, kSlots> cache{};
  if (op.size() > sizeof(Entry::name)) {
    spare.sigs = &kernel_registry().signatures(op);
    return spare;
  }
  Entry& e = cache[(reinterpret_cast<uintptr_t>(op.data()) >> 4) % kSlots];
  if (e.kernels.sigs != nullptr && e.size == op.size() && std::memcmp(e.name, op.data(), op.size()) == 0) {
    return e.kernels;
  }
  const std::vector<const KernelSignature*>& sigs = kernel_registry().signatures(op);
  if (sigs.empty()) {
    spare.sigs = &sigs;
    return spare;
  }
  e.kernels = OpKernels{&sigs, nullptr};
  e.size = op.size();
  std::memcpy(e.name, op.data(), op.size());
  return e.kernels;
}

// Whether every operand except input `skip` is stored in the dtype `sig` expects.
bool dtypes_match(const TensorIteratorBase& it, const KernelSignature& sig, int skip) {
  if (sig.out != it.dtype(0)) return false;
  for (int i = 0; i < sig.ninputs; ++i) {
    if (i != skip && sig.inputs[i] != it.input_dtype(i)) return false;
  }
  return true;
}

ScalarType opmath_dtype(ScalarType t) { return t == kFloat16 || t == kBFloat16 ? kFloat32 : t; }

// Lifting input `i` converts its value straight to the kernel's compute type; that equals
// converting it to the common dtype first only when both compute in the same type.
bool can_lift(const TensorIteratorBase& it, const KernelSignature& sig, int i) {
  return sig.inputs[i] == it.input_dtype(i) || sig.args[i] == opmath_dtype(it.common_dtype());
}

bool contiguous_operand(const TensorIteratorBase& it, int arg) {
  return it.ndim() == 0 ||
         (it.ndim() == 1 && it.strides(arg)[0] == static_cast<int64_t>(element_size(it.dtype(arg))));
}

// The one input that is a single repeated element while every other operand is contiguous, or -1.
int lifted_scalar_input(const TensorIteratorBase& it) {
  int found = -1;
  for (int i = 0; i < it.ninputs(); ++i) {
    if (it.is_scalar(it.noutputs() + i)) {
      if (found >= 0) return -1;
      found = i;
    } else if (!contiguous_operand(it, it.noutputs() + i)) {
      return -1;
    }
  }
  return found >= 0 && contiguous_operand(it, 0) ? found : -1;
}

// Reads one element stored as `from` and stores it into `dst` converted to `to`.
void convert_into(ScalarArg& dst, ScalarType to, const void* src, ScalarType from) {
  visit_dtype(from, [&](auto f) {
    using From = typename decltype(f)::type;
    const From v = read_bytes<From>(src);
    visit_dtype(to, [&](auto t) {
      using To = typename decltype(t)::type;
      dst.set(convert<To>(v));
    });
  });
}

// Whether the element at src (stored as `from`) has the same value in `args` read directly as
// read through `stored`: 0, 1 or 0.5 through bfloat16 into float, not 0.1.
bool converts_exactly(const void* src, ScalarType from, ScalarType stored, ScalarType args) {
  ScalarArg direct, narrowed, widened;
  convert_into(direct, args, src, from);
  convert_into(narrowed, stored, src, from);
  convert_into(widened, args, narrowed.bytes, stored);
  return std::memcmp(direct.bytes, widened.bytes, element_size(args)) == 0;
}

// On a CPU iterator: whether `sig` matches every operand except 0-d inputs (Python numbers) in
// another dtype, whose value the kernel's stored type holds exactly in its compute type: always
// where it computes in the stored type (float32, float64, integers); for float16 and bfloat16,
// which compute in float32, when the number rounds to nothing (clamp(x, 0, 1)). Converting the
// number to the stored type is then what the cast flavor does to it.
bool numbers_convert(const TensorIteratorBase& it, const KernelSignature& sig) {
  if (sig.out != it.dtype(0)) return false;
  bool any = false;
  for (int i = 0; i < sig.ninputs; ++i) {
    if (sig.inputs[i] == it.input_dtype(i)) continue;
    const int arg = it.noutputs() + i;
    if (it.tensor(arg).dim() != 0 || sig.inputs[i] != it.common_dtype() ||
        (sig.inputs[i] != sig.args[i] &&
         !converts_exactly(it.data_ptr(arg), it.input_dtype(i), sig.inputs[i], sig.args[i]))) {
      return false;
    }
    any = true;
  }
  return any;
}

constexpr int kNotBroadcast = -2;

// A 2-d iteration where some operand is contiguous along dim 1 instead of dim 0 (a transposed
// input or output), large enough in both dims to be worth walking in tiles.
bool wants_tiles(const TensorIteratorBase& it) {
  constexpr int64_t kMinSide = 16;
  if (it.ndim() != 2 || it.shape()[0] < kMinSide || it.shape()[1] < kMinSide) return false;
  for (int arg = 0; arg < it.ntensors(); ++arg) {
    const auto item = static_cast<int64_t>(element_size(it.dtype(arg)));
    if (it.strides(arg)[0] != item && it.strides(arg)[1] == item) return true;
  }
  return false;
}

// For a 2-d iteration whose rows are contiguous except for at most one input that repeats one
// value per row: that input's index, or -1 when none repeats. kNotBroadcast otherwise.
int broadcast_input(const TensorIteratorBase& it) {
  if (it.ndim() != 2) return kNotBroadcast;
  int repeated = -1;
  for (int arg = 0; arg < it.ntensors(); ++arg) {
    const int64_t inner = it.strides(arg)[0];
    if (inner == static_cast<int64_t>(element_size(it.dtype(arg)))) continue;
    if (inner != 0 || arg < it.noutputs() || repeated >= 0) return kNotBroadcast;
    repeated = arg - it.noutputs();
  }
  return repeated;
}

ElementwiseArgs bind_operands(const TensorIteratorBase& it, std::string_view op) {
  INGOT_CHECK(it.ndim() <= kMaxDims, NotImplementedError, op, ": ", it.ndim(),
              " iteration dims after coalescing; kernels support at most ", kMaxDims);
  // Only what kernels read is written (the struct is ~700 bytes; a tiny op should not clear it
  // all): dims [0, ndim) of every operand slot, a 0-dim iteration as one dim of one element.
  ElementwiseArgs a;
  const int ndim = it.ndim();
  a.ndim = std::max(ndim, 1);
  a.sizes[0] = 1;
  a.scalar_input = -1;
  a.scalar = ScalarArg{};
  a.alpha = ScalarArg{};
  for (int d = 0; d < ndim; ++d) a.sizes[d] = it.shape()[d];
  for (int k = 0; k < kMaxOperands; ++k) {
    const bool used = k < it.ntensors();
    a.data[k] = used ? it.data_ptr(k) : nullptr;
    a.dtypes[k] = used ? it.dtype(k) : kFloat32;
    a.strides[k][0] = 0;
    if (used) {
      const IntArrayRef strides = it.strides(k);
      for (int d = 0; d < ndim; ++d) a.strides[k][d] = strides[d];
    } else {
      for (int d = 1; d < ndim; ++d) a.strides[k][d] = 0;
    }
  }
  return a;
}

std::string dtype_list(const std::vector<const KernelSignature*>& sigs) {
  std::vector<ScalarType> seen;  // several signatures may share an input dtype
  std::string out;
  for (const KernelSignature* s : sigs) {
    const ScalarType t = s->inputs[s->ninputs - 1];
    if (std::find(seen.begin(), seen.end(), t) != seen.end()) continue;
    seen.push_back(t);
    out += detail::concat(out.empty() ? "" : ", ", dtype_name(t));
  }
  return out;
}

}  // namespace

void KernelLibrary::exec_unary_kernel(TensorIteratorBase& iter, std::string_view op) {
  exec(iter, op, 1, nullptr);
}
void KernelLibrary::exec_binary_kernel(TensorIteratorBase& iter, std::string_view op) {
  exec(iter, op, 2, nullptr);
}
void KernelLibrary::exec_binary_kernel(TensorIteratorBase& iter, std::string_view op, const Scalar& alpha) {
  exec(iter, op, 2, &alpha);
}
void KernelLibrary::exec_ternary_kernel(TensorIteratorBase& iter, std::string_view op) {
  exec(iter, op, 3, nullptr);
}
void KernelLibrary::exec_unary_kernel(TensorIteratorBase& iter, std::string_view op, const Scalar& alpha) {
  exec(iter, op, 1, &alpha);
}
void KernelLibrary::exec_ternary_kernel(TensorIteratorBase& iter, std::string_view op, const Scalar& alpha) {
  exec(iter, op, 3, &alpha);
}

void KernelLibrary::exec(TensorIteratorBase& iter, std::string_view op, int ninputs, const Scalar* alpha) {
  INGOT_CHECK(iter.noutputs() == 1 && iter.ninputs() == ninputs, ValueError, op, ": a ", ninputs,
              "-input kernel needs an iterator with 1 output and ", ninputs, " inputs, got ",
              iter.noutputs(), " and ", iter.ninputs());
  if (iter.numel() == 0) return;
  iter.for_each_within_dims(kMaxDims, [&](const TensorIteratorBase& within) {
    if (within.can_use_32bit_indexing()) {
      exec_32bit(within, op, alpha);
      return;
    }
    for (const TensorIteratorBase& sub : within.with_32bit_indexing()) exec_32bit(sub, op, alpha);
  });
}

void KernelLibrary::exec_32bit(const TensorIteratorBase& it, std::string_view op, const Scalar* alpha) {
  OpKernels spare;
  OpKernels& kernels = kernels_for(op, spare);
  const std::vector<const KernelSignature*>& sigs = *kernels.sigs;
  const auto takes = [&](const KernelSignature& s) {
    return s.ninputs == it.ninputs() && s.alpha.has_value() == (alpha != nullptr);
  };
  const auto find = [&](auto&& pred) -> const KernelSignature* {
    for (const KernelSignature* s : sigs) {
      if (takes(*s) && pred(*s)) return s;
    }
    return nullptr;
  };
  ElementwiseArgs args = bind_operands(it, op);
  ScalarArg converted[kMaxOperands];  // host numbers in the kernel's dtypes (numbers_convert)
  KernelFlavor flavor = KernelFlavor::Strided;
  const KernelSignature* sig = kernels.recent;
  if (sig == nullptr || !takes(*sig) || !dtypes_match(it, *sig, kAnyInput)) {
    sig = find([&](const KernelSignature& s) { return dtypes_match(it, s, kAnyInput); });
    if (sig != nullptr) kernels.recent = sig;
  }
  const bool dense = sig && it.is_contiguous();
  // Lifting reads the element on the host: only host memory (any operand of a CPU iterator, a
  // host 0-d operand of a device one) can be lifted; a device 0-d operand is read by the kernel.
  int lifted = dense ? -1 : lifted_scalar_input(it);
  if (lifted >= 0 && !it.device().is_cpu() && !it.is_cpu_scalar(it.noutputs() + lifted)) lifted = -1;
  if (dense) {
    flavor = KernelFlavor::Dense;
  } else if (lifted >= 0 && (sig || (sig = find([&](const KernelSignature& s) {
                                       return dtypes_match(it, s, lifted) && can_lift(it, s, lifted);
                                     })))) {
    // The single element is read in its own dtype and lifted to the compute type exactly once.
    flavor = KernelFlavor::Scalar;
    args.scalar_input = lifted;
    convert_into(args.scalar, sig->args[lifted], it.data_ptr(it.noutputs() + lifted), it.input_dtype(lifted));
  } else if (sig) {
    const int repeated = broadcast_input(it);
    if (repeated != kNotBroadcast) {
      flavor = KernelFlavor::Broadcast;
      args.scalar_input = repeated;
    } else if (wants_tiles(it)) {
      flavor = KernelFlavor::Tiled;
    }
  } else if (it.device().is_cpu() &&
             (sig = find([&](const KernelSignature& s) { return numbers_convert(it, s); }))) {
    // Only 0-d inputs (Python numbers, clamp(x, 0.2, 0.8)) differ from the kernel's dtypes:
    // each is converted once, as the cast flavor would per element, and read in place (stride 0),
    // so the loop vectorizes (strided flavor: contiguous_or_repeated).
    for (int i = 0; i < it.ninputs(); ++i) {
      const int arg = it.noutputs() + i;
      if (sig->inputs[i] == it.input_dtype(i)) continue;
      convert_into(converted[i], sig->inputs[i], it.data_ptr(arg), it.input_dtype(i));
      args.data[arg] = reinterpret_cast<char*>(converted[i].bytes);
    }
  } else {
    flavor = KernelFlavor::Cast;
    sig = find([&](const KernelSignature& s) { return s.inputs[s.ninputs - 1] == it.common_dtype(); });
    if (!sig) throw_missing(it, op);
  }
  if (alpha) {
    visit_dtype(*sig->alpha, [&](auto t) { args.alpha.set(alpha->to<typename decltype(t)::type>()); });
  }
  if (it.device().is_cpu()) {
    launch(*sig, flavor, args, it.numel(), it.device());
    return;
  }
  // Host 0-d inputs of a device iterator (Python numbers) travel by value: the scalar flavor lifts
  // one; the strided and cast flavors take one as their fixed input; any further one is copied
  // to the device (kept alive here until the launch is enqueued; the pool orders the free).
  std::vector<Tensor> uploaded;
  for (int i = 0; i < it.ninputs(); ++i) {
    const int arg = it.noutputs() + i;
    if (!it.is_cpu_scalar(arg) || (flavor == KernelFlavor::Scalar && args.scalar_input == i)) continue;
    if (flavor == KernelFlavor::Dense || flavor == KernelFlavor::Broadcast || flavor == KernelFlavor::Tiled) {
      flavor = KernelFlavor::Strided;
      args.scalar_input = -1;
    }
    if (flavor != KernelFlavor::Scalar && args.scalar_input < 0) {
      args.scalar_input = i;
      convert_into(args.scalar, sig->args[i], it.data_ptr(arg), it.input_dtype(i));
      args.data[arg] = nullptr;
    } else {
      uploaded.push_back(it.tensor(arg).to(it.device()));
      args.data[arg] = static_cast<char*>(uploaded.back().data_ptr());
    }
  }
  launch(*sig, flavor, args, it.numel(), it.device());
}

void KernelLibrary::throw_missing(const TensorIteratorBase& it, std::string_view op) const {
  const std::vector<const KernelSignature*>& sigs = kernel_registry().signatures(op);
  INGOT_CHECK(!sigs.empty(), NotImplementedError, op, ": no ", device_type_name(device_type()),
              " kernels are registered for this op");
  throw NotImplementedError(detail::concat(
      op, ": no ", device_type_name(device_type()), " kernel ", op, "_cast_", dtype_name(it.dtype(0)), '_',
      dtype_name(it.common_dtype()), " for input dtype ", dtype_name(it.common_dtype()), "; ", op,
      " has ", device_type_name(device_type()), " kernels for input dtypes: ", dtype_list(sigs)));
}

namespace {
std::array<KernelLibrary*, kNumDeviceTypes>& library_table() {
  static std::array<KernelLibrary*, kNumDeviceTypes> table{};
  return table;
}
}  // namespace

void register_kernel_library(DeviceType device, KernelLibrary* library) {
  library_table()[static_cast<int>(device)] = library;
}

KernelLibrary& kernel_library(DeviceType device, std::string_view op) {
  KernelLibrary* lib = library_table()[static_cast<int>(device)];
  INGOT_CHECK(lib != nullptr, NotImplementedError, op, ": not implemented for device ", device_type_name(device),
              " (no ", device_type_name(device), " kernel library in this build)");
  return *lib;
}

}  // namespace ingot

namespace ingot {

void KernelLibrary::launch_index(const IndexKernelSignature& sig, const ElementwiseArgs&, int64_t,
                                 const IndexParams&, Device, std::string_view what) {
  throw NotImplementedError(detail::concat(what, ": the ", device_type(), " backend has no index kernel ", sig.name));
}

namespace {

// A kernel that only moves elements, over rows that are contiguous in out and in and share one
// index (index stride 0 along dim 0), moves `width` bytes at once when every address and stride
// allows: a row of 256 float32 becomes 64 16-byte elements (vector loads and stores).
int wide_move_width(const ElementwiseArgs& a, int64_t elem, const IndexParams& p) {
  if (a.strides[2][0] != 0 || a.strides[0][0] != elem || a.strides[1][0] != elem) return 0;
  for (int width : {16, 8}) {
    if (width <= elem || (a.sizes[0] * elem) % width != 0 || p.stride % width != 0) continue;
    bool ok = true;
    for (int k = 0; k < 2 && ok; ++k) {
      ok = reinterpret_cast<uintptr_t>(a.data[k]) % static_cast<uintptr_t>(width) == 0;
      for (int d = 1; d < a.ndim && ok; ++d) ok = a.strides[k][d] % width == 0;
    }
    if (ok) return width;
  }
  return 0;
}

}  // namespace

void KernelLibrary::exec_index_kernel(TensorIteratorBase& iter, std::string_view op, const IndexParams& params,
                                      std::string_view what) {
  INGOT_CHECK(iter.noutputs() == 1 && iter.ninputs() == 2, ValueError, what,
              ": an index kernel needs an iterator of (out, in, index)");
  const ScalarType index_dtype = iter.input_dtype(1);
  const IndexKernelSignature* sig = index_kernel_registry().find(op, iter.dtype(0), index_dtype);
  INGOT_CHECK(sig != nullptr, NotImplementedError, what, ": no ", device_type(), " index kernel ", op,
              " for data of dtype ", iter.dtype(0), " and indices of dtype ", index_dtype);
  if (iter.numel() == 0) return;
  for (int k = 0; k < 3; ++k) {
    INGOT_CHECK(iter.is_aligned(k), NotImplementedError, what, ": operand ", k,
                " is not aligned to its element size (memory wrapped from outside); copy it first");
  }
  iter.for_each_within_dims(kMaxDims, [&](const TensorIteratorBase& within) {
    const auto run = [&](const TensorIteratorBase& it) {
      ElementwiseArgs args = bind_operands(it, what);
      const auto elem = static_cast<int64_t>(element_size(it.dtype(0)));
      const int width = sig->dtype ? 0 : wide_move_width(args, elem, params);
      const IndexKernelSignature* wide = width ? index_kernel_registry().find_moving(op, width, index_dtype) : nullptr;
      if (wide == nullptr) {
        launch_index(*sig, args, it.numel(), params, it.device(), what);
        return;
      }
      const int64_t factor = width / elem;
      args.sizes[0] /= factor;
      args.strides[0][0] = args.strides[1][0] = width;
      launch_index(*wide, args, it.numel() / factor, params, it.device(), what);
    };
    if (within.can_use_32bit_indexing()) {
      run(within);
      return;
    }
    for (const TensorIteratorBase& sub : within.with_32bit_indexing()) run(sub);
  });
}

}  // namespace ingot
