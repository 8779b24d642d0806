// DispatchStub: the kernel a structured op runs, one function for every backend. The generated
// structured impl does the meta step (TensorIterator set-up), then calls the stub with the
// iterator; the function hands it to the kernel library of the iterator's device, the op call's
// one device decision. src/native registers the functions; an empty stub is NotImplementedError.
#pragma once

#include <string_view>
#include <utility>

#include "ingot/device.h"

namespace ingot {

// Throws NotImplementedError "<op>: not implemented for device <device>".
[[noreturn]] void throw_not_implemented(std::string_view op, DeviceType device);

namespace detail {
// Aborts registration of a second kernel for one stub: the first would be lost silently.
[[noreturn]] void throw_duplicate_kernel(std::string_view op);

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

  // `device` only names the device in the error when nothing is registered.
  Ret operator()(DeviceType device, Args... args) const {
    if (fn_ == nullptr) throw_not_implemented(op_, device);
    return fn_(std::forward<Args>(args)...);
  }

  void register_kernel(FnPtr fn) {
    if (fn_ != nullptr) detail::throw_duplicate_kernel(op_);
    fn_ = fn;
  }

  bool has_kernel() const { return fn_ != nullptr; }
  constexpr std::string_view op() const { return op_; }

 private:
  std::string_view op_;
  FnPtr fn_ = nullptr;
};

}  // namespace ingot

// In the generated dispatch_stubs.h: DECLARE_DISPATCH(atan2_stub, void (*)(TensorIteratorBase&));
#define DECLARE_DISPATCH(name, fn_type) extern ::ingot::DispatchStub<fn_type> name
// In the generated generated_ops.cpp, once per stub.
#define DEFINE_DISPATCH(name) \
  constinit decltype(name) name { #name }

// In src/native: REGISTER_DISPATCH(atan2_stub, &atan2_kernel). The function serves every backend
// its ops.yaml dispatch line names: it reaches the backend's kernel library through the iterator.
#define REGISTER_DISPATCH(name, fn) \
  [[maybe_unused]] static const bool name##_registered = ((name).register_kernel(fn), true)
