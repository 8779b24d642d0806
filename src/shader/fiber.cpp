#include "shader/fiber.h"

#include <cstdint>
#include <cstring>

#if defined(__x86_64__)
// ingot_shader_fiber_switch(void** save_sp, void* new_sp): pushes the SysV callee-saved registers
// and the x87/SSE control words, stores the stack pointer, loads the other one and pops its set.
asm(R"(
.text
.p2align 4
.globl ingot_shader_fiber_switch
.hidden ingot_shader_fiber_switch
.type ingot_shader_fiber_switch,@function
ingot_shader_fiber_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $8, %rsp
  stmxcsr (%rsp)
  fnstcw 4(%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  ldmxcsr (%rsp)
  fldcw 4(%rsp)
  addq $8, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
.size ingot_shader_fiber_switch,.-ingot_shader_fiber_switch
.section .note.GNU-stack,"",@progbits
.text
)");
extern "C" void ingot_shader_fiber_switch(void** save_sp, void* new_sp);
#endif

namespace ingot::shader {

#if defined(__x86_64__)

void make_fiber(FiberContext& f, char* stack, size_t bytes, void (*entry)()) {
  auto top = (reinterpret_cast<uintptr_t>(stack) + bytes) & ~uintptr_t{15};
  auto* slot = reinterpret_cast<uint64_t*>(top);
  // From the top: a null return address for `entry` (so it starts with rsp % 16 == 8, as after a
  // call), the address the switch returns to, six registers, then the control words.
  slot[-1] = 0;
  slot[-2] = reinterpret_cast<uint64_t>(entry);
  for (int r = 3; r <= 8; ++r) slot[-r] = 0;
  uint32_t mxcsr = 0;
  uint16_t fpcw = 0;
  asm volatile("stmxcsr %0" : "=m"(mxcsr));
  asm volatile("fnstcw %0" : "=m"(fpcw));
  uint64_t control = 0;
  std::memcpy(&control, &mxcsr, 4);
  std::memcpy(reinterpret_cast<char*>(&control) + 4, &fpcw, 2);
  slot[-9] = control;
  f.sp = &slot[-9];
}

void switch_fiber(FiberContext& from, FiberContext& to) { ingot_shader_fiber_switch(&from.sp, to.sp); }

#else

void make_fiber(FiberContext& f, char* stack, size_t bytes, void (*entry)()) {
  getcontext(&f.uc);
  f.uc.uc_stack.ss_sp = stack;
  f.uc.uc_stack.ss_size = bytes;
  f.uc.uc_link = nullptr;
  makecontext(&f.uc, entry, 0);
}

void switch_fiber(FiberContext& from, FiberContext& to) { swapcontext(&from.uc, &to.uc); }

#endif

}  // namespace ingot::shader
