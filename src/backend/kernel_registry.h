// The kernel registry every backend shares (DESIGN.md §3): one KernelSignature per instantiation
// of the registration macros in kernels/ops/*.h, whichever backend runs it. The CPU backend
// attaches function pointers to a signature's id; the CUDA backend compiles the signature's header
// with NVRTC on first use and caches the functions under the same id.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ingot/dtype.h"

namespace ingot {

// Tiled: a 2-d iteration where some operands are contiguous along one dim and others along the
// other (a transposed input); a backend may walk it in tiles (CUDA: through shared memory).
enum class KernelFlavor : int8_t { Dense, Scalar, Broadcast, Strided, Cast, Tiled };
inline constexpr std::array<KernelFlavor, 6> kAllFlavors = {
    KernelFlavor::Dense,   KernelFlavor::Scalar, KernelFlavor::Broadcast,
    KernelFlavor::Strided, KernelFlavor::Cast,   KernelFlavor::Tiled};
inline constexpr size_t kNumFlavors = kAllFlavors.size();
std::string_view flavor_name(KernelFlavor flavor);

// What one registered instantiation (all flavors) computes: operand dtypes as stored, and the
// compute types the functor receives (a lifted scalar is converted to args[i]).
struct KernelSignature {
  std::string op;
  ScalarType out = kFloat32;
  int ninputs = 0;
  std::array<ScalarType, 3> inputs{};
  std::array<ScalarType, 3> args{};
  std::optional<ScalarType> alpha;  // the alpha compute type, for ops taking alpha
  // Filled in by the registry:
  int id = -1;            // index into KernelRegistry::all() and backends' per-id tables
  std::string header;     // the kernels/ header that registers it ("kernels/ops/binary.h")
  std::string type_name;  // the macros' alias of its ElementwiseKernel type
  std::array<std::string, kNumFlavors> names;  // kernel_name() of each flavor
};

// Hash for string-keyed maps that look up by string_view without allocating.
struct StringHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};
template <typename V>
using StringMap = std::unordered_map<std::string, V, StringHash, std::equal_to<>>;

// <op>_<flavor>_<out>_<last input>[_<alpha>], e.g. atan2_dense_float32_float32.
std::string kernel_name(const KernelSignature& sig, KernelFlavor flavor);

class KernelRegistry {
 public:
  // Registers one instantiation; ValueError when its name is taken (a macro misuse).
  const KernelSignature& add(KernelSignature sig, std::string_view header);
  // The instantiations registered for `op` (empty when none).
  const std::vector<const KernelSignature*>& signatures(std::string_view op) const;
  // Every instantiation, by id; addresses stay valid as more register.
  const std::deque<KernelSignature>& all() const { return all_; }
  // The signature and flavor a kernel name stands for, or nullptr (tools, tests, precompile).
  const KernelSignature* find(std::string_view kernel_name, KernelFlavor* flavor = nullptr) const;

 private:
  std::deque<KernelSignature> all_;
  StringMap<std::vector<const KernelSignature*>> by_op_;
  StringMap<std::pair<int, KernelFlavor>> by_name_;
};

// The process-wide registry (filled at static-initialization time).
KernelRegistry& kernel_registry();

}  // namespace ingot
