// The interface every backend's kernel library implements (DESIGN.md §3). The shared part here
// turns an iterator and an op name into a kernel name and its arguments: it picks the flavor,
// splits for 32-bit indexing and binds each operand from the (sub-)iterator. A backend only
// launches a kernel by name.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "iter/tensor_iterator.h"
#include "kernels/elementwise.h"

namespace ingot {

enum class KernelFlavor : int8_t { Dense, Scalar, Broadcast, Strided, Cast };
inline constexpr std::array<KernelFlavor, 5> kAllFlavors = {
    KernelFlavor::Dense, KernelFlavor::Scalar, KernelFlavor::Broadcast, KernelFlavor::Strided,
    KernelFlavor::Cast};
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
  // kernel_name() of each flavor, filled in by add_signature so launches build no strings.
  std::array<std::string, kAllFlavors.size()> names;
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

class KernelLibrary {
 public:
  virtual ~KernelLibrary() = default;
  virtual DeviceType device_type() const = 0;

  void exec_unary_kernel(TensorIteratorBase& iter, std::string_view op);
  void exec_binary_kernel(TensorIteratorBase& iter, std::string_view op);
  void exec_binary_kernel(TensorIteratorBase& iter, std::string_view op, const Scalar& alpha);
  void exec_ternary_kernel(TensorIteratorBase& iter, std::string_view op);

  // Called once per registered instantiation.
  void add_signature(const KernelSignature& sig);
  // The instantiations registered for `op` (empty when none).
  const std::vector<KernelSignature>& signatures(std::string_view op) const;

 protected:
  // Runs kernel `name` over elements [0, numel) of `args`; numel and every byte offset fit in
  // int32. A name the backend does not have is a NotImplementedError.
  virtual void launch(const std::string& name, const ElementwiseArgs& args, int64_t numel) = 0;

 private:
  void exec(TensorIteratorBase& iter, std::string_view op, int ninputs, const Scalar* alpha);
  void exec_32bit(const TensorIteratorBase& iter, std::string_view op, const Scalar* alpha);
  [[noreturn]] void throw_missing(const TensorIteratorBase& iter, std::string_view op) const;

  StringMap<std::vector<KernelSignature>> ops_;
};

// The library serving `device` (NotImplementedError when that backend is not built in).
KernelLibrary& kernel_library(DeviceType device);
// Backends call this from a static initializer.
void register_kernel_library(DeviceType device, KernelLibrary* library);

}  // namespace ingot
