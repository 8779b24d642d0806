#include "shader/cpu_runtime.h"

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

#include "ingot/error.h"
#include "shader/fiber.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define INGOT_SHADER_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define INGOT_SHADER_ASAN 1
#endif
#if INGOT_SHADER_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

namespace ingot::shader_abi {

// A block's threads and their barrier state. A barrier is a counter and a generation: the last
// thread to arrive starts the next generation; the others yield to the scheduler until it starts.
struct Warp {
  unsigned arrived = 0, live = 0, generation = 0;
  unsigned long long slots[kWarpSize] = {};
};

struct Block {
  std::vector<Thread> threads;
  std::vector<Warp> warps;
  std::vector<shader::FiberContext> contexts;
  std::vector<unsigned char> finished;
  unsigned arrived = 0, live = 0, generation = 0;
  bool progress = false;  // something other than a re-check happened in this scheduler pass
  bool fibers = false;
  const char* misuse = nullptr;  // a barrier that could not be honoured
  shader::FiberContext scheduler;
  int running = -1;
  char* stacks = nullptr;
  size_t stack_bytes = 0;
#if INGOT_SHADER_ASAN
  void* scheduler_fake_stack = nullptr;
  const void* scheduler_bottom = nullptr;
  size_t scheduler_size = 0;
#endif
};

}  // namespace ingot::shader_abi

