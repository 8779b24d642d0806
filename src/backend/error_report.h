// The host side of kernels/error_buffer.h, shared by the backends: turning the reports a kernel
// left in an ErrorBuffer into one message, and clearing the buffer for the next kernels.
#pragma once

#include <optional>
#include <string>

#include "kernels/error_buffer.h"

namespace ingot {

// One report as text: "<message with its values> (<function> at <file>:<line>)", or the message
// alone without the location.
std::string format_error_slot(const ErrorSlot& slot, bool with_location = true);

// nullopt when `buf` holds no report. Otherwise the first report's text (with its location
// unless with_location is false), followed by
// " [and N more errors]" when there were more, and `buf` is cleared. Call it only while no kernel
// can write to `buf` (after a synchronization, or after a CPU loop).
std::optional<std::string> take_error_reports(ErrorBuffer& buf, bool with_location = true);

// Forgets every report.
void clear_error_buffer(ErrorBuffer& buf);

}  // namespace ingot
