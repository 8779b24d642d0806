// Device-side error reports (DESIGN.md §6). A kernel that meets bad data (an index out of range)
// records where and why in an ErrorBuffer, skips the element and carries on; the host reads the
// buffer at the next synchronization that happens anyway and raises AcceleratorError (CUDA), or
// at once after the loop (CPU: IndexError). Portable subset: g++ and NVRTC compile this text.
//
//   INGOT_REPORT_ERROR(buf, "index %lld is out of bounds for size %lld", i, n);
//
// The message is a format whose integer conversions (%d, %ld, %lld, %i, %u with any 'l's) take
// the values in order (at most kErrorValues, each stored as int64); %% is a percent sign.
#pragma once

#include "ingot/portable.h"

namespace ingot {

inline constexpr int kErrorSlots = 8;
inline constexpr int kErrorValues = 4;
inline constexpr int kErrorFileBytes = 96;
inline constexpr int kErrorFunctionBytes = 64;
inline constexpr int kErrorMessageBytes = 128;

struct ErrorSlot {
  char file[kErrorFileBytes];  // every text is cut to fit and always NUL-terminated
  char function[kErrorFunctionBytes];
  char message[kErrorMessageBytes];  // the format, not yet formatted
  int64_t values[kErrorValues];
  int32_t line;
  int32_t nvalues;
  // Set last (after a fence) by the writer, so a reader never sees a half-written slot.
  uint32_t ready;
  uint32_t pad;
};

// One per stream (CUDA: in mapped pinned host memory, so the host reads it without a copy).
// `count` is every report since the last reset; only the first kErrorSlots keep their text.
struct ErrorBuffer {
  uint32_t count;
  uint32_t pad;
  ErrorSlot slots[kErrorSlots];
};

namespace detail {

INGOT_INLINE void copy_error_text(char* dst, const char* src, int capacity) {
  int i = 0;
  for (; i + 1 < capacity && src != nullptr && src[i] != '\0'; ++i) dst[i] = src[i];
  dst[i] = '\0';
}

INGOT_INLINE uint32_t claim_error_slot(ErrorBuffer* buf) {
#if defined(__CUDA_ARCH__)
  return atomicAdd(&buf->count, 1u);
#else
  return __atomic_fetch_add(&buf->count, 1u, __ATOMIC_RELAXED);
#endif
}

INGOT_INLINE void publish_error_slot(ErrorSlot* slot) {
#if defined(__CUDA_ARCH__)
  __threadfence_system();
  atomicExch(&slot->ready, 1u);
#else
  __atomic_store_n(&slot->ready, 1u, __ATOMIC_RELEASE);
#endif
}

template <typename... Values>
INGOT_INLINE void report_error(ErrorBuffer* buf, const char* file, const char* function, int line,
                               const char* message, Values... values) {
  static_assert(sizeof...(Values) <= kErrorValues,
                "INGOT_REPORT_ERROR takes at most kErrorValues values");
  if (buf == nullptr) return;
  const uint32_t n = claim_error_slot(buf);
  if (n >= static_cast<uint32_t>(kErrorSlots)) return;  // counted, text dropped
  ErrorSlot* slot = &buf->slots[n];
  copy_error_text(slot->file, file, kErrorFileBytes);
  copy_error_text(slot->function, function, kErrorFunctionBytes);
  copy_error_text(slot->message, message, kErrorMessageBytes);
  const int64_t stored[kErrorValues + 1] = {static_cast<int64_t>(values)..., 0};
  for (int k = 0; k < kErrorValues; ++k)
    slot->values[k] = k < static_cast<int>(sizeof...(Values)) ? stored[k] : 0;
  slot->nvalues = static_cast<int32_t>(sizeof...(Values));
  slot->line = line;
  publish_error_slot(slot);
}

}  // namespace detail
}  // namespace ingot

// Records one error in `buf` (an ingot::ErrorBuffer*, may be null: then nothing is recorded):
// the file, function and line of the call, the message format and up to four integer values.
#define INGOT_REPORT_ERROR(buf, ...) \
  ::ingot::detail::report_error((buf), __FILE__, __func__, __LINE__, __VA_ARGS__)
