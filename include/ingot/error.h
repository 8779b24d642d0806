// ingot's exception hierarchy: every misuse raises a subclass of ingot::Error whose message names
// the function and the offending values. Python maps each subclass to the builtin of the same name.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace ingot {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& msg) : std::runtime_error(msg) {}
};

// Shapes, sizes and values that do not fit the operation.
class ValueError : public Error {
  using Error::Error;
};
// dtypes that cannot be used or cast as asked.
class TypeError : public Error {
  using Error::Error;
};
// A number that does not fit the dtype an op computes in (int8_tensor + 1000).
class OverflowError : public Error {
  using Error::Error;
};
// Indices and dims out of range.
class IndexError : public Error {
  using Error::Error;
};
// An op, kernel or device combination that is not provided.
class NotImplementedError : public Error {
  using Error::Error;
};
// Errors reported by a device (kernel-side errors, driver failures).
class AcceleratorError : public Error {
  using Error::Error;
};
// A device allocation failed for lack of memory (Python: MemoryError).
class OutOfMemoryError : public Error {
  using Error::Error;
};
// Runtime kernel compilation failed.
class CompileError : public Error {
  using Error::Error;
};

namespace detail {
template <typename... Args>
std::string concat(Args&&... args) {
  std::ostringstream os;
  (os << ... << std::forward<Args>(args));
  return os.str();
}
}  // namespace detail

}  // namespace ingot

// INGOT_CHECK(cond, ErrorType, parts...): throws ErrorType with the parts streamed together.
#define INGOT_CHECK(cond, ErrorType, ...)                          \
  do {                                                             \
    if (!(cond)) [[unlikely]] {                                    \
      throw ::ingot::ErrorType(::ingot::detail::concat(__VA_ARGS__)); \
    }                                                              \
  } while (0)
