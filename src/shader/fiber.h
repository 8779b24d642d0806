// Minimal stackful fibers for the CPU runtime of compile_shader. On x86-64 a switch saves the
// callee-saved registers and the stack pointer (a few ns: glibc's swapcontext makes two
// sigprocmask system calls per switch, ~300 ns, which dominated kernels with barriers); other
// architectures use ucontext.
#pragma once

#include <cstddef>

#if !defined(__x86_64__)
#include <ucontext.h>
#endif

namespace ingot::shader {

struct FiberContext {
#if defined(__x86_64__)
  void* sp = nullptr;
#else
  ucontext_t uc{};
#endif
};

// Prepares `f` to start `entry` (which must never return) on [stack, stack + bytes).
void make_fiber(FiberContext& f, char* stack, size_t bytes, void (*entry)());

// Saves the running context into `from` and resumes `to`.
void switch_fiber(FiberContext& from, FiberContext& to);

}  // namespace ingot::shader
