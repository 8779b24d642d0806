#include "backend/error_report.h"

#include <cstring>

#include "ingot/error.h"

namespace ingot {

namespace {

// Substitutes slot.values into the format: each %[l...](d|i|u) takes the next value, %% is '%'.
std::string format_message(const ErrorSlot& slot) {
  std::string out;
  const char* p = slot.message;
  int next = 0;
  while (*p != '\0') {
    if (*p != '%') {
      out += *p++;
      continue;
    }
    if (p[1] == '%') {
      out += '%';
      p += 2;
      continue;
    }
    const char* q = p + 1;
    while (*q == 'l') ++q;
    if ((*q == 'd' || *q == 'i' || *q == 'u') && next < slot.nvalues && next < kErrorValues) {
      out += std::to_string(slot.values[next++]);
      p = q + 1;
    } else {
      out += *p++;  // not a conversion we fill: kept as written
    }
  }
  return out;
}

}  // namespace

std::string format_error_slot(const ErrorSlot& slot, bool with_location) {
  if (!with_location) return format_message(slot);
  return detail::concat(format_message(slot), " (", slot.function, " at ", slot.file, ":",
                        slot.line, ")");
}

std::optional<std::string> take_error_reports(ErrorBuffer& buf, bool with_location) {
  const uint32_t count = __atomic_load_n(&buf.count, __ATOMIC_ACQUIRE);
  if (count == 0) return std::nullopt;
  const ErrorSlot& first = buf.slots[0];
  std::string text = __atomic_load_n(&first.ready, __ATOMIC_ACQUIRE) != 0
                         ? format_error_slot(first, with_location)
                         : std::string("a kernel reported an error but its text was not written");
  if (count > 1)
    text += detail::concat(" [and ", count - 1, " more error", count > 2 ? "s" : "", "]");
  clear_error_buffer(buf);
  return text;
}

void clear_error_buffer(ErrorBuffer& buf) {
  for (ErrorSlot& slot : buf.slots) __atomic_store_n(&slot.ready, 0u, __ATOMIC_RELAXED);
  __atomic_store_n(&buf.count, 0u, __ATOMIC_RELEASE);
}

}  // namespace ingot
