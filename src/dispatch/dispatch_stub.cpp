#include "dispatch/dispatch_stub.h"

#include "ingot/error.h"

namespace ingot {

void throw_not_implemented(std::string_view op, DeviceType device) {
  throw NotImplementedError(detail::concat(op, ": not implemented for device ", device));
}

namespace detail {
void throw_duplicate_kernel(std::string_view op) {
  throw ValueError(concat(op, ": a second kernel was registered for its stub"));
}
}  // namespace detail

}  // namespace ingot
