// compile_shader's front end: parses the kernels, binds arguments from their declared types,
// checks the launch configuration, and hands the launch to the library's backend.
#include <cmath>
#include <cstring>
#include <limits>

#include "ingot/cuda.h"
#include "ingot/factories.h"
#include "ingot/half.h"
#include "shader/shader_state.h"

namespace ingot {
namespace shader {
namespace {

// A parameter's declared type for messages: "parameter 'x' (const float*)".
std::string describe(const KernelState& k, size_t i) {
  return detail::concat("kernel ", k.name, ": parameter '", k.params[i].name, "' (",
                        k.types[i].spelled, ")");
}

template <typename T>
void put(std::vector<unsigned char>& slot, T v) {
  slot.resize(sizeof(T));
  std::memcpy(slot.data(), &v, sizeof(T));
}

template <typename T>
void put_int(std::vector<unsigned char>& slot, int64_t v, const std::string& what) {
  INGOT_CHECK(v >= static_cast<int64_t>(std::numeric_limits<T>::min()) &&
                  (v < 0 || static_cast<uint64_t>(v) <= static_cast<uint64_t>(std::numeric_limits<T>::max())),
              OverflowError, what, ": ", v, " does not fit");
  put<T>(slot, static_cast<T>(v));
}

void bind_scalar(std::vector<unsigned char>& slot, CType t, const KernelArg& a, const std::string& what) {
  using K = KernelArg::Kind;
  INGOT_CHECK(a.kind() == K::Int || a.kind() == K::Float || a.kind() == K::Bool, TypeError, what,
              " takes a number, got ", a.kind() == K::Tensor ? "a tensor" : "a list of tensors");
  const bool floating = t == CType::F16 || t == CType::BF16 || t == CType::F32 || t == CType::F64;
  if (!floating) {
    INGOT_CHECK(a.kind() != K::Float, TypeError, what, " takes an integer, got the float ",
                a.float_value());
  }
  const int64_t i = a.int_value();
  switch (t) {
    case CType::Bool:
      INGOT_CHECK(a.kind() == K::Bool || i == 0 || i == 1, OverflowError, what, ": ", i,
                  " is not a bool");
      put<bool>(slot, i != 0);
      return;
    case CType::I8: return put_int<int8_t>(slot, i, what);
    case CType::U8: return put_int<uint8_t>(slot, i, what);
    case CType::I16: return put_int<int16_t>(slot, i, what);
    case CType::U16: return put_int<uint16_t>(slot, i, what);
    case CType::I32: return put_int<int32_t>(slot, i, what);
    case CType::U32: return put_int<uint32_t>(slot, i, what);
    case CType::I64: return put_int<int64_t>(slot, i, what);
    case CType::U64: return put_int<uint64_t>(slot, i, what);
    default: break;
  }
  const double v = a.kind() == K::Float ? a.float_value() : static_cast<double>(i);
  // A finite value that rounds to infinity does not fit; inf and nan pass as themselves. Doubles
  // from FLT_MAX + half an ulp up round to infinity (converting them is undefined: check first).
  constexpr double kFloatOverflow = 0x1.ffffffp127;
  if (t != CType::F64) {
    INGOT_CHECK(!(std::fabs(v) >= kFloatOverflow) || !std::isfinite(v), OverflowError, what, ": ",
                v, " does not fit");
  }
  auto check = [&](double rounded) {
    INGOT_CHECK(!std::isfinite(v) || std::isfinite(rounded), OverflowError, what, ": ", v,
                " does not fit");
  };
  switch (t) {
    case CType::F16: {
      const Half h(static_cast<float>(v));
      check(static_cast<float>(h));
      return put<Half>(slot, h);
    }
    case CType::BF16: {
      const BFloat16 h(static_cast<float>(v));
      check(static_cast<float>(h));
      return put<BFloat16>(slot, h);
    }
    case CType::F32: check(static_cast<float>(v)); return put<float>(slot, static_cast<float>(v));
    default: return put<double>(slot, v);
  }
}

void* tensor_address(const KernelState& k, size_t i, const Tensor& t, const std::string& what) {
  INGOT_CHECK(t.defined(), ValueError, what, ": the tensor is undefined");
  INGOT_CHECK(t.device() == k.device, ValueError, what, ": the tensor is on ", t.device(),
              ", the shader was compiled for ", k.device);
  const CType ct = k.types[i].ctype;
  if (ct != CType::Void) {
    const std::optional<ScalarType> want = dtype_of_ctype(ct);
    INGOT_CHECK(want.has_value(), TypeError, what, ": ingot has no ", ctype_name(ct),
                " tensors; declare the pointer with a dtype ingot has");
    INGOT_CHECK(*want == t.dtype(), TypeError, what, " points to ", *want, ", got a ", t.dtype(),
                " tensor");
  }
  return t.numel() == 0 ? t.storage().data() : t.data_ptr();
}

// Everything a launch needs to stay alive until it has been enqueued.
struct BoundArgs {
  std::vector<std::vector<unsigned char>> values;  // one slot per declared parameter
  std::vector<void*> pointers;
  std::vector<std::vector<void*>> pointer_arrays;  // host copies
  std::vector<Tensor> device_arrays;               // device copies of the arrays
};

BoundArgs bind(const KernelState& k, const std::vector<KernelArg>& args) {
  size_t expected = 0;
  for (const ParamType& t : k.types) expected += t.kind != ParamKind::ErrorBuffer;
  INGOT_CHECK(args.size() == expected, TypeError, "kernel ", k.name, " takes ", expected,
              " arguments, got ", args.size());
  BoundArgs b;
  b.values.resize(k.types.size());
  size_t next = 0;
  for (size_t i = 0; i < k.types.size(); ++i) {
    const ParamType& type = k.types[i];
    const std::string what = describe(k, i);
    std::vector<unsigned char>& slot = b.values[i];
    switch (type.kind) {
      case ParamKind::ErrorBuffer:
        put<void*>(slot, error_buffer_argument(k.device));
        continue;
      case ParamKind::Unsupported:
        throw TypeError(what + ": compile_shader binds numbers, pointers to ingot dtypes, arrays "
                               "of such pointers and ingot::ErrorBuffer*; pass this one by pointer");
      case ParamKind::Scalar:
        bind_scalar(slot, type.ctype, args[next++], what);
        continue;
      case ParamKind::Pointer: {
        const KernelArg& a = args[next++];
        INGOT_CHECK(a.kind() == KernelArg::Kind::Tensor, TypeError, what, " takes a tensor");
        put<void*>(slot, tensor_address(k, i, a.tensors()[0], what));
        continue;
      }
      case ParamKind::PointerArray: {
        const KernelArg& a = args[next++];
        INGOT_CHECK(a.kind() == KernelArg::Kind::TensorList, TypeError, what,
                    " takes a list of tensors");
        std::vector<void*> host;
        for (const Tensor& t : a.tensors()) host.push_back(tensor_address(k, i, t, what));
        void* array = nullptr;
        if (!host.empty() && k.device.type == kCUDA) {
          Tensor h = from_blob(host.data(), {static_cast<int64_t>(host.size())}, TensorOptions().dtype(kInt64));
          b.device_arrays.push_back(h.to(k.device, /*copy=*/true));
          array = b.device_arrays.back().data_ptr();
        } else if (!host.empty()) {
          b.pointer_arrays.push_back(std::move(host));
          array = b.pointer_arrays.back().data();
        }
        put<void*>(slot, array);
        continue;
      }
    }
  }
  for (auto& v : b.values) b.pointers.push_back(v.data());
  return b;
}

Geometry geometry(const KernelState& k, const LaunchConfig& c) {
  const size_t nd = c.threads.size();
  INGOT_CHECK(nd >= 1 && nd <= 3, ValueError, "kernel ", k.name,
              ": threads takes 1 to 3 sizes (the total number of threads per dim), got ", nd);
  INGOT_CHECK(c.group_size.empty() || c.group_size.size() == nd, ValueError, "kernel ", k.name,
              ": group_size has ", c.group_size.size(), " dims and threads ", nd);
  const int max_threads = k.compiled->limits().max_threads_per_group;
  Geometry g;
  for (size_t d = 0; d < nd; ++d) {
    INGOT_CHECK(c.threads[d] > 0, ValueError, "kernel ", k.name, ": threads[", d, "] is ",
                c.threads[d], "; every size must be positive");
    int64_t group = 1;
    if (!c.group_size.empty()) {
      group = c.group_size[d];
    } else if (d == 0) {
      group = std::min<int64_t>({c.threads[0], 256, max_threads});
    }
    INGOT_CHECK(group > 0, ValueError, "kernel ", k.name, ": group_size[", d, "] is ", group,
                "; every size must be positive");
    INGOT_CHECK(group <= max_threads, ValueError, "kernel ", k.name, ": group_size[", d, "] is ",
                group, ", above the kernel's limit of ", max_threads, " threads per group");
    const int64_t groups = (c.threads[d] + group - 1) / group;
    INGOT_CHECK(groups <= std::numeric_limits<uint32_t>::max(), ValueError, "kernel ", k.name,
                ": ", c.threads[d], " threads in groups of ", group, " are too many groups");
    g.block[d] = static_cast<uint32_t>(group);
    g.grid[d] = static_cast<uint32_t>(groups);
  }
  const int64_t total = int64_t{g.block[0]} * g.block[1] * g.block[2];
  INGOT_CHECK(total <= max_threads, ValueError, "kernel ", k.name, ": a group of ", g.block[0], "x",
              g.block[1], "x", g.block[2], " = ", total, " threads is above the kernel's limit of ",
              max_threads);
  INGOT_CHECK(c.shared_memory_bytes >= 0, ValueError, "kernel ", k.name,
              ": shared_memory_bytes is negative (", c.shared_memory_bytes, ")");
  g.shared_bytes = c.shared_memory_bytes;
  g.stream = c.stream;
  k.compiled->check_geometry(g);
  return g;
}

Device default_device() { return cuda::is_available() ? Device(kCUDA, 0) : Device(kCPU); }

}  // namespace

std::string expression_of(const KernelRequest& r) {
  if (r.template_args.empty()) return r.base;
  std::string s = r.base + "<";
  for (size_t i = 0; i < r.template_args.size(); ++i) s += (i ? ", " : "") + r.template_args[i];
  return s + ">";
}

}  // namespace shader

const std::string& ShaderKernel::name() const { return state_->name; }
const std::vector<KernelParam>& ShaderKernel::params() const { return state_->params; }
KernelLimits ShaderKernel::limits() const { return state_->compiled->limits(); }

void ShaderKernel::operator()(const std::vector<KernelArg>& args, const LaunchConfig& config) const {
  const shader::KernelState& k = *state_;
  const shader::Geometry g = shader::geometry(k, config);
  shader::BoundArgs bound = shader::bind(k, args);
  k.compiled->launch(bound.pointers.data(), g);
}

Device ShaderLibrary::device() const { return state_->device; }

std::vector<std::string> ShaderLibrary::kernel_names() const {
  std::vector<std::string> names;
  for (const shader::ParsedKernel& k : state_->kernels) names.push_back(k.name);
  return names;
}

ShaderKernel ShaderLibrary::kernel(const std::string& name) const {
  shader::LibraryState& s = *state_;
  const shader::KernelRequest request = shader::parse_kernel_request(name);
  const std::string expression = shader::expression_of(request);
  std::lock_guard<std::mutex> lock(s.mutex);
  if (auto it = s.instances.find(expression); it != s.instances.end()) return ShaderKernel(it->second);
  const shader::ParsedKernel* parsed = nullptr;
  for (const shader::ParsedKernel& k : s.kernels) parsed = k.name == request.base ? &k : parsed;
  if (parsed == nullptr) {
    std::string known;
    for (const shader::ParsedKernel& k : s.kernels) known += (known.empty() ? "" : ", ") + k.name;
    throw ValueError(detail::concat("compile_shader: the source defines no kernel '", request.base,
                                    "' (it defines: ", known.empty() ? "none" : known, ")"));
  }
  INGOT_CHECK(parsed->template_params.empty() == request.template_args.empty(), ValueError,
              "compile_shader: kernel '", request.base, "' ",
              parsed->template_params.empty()
                  ? "is not a template; ask for it by its plain name"
                  : "is a template; ask for an instantiation such as " + request.base + "<float>");
  auto k = std::make_shared<shader::KernelState>();
  k->name = expression;
  k->device = s.device;
  for (const shader::ParsedParam& p : parsed->params) {
    k->types.push_back(shader::classify_param(p, parsed->template_params, request.template_args));
    k->params.push_back({p.name, k->types.back().spelled});
  }
  k->compiled = s.device.type == kCUDA ? shader::cuda_kernel(s, *parsed, request)
                                       : shader::cpu_kernel(s, *parsed, request);
  s.instances.emplace(expression, k);
  return ShaderKernel(k);
}

ShaderLibrary compile_shader(const std::string& source, const ShaderOptions& options) {
  auto s = std::make_shared<shader::LibraryState>();
  s->source = source;
  s->options = options;
  s->device = options.device.value_or(shader::default_device());
  s->kernels = shader::parse_kernels(source);
  if (s->device.type == kCUDA) {
    shader::compile_cuda_library(*s);
  } else {
    shader::compile_cpu_library(*s);
  }
  return ShaderLibrary(std::move(s));
}

}  // namespace ingot
