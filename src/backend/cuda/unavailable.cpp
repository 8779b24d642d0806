// Built instead of the CUDA backend when it is switched off (INGOT_CUDA=OFF or no CUDA headers):
// the public CUDA API reports no devices, and device tensors fail with a clear error.
#include "ingot/cuda.h"
#include "ingot/error.h"

namespace ingot::cuda {

namespace {
[[noreturn]] void unavailable(const char* what) {
  throw NotImplementedError(
      detail::concat(what, ": this ingot was built without the CUDA backend"));
}
}  // namespace

bool is_available() { return false; }
int device_count() { return 0; }
const DeviceProperties& device_properties(int) { unavailable("device_properties"); }
void synchronize(int) { unavailable("synchronize"); }
void make_stream_wait(int, std::uintptr_t) { unavailable("make_stream_wait"); }
MemoryStats memory_stats(int) { unavailable("memory_stats"); }
void reset_peak_memory_stats(int) { unavailable("reset_peak_memory_stats"); }
void empty_cache(int) { unavailable("empty_cache"); }
PrecompileReport precompile(int, int, int, const std::string&) { unavailable("precompile"); }

}  // namespace ingot::cuda