namespace ingot::shader {
namespace {

using shader_abi::Block;
using shader_abi::Thread;
using shader_abi::Warp;

#if INGOT_SHADER_ASAN
constexpr size_t kStackBytes = 512 * 1024;  // ASan's redzones make frames larger
#else
constexpr size_t kStackBytes = 128 * 1024;
#endif

// Fiber -> scheduler.
void yield_to_scheduler(Block& b) {
  Thread& t = b.threads[static_cast<size_t>(b.running)];
#if INGOT_SHADER_ASAN
  void* fake = nullptr;
  __sanitizer_start_switch_fiber(&fake, b.scheduler_bottom, b.scheduler_size);
  switch_fiber(b.contexts[static_cast<size_t>(t.index)], b.scheduler);
  __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#else
  switch_fiber(b.contexts[static_cast<size_t>(t.index)], b.scheduler);
#endif
}

// Waits until `generation` moves on; arrival bookkeeping is the caller's.
void wait_generation(Block& b, const unsigned& generation, unsigned seen) {
  if (!b.fibers) {
    if (b.misuse == nullptr) b.misuse = "a barrier was reached in a kernel run without fibers";
    return;
  }
  while (generation == seen) yield_to_scheduler(b);
  b.progress = true;
}

void sync_block(Thread* t) {
  Block& b = *t->block;
  b.progress = true;
  const unsigned seen = b.generation;
  if (++b.arrived == b.live) {
    b.arrived = 0;
    ++b.generation;
    return;
  }
  wait_generation(b, b.generation, seen);
}

void sync_warp(Thread* t) {
  Block& b = *t->block;
  Warp& w = b.warps[static_cast<size_t>(t->index) / shader_abi::kWarpSize];
  b.progress = true;
  const unsigned seen = w.generation;
  if (++w.arrived == w.live) {
    w.arrived = 0;
    ++w.generation;
    return;
  }
  wait_generation(b, w.generation, seen);
}

const shader_abi::Runtime kRuntime = {shader_abi::kAbiVersion, &sync_block, &sync_warp};

// Counts thread `t` out of its barriers: a barrier the others wait at completes without it.
void retire(Block& b, Thread& t) {
  Warp& w = b.warps[static_cast<size_t>(t.index) / shader_abi::kWarpSize];
  b.progress = true;
  if (--b.live > 0 && b.arrived == b.live) {
    b.arrived = 0;
    ++b.generation;
  }
  if (--w.live > 0 && w.arrived == w.live) {
    w.arrived = 0;
    ++w.generation;
  }
}

struct FiberStart {
  Block* block;
  const CpuLaunch* launch;
};
thread_local FiberStart g_start;

void fiber_main() {
  Block& b = *g_start.block;
  const CpuLaunch& launch = *g_start.launch;
#if INGOT_SHADER_ASAN
  __sanitizer_finish_switch_fiber(nullptr, &b.scheduler_bottom, &b.scheduler_size);
#endif
  Thread& t = b.threads[static_cast<size_t>(b.running)];
  launch.entry(&kRuntime, &t, launch.args);
  retire(b, t);
  b.finished[static_cast<size_t>(t.index)] = 1;
#if INGOT_SHADER_ASAN
  __sanitizer_start_switch_fiber(nullptr, b.scheduler_bottom, b.scheduler_size);  // frees its fake stack
#endif
  shader::FiberContext finished;
  switch_fiber(finished, b.scheduler);  // never resumed
}

// Fiber stacks of one OS thread, reused by every block it runs.
struct StackArena {
  char* base = nullptr;
  size_t bytes = 0;
  // A deadlocked block abandons its fibers mid-frame; under ASan their redzones stay poisoned.
  bool abandoned = false;
  ~StackArena() { release(); }
  // Fibers end inside a frame (the switch back), so their redzones stay poisoned: unpoison before
  // the memory goes back, or whatever is mapped there next inherits ASan's stale shadow.
  void release() {
    if (base == nullptr) return;
#if INGOT_SHADER_ASAN
    ASAN_UNPOISON_MEMORY_REGION(base, bytes);
#endif
    munmap(base, bytes);
    base = nullptr;
    bytes = 0;
  }
  char* get(size_t want) {
    if (abandoned) {
#if INGOT_SHADER_ASAN
      ASAN_UNPOISON_MEMORY_REGION(base, bytes);
#endif
      abandoned = false;
    }
    if (want <= bytes) return base;
    release();
    void* p = mmap(nullptr, want, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    INGOT_CHECK(p != MAP_FAILED, OutOfMemoryError, "compile_shader: cannot map ", want,
                " bytes of fiber stacks for a CPU block");
    base = static_cast<char*>(p);
    bytes = want;
    return base;
  }
};

void switch_to_fiber(Block& b, size_t i) {
  b.running = static_cast<int>(i);
#if INGOT_SHADER_ASAN
  void* fake = nullptr;
  __sanitizer_start_switch_fiber(&fake, b.stacks + i * b.stack_bytes, b.stack_bytes);
  switch_fiber(b.scheduler, b.contexts[i]);
  __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#else
  switch_fiber(b.scheduler, b.contexts[i]);
#endif
}

// Runs one block; returns an error message, or nullptr.
const char* run_block(Block& b, const CpuLaunch& launch, const uint32_t block_idx[3],
                      StackArena& arena, void* shared) {
  const uint32_t bx = launch.block[0], by = launch.block[1], bz = launch.block[2];
  const size_t n = static_cast<size_t>(bx) * by * bz;
  const size_t nwarps = (n + shader_abi::kWarpSize - 1) / shader_abi::kWarpSize;
  b.threads.resize(n);
  b.warps.assign(nwarps, Warp{});
  b.finished.assign(n, 0);
  b.arrived = 0;
  b.generation = 0;
  b.live = static_cast<unsigned>(n);
  b.misuse = nullptr;
  b.fibers = launch.fibers && n > 1;
  for (size_t i = 0; i < n; ++i) {
    Thread& t = b.threads[i];
    const size_t w = i / shader_abi::kWarpSize;
    t.thread_idx = {static_cast<unsigned>(i % bx), static_cast<unsigned>(i / bx % by),
                    static_cast<unsigned>(i / (static_cast<size_t>(bx) * by))};
    t.block_idx = {block_idx[0], block_idx[1], block_idx[2]};
    t.block_dim = {bx, by, bz};
    t.grid_dim = {launch.grid[0], launch.grid[1], launch.grid[2]};
    t.dynamic_shared = shared;
    t.warp_slots = b.warps[w].slots;
    t.lane = static_cast<unsigned>(i % shader_abi::kWarpSize);
    t.warp_lanes = static_cast<unsigned>(std::min<size_t>(shader_abi::kWarpSize, n - w * shader_abi::kWarpSize));
    t.block = &b;
    t.index = static_cast<int>(i);
    b.warps[w].live = t.warp_lanes;
  }
  if (!b.fibers) {
    for (size_t i = 0; i < n; ++i) {
      b.running = static_cast<int>(i);
      launch.entry(&kRuntime, &b.threads[i], launch.args);
      retire(b, b.threads[i]);
      if (b.misuse != nullptr) return b.misuse;
    }
    return nullptr;
  }
  b.stack_bytes = kStackBytes;
  b.stacks = arena.get(n * kStackBytes);
  b.contexts.resize(n);
  for (size_t i = 0; i < n; ++i) make_fiber(b.contexts[i], b.stacks + i * kStackBytes, kStackBytes, &fiber_main);
  std::vector<unsigned char> started(n, 0);
  for (;;) {
    bool all_done = true;
    b.progress = false;
    for (size_t i = 0; i < n; ++i) {
      if (b.finished[i]) continue;
      all_done = false;
      if (!started[i]) {
        started[i] = 1;
        b.progress = true;
        g_start = {&b, &launch};
      }
      switch_to_fiber(b, i);
    }
    if (all_done) return nullptr;
    if (!b.progress) {
      arena.abandoned = true;
      return "threads of a group wait at different barriers (a __syncthreads or warp exchange "
             "that not every thread of the group or warp reaches)";
    }
  }
}

}  // namespace

void run_cpu_kernel(const CpuLaunch& launch) {
  const int64_t gx = launch.grid[0], gy = launch.grid[1], gz = launch.grid[2];
  const int64_t nblocks = gx * gy * gz;
  std::atomic<bool> failed{false};
  std::mutex error_mutex;
  std::string error;
  const size_t shared_bytes = static_cast<size_t>(launch.dynamic_shared_bytes);
#if INGOT_HAS_OPENMP
#pragma omp parallel
#endif
  {
    StackArena arena;
    shader_abi::Block block;
    // 64-byte aligned, zero-size allowed; per OS thread, reused by its blocks like CUDA's.
    std::unique_ptr<unsigned char[]> shared(new unsigned char[shared_bytes + 64]);
    void* shared_ptr = shared.get() + (64 - reinterpret_cast<uintptr_t>(shared.get()) % 64) % 64;
#if INGOT_HAS_OPENMP
#pragma omp for schedule(dynamic, 1)
#endif
    for (int64_t k = 0; k < nblocks; ++k) {
      if (failed.load(std::memory_order_relaxed)) continue;
      const uint32_t idx[3] = {static_cast<uint32_t>(k % gx), static_cast<uint32_t>(k / gx % gy),
                               static_cast<uint32_t>(k / (gx * gy))};
      const char* why = nullptr;
      std::string thrown;
      try {
        why = run_block(block, launch, idx, arena, shared_ptr);
      } catch (const std::exception& e) {
        thrown = e.what();
        why = thrown.c_str();
      }
      if (why != nullptr && !failed.exchange(true)) {
        std::lock_guard<std::mutex> lock(error_mutex);
        error = detail::concat("compile_shader: kernel ", launch.kernel_name, " on the CPU, block (",
                               idx[0], ", ", idx[1], ", ", idx[2], "): ", why);
      }
    }
  }
  INGOT_CHECK(!failed.load(), AcceleratorError, error);
}

}  // namespace ingot::shader
