// DispatchStub: the kernel a structured op runs, one function pointer per backend. The generated
// structured impl does the meta step (TensorIterator set-up), then calls the stub with the
// iterator; src/native registers the functions. An empty slot raises NotImplementedError.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>
#include <utility>

#include "ingot/device.h"

namespace ingot {

// Throws NotImplementedError "<op>: not implemented for device <device>".
[[noreturn]] void throw_not_implemented(std::string_view op, DeviceType device);

namespace detail {
// Aborts registration of a second kernel for one (stub, backend): the first would be lost silently.
[[noreturn]] void throw_duplicate_kernel(std::string_view op, DeviceType device);

constexpr std::string_view op_name_of_stub(std::string_view stub) {
  constexpr std::string_view suffix = "_stub";
  return stub.ends_with(suffix) ? stub.substr(0, stub.size() - suffix.size()) : stub;
}
}  // namespace detail

template <typename FnPtr>
class DispatchStub;

template <typename Ret, typename... Args>
class DispatchStub<Ret (*)(Args...)> {
 public:
  using FnPtr = Ret (*)(Args...);

  // constexpr so every stub is constant-initialized: registrations in other files may run first.
  explicit constexpr DispatchStub(std::string_view stub_name)
      : op_(detail::op_name_of_stub(stub_name)) {}
  DispatchStub(const DispatchStub&) = delete;
  DispatchStub& operator=(const DispatchStub&) = delete;

  Ret operator()(DeviceType device, Args... args) const {
    const FnPtr fn = table_[index(device)];
    if (fn == nullptr) throw_not_implemented(op_, device);
    return fn(std::forward<Args>(args)...);
  }

  void register_kernel(DeviceType device, FnPtr fn) {
    if (table_[index(device)] != nullptr) detail::throw_duplicate_kernel(op_, device);
    table_[index(device)] = fn;
  }
  // One function for every backend: it picks the backend's kernel library from the iterator.
  void register_all(FnPtr fn) {
    for (int d = 0; d < kNumDeviceTypes; ++d) register_kernel(static_cast<DeviceType>(d), fn);
  }

  bool has_kernel(DeviceType device) const { return table_[index(device)] != nullptr; }
  constexpr std::string_view op() const { return op_; }

 private:
  static constexpr std::size_t index(DeviceType d) { return static_cast<std::size_t>(d); }

  std::string_view op_;
  std::array<FnPtr, kNumDeviceTypes> table_{};
};

}  // namespace ingot

// In the generated dispatch_stubs.h: DECLARE_DISPATCH(atan2_stub, void (*)(TensorIteratorBase&));
#define DECLARE_DISPATCH(name, fn_type) extern ::ingot::DispatchStub<fn_type> name
// In the generated generated_ops.cpp, once per stub.
#define DEFINE_DISPATCH(name) constinit decltype(name) name { #name }

// In src/native: REGISTER_DISPATCH(atan2_stub, &atan2_kernel); registers for every backend.
#define REGISTER_DISPATCH(name, fn) \
  [[maybe_unused]] static const bool name##_registered_all = ((name).register_all(fn), true)
#define REGISTER_CPU_DISPATCH(name, fn)                         \
  [[maybe_unused]] static const bool name##_registered_cpu = \
      ((name).register_kernel(::ingot::DeviceType::CPU, fn), true)
#define REGISTER_CUDA_DISPATCH(name, fn)                         \
  [[maybe_unused]] static const bool name##_registered_cuda = \
      ((name).register_kernel(::ingot::DeviceType::CUDA, fn), true)
