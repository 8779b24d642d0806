// The CUDA driver API, loaded at run time from libcuda.so.1 (never linked), so that one ingot
// build runs on machines without a GPU. Call driver entry points through driver():
//   INGOT_CU_CHECK(driver().cuMemAlloc(&ptr, bytes));
#pragma once

#include <cuda.h>

#include <cstdint>
#include <string>

namespace ingot::cuda {

// Every driver entry point ingot uses. cuda.h #defines most of these names to their current
// versioned symbol (cuMemAlloc -> cuMemAlloc_v2), so the member types and the dlsym names follow
// the header; the unversioned name is the fallback for drivers older than the header.
// clang-format off
#define INGOT_CUDA_DRIVER_FUNCTIONS(_) \
  _(cuInit) _(cuDriverGetVersion) _(cuGetErrorName) _(cuGetErrorString) \
  _(cuDeviceGetCount) _(cuDeviceGet) _(cuDeviceGetAttribute) _(cuDeviceGetName) \
  _(cuDeviceTotalMem) _(cuDevicePrimaryCtxRetain) _(cuDevicePrimaryCtxRelease) \
  _(cuCtxSetCurrent) _(cuCtxGetCurrent) \
  _(cuModuleLoadData) _(cuModuleUnload) _(cuModuleGetFunction) \
  _(cuFuncGetAttribute) _(cuFuncSetAttribute) _(cuOccupancyMaxPotentialBlockSize) \
  _(cuOccupancyMaxActiveBlocksPerMultiprocessor) \
  _(cuLaunchKernel) \
  _(cuStreamCreate) _(cuStreamDestroy) _(cuStreamSynchronize) _(cuStreamWaitEvent) \
  _(cuEventCreate) _(cuEventRecord) _(cuEventSynchronize) _(cuEventDestroy) \
  _(cuEventElapsedTime) \
  _(cuMemAlloc) _(cuMemFree) _(cuMemAllocAsync) _(cuMemFreeAsync) \
  _(cuDeviceGetDefaultMemPool) _(cuMemPoolSetAttribute) _(cuMemPoolGetAttribute) \
  _(cuMemPoolTrimTo) \
  _(cuMemcpyAsync) _(cuMemcpyHtoDAsync) _(cuMemcpyDtoHAsync) _(cuMemcpyDtoDAsync) \
  _(cuMemsetD8Async) \
  _(cuMemHostAlloc) _(cuMemFreeHost) _(cuMemHostRegister) _(cuMemHostUnregister) \
  _(cuMemHostGetDevicePointer) _(cuPointerGetAttribute) _(cuCtxSynchronize)
// clang-format on

// The resolved table. An entry the installed driver does not export points to a stub that returns
// CUDA_ERROR_NOT_FOUND, so INGOT_CU_CHECK reports it like any failed call instead of crashing.
struct DriverApi {
#define INGOT_CUDA_DRIVER_MEMBER(name) decltype(&::name) name = nullptr;
  INGOT_CUDA_DRIVER_FUNCTIONS(INGOT_CUDA_DRIVER_MEMBER)
#undef INGOT_CUDA_DRIVER_MEMBER
};

// The driver table, loading libcuda.so.1 on first use (once, thread-safe); nullptr when the
// library cannot be loaded or lacks cuInit. Never throws and prints nothing.
const DriverApi* driver_or_null();

// The driver table; throws AcceleratorError (naming the library and why it did not load) when
// there is none. cuInit has been called once, but its result is not checked here: is_available()
// and device code report it.
const DriverApi& driver();

// How many calls that block the host on the device (cuStreamSynchronize, cuEventSynchronize,
// cuCtxSynchronize) went through driver() so far: tests check that a feature adds none.
uint64_t host_synchronizations();

// The result of the single cuInit(0) call, or CUDA_ERROR_NOT_INITIALIZED without a driver.
CUresult driver_init_result();

// "<call> failed: <CUresult name> (<code>): <description>"; the code alone when the driver
// cannot name it.
std::string driver_error_message(const char* call, CUresult result);

// Throws AcceleratorError with driver_error_message(call, result) unless result is CUDA_SUCCESS.
void check_driver(CUresult result, const char* call);

}  // namespace ingot::cuda

// Evaluates a driver call and turns a failure into an ingot::AcceleratorError naming the call.
#define INGOT_CU_CHECK(expr)                                \
  do {                                                      \
    const CUresult ingot_cu_result_ = (expr);               \
    if (ingot_cu_result_ != CUDA_SUCCESS) [[unlikely]] {    \
      ::ingot::cuda::check_driver(ingot_cu_result_, #expr); \
    }                                                       \
  } while (0)
