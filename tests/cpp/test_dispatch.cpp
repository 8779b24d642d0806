#include <gtest/gtest.h>

#include <string>

#include "dispatch/dispatch_stub.h"
#include "ingot/error.h"

namespace ingot {
namespace {

using AddOneFn = void (*)(int&);
void add_one(int& x) { x += 1; }
void add_ten(int& x) { x += 10; }

std::string message_of_call(const DispatchStub<AddOneFn>& stub, DeviceType device) {
  int x = 0;
  try {
    stub(device, x);
  } catch (const NotImplementedError& e) {
    return e.what();
  }
  return "";
}

TEST(DispatchStub, UnregisteredStubRaisesNotImplementedNamingOpAndDevice) {
  DispatchStub<AddOneFn> stub("atan2_stub");
  int x = 0;
  EXPECT_THROW(stub(DeviceType::CPU, x), NotImplementedError);
  EXPECT_EQ(message_of_call(stub, DeviceType::CUDA), "atan2: not implemented for device cuda");
}

TEST(DispatchStub, OpNameDropsStubSuffix) {
  constexpr DispatchStub<AddOneFn> stub("where_stub");
  static_assert(stub.op() == "where");
  EXPECT_EQ(stub.op(), "where");
}

TEST(DispatchStub, OneKernelServesEveryDevice) {
  DispatchStub<AddOneFn> stub("exp_stub");
  EXPECT_FALSE(stub.has_kernel());
  stub.register_kernel(&add_ten);
  int x = 0;
  stub(DeviceType::CPU, x);
  stub(DeviceType::CUDA, x);
  EXPECT_EQ(x, 20);
  EXPECT_TRUE(stub.has_kernel());
}

TEST(DispatchStub, SecondKernelIsRejected) {
  DispatchStub<AddOneFn> stub("mul_stub");
  stub.register_kernel(&add_one);
  EXPECT_THROW(stub.register_kernel(&add_ten), ValueError);
  int x = 0;
  stub(DeviceType::CPU, x);
  EXPECT_EQ(x, 1);
}

// The macro as src/native uses it, at namespace scope.
DispatchStub<AddOneFn> macro_stub("macro_stub");
REGISTER_DISPATCH(macro_stub, &add_one);

TEST(DispatchStub, RegisterMacroRegistersAtLoadTime) {
  int x = 0;
  macro_stub(DeviceType::CPU, x);
  EXPECT_EQ(x, 1);
}

}  // namespace
}  // namespace ingot
