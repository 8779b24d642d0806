// FunctionRef: a non-owning reference to a callable, for callbacks that run before the call that
// takes them returns. Unlike std::function it never allocates (a lambda capturing three
// references is already past libstdc++'s inline buffer).
#pragma once

#include <type_traits>
#include <utility>

namespace ingot {

template <typename Signature>
class FunctionRef;

template <typename R, typename... A>
class FunctionRef<R(A...)> {
 public:
  template <typename F, typename = std::enable_if_t<!std::is_same_v<std::decay_t<F>, FunctionRef>>>
  FunctionRef(F&& f)  // NOLINT: implicit, like std::function
      : object_(const_cast<void*>(static_cast<const void*>(&f))),
        call_([](void* object, A... args) -> R {
          return (*static_cast<std::remove_reference_t<F>*>(object))(std::forward<A>(args)...);
        }) {}
  R operator()(A... args) const { return call_(object_, std::forward<A>(args)...); }

 private:
  void* object_;
  R (*call_)(void*, A...);
};

}  // namespace ingot
