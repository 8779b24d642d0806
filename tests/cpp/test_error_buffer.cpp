// The host side of the device error buffer (kernels/error_buffer.h, src/backend/error_report.h):
// the report macro compiled by the host compiler, the formatting and the reset. The CUDA side
// (mapped memory, raising at a synchronization) is in cuda/test_cuda_error_buffer.cpp.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "backend/error_report.h"
#include "kernels/error_buffer.h"

namespace ingot {
namespace {

std::unique_ptr<ErrorBuffer> fresh_buffer() {
  auto buf = std::make_unique<ErrorBuffer>();
  clear_error_buffer(*buf);
  return buf;
}

TEST(ErrorBuffer, AnEmptyBufferHasNoReport) {
  auto buf = fresh_buffer();
  EXPECT_FALSE(take_error_reports(*buf).has_value());
}

TEST(ErrorBuffer, AReportRecordsFileFunctionLineAndValues) {
  auto buf = fresh_buffer();
  const int line = __LINE__ + 1;
  INGOT_REPORT_ERROR(buf.get(), "index %lld is out of bounds for size %lld", int64_t{-7}, 5);
  ASSERT_EQ(buf->count, 1u);
  const ErrorSlot& s = buf->slots[0];
  EXPECT_EQ(s.line, line);
  EXPECT_NE(std::string(s.file).find("test_error_buffer.cpp"), std::string::npos);
  EXPECT_NE(std::string(s.function).find("TestBody"), std::string::npos);
  EXPECT_EQ(s.nvalues, 2);
  EXPECT_EQ(s.values[0], -7);
  EXPECT_EQ(s.values[1], 5);
  EXPECT_EQ(format_error_slot(s).substr(0, 37), "index -7 is out of bounds for size 5 ");
}

TEST(ErrorBuffer, TakingTheReportsGivesTheFirstWithTheCountAndClears) {
  auto buf = fresh_buffer();
  for (int i = 0; i < 12; ++i) INGOT_REPORT_ERROR(buf.get(), "bad element %d", i);
  EXPECT_EQ(buf->count, 12u);  // every report counts; only kErrorSlots keep their text
  const auto text = take_error_reports(*buf);
  ASSERT_TRUE(text.has_value());
  EXPECT_EQ(text->rfind("bad element 0 (", 0), 0u) << *text;
  EXPECT_NE(text->find("[and 11 more errors]"), std::string::npos) << *text;
  EXPECT_EQ(buf->count, 0u);
  EXPECT_FALSE(take_error_reports(*buf).has_value());
  INGOT_REPORT_ERROR(buf.get(), "again %d", 3);
  EXPECT_EQ(take_error_reports(*buf)->rfind("again 3 (", 0), 0u);
}

TEST(ErrorBuffer, PercentSignsAndUnfilledConversionsAreKeptAsText) {
  auto buf = fresh_buffer();
  INGOT_REPORT_ERROR(buf.get(), "100%% of %d and %s and %d", 4);
  EXPECT_EQ(take_error_reports(*buf)->rfind("100% of 4 and %s and %d (", 0), 0u);
}

TEST(ErrorBuffer, LongTextIsCutAndTerminated) {
  auto buf = fresh_buffer();
  const std::string long_message(500, 'x');
  INGOT_REPORT_ERROR(buf.get(), long_message.c_str());
  EXPECT_EQ(std::string(buf->slots[0].message), std::string(kErrorMessageBytes - 1, 'x'));
}

TEST(ErrorBuffer, ANullBufferRecordsNothing) {
  ErrorBuffer* none = nullptr;
  INGOT_REPORT_ERROR(none, "ignored %d", 1);  // must not crash
  SUCCEED();
}

}  // namespace
}  // namespace ingot
