// Threads the CPU backend runs a large op on. The default is OpenMP's (OMP_NUM_THREADS, else one
// per core); the environment variable INGOT_NUM_THREADS, read once at start-up, overrides it.
#pragma once

namespace ingot {

// n >= 1 threads from now on (ValueError otherwise); a build without OpenMP always uses one.
void set_num_threads(int n);
int get_num_threads();

// Which vector math the CPU backend's transcendentals run on here: "sleef-avx512f", "sleef-avx2"
// (either with "+libmvec" when glibc's vector library serves some float32 functions), or "scalar"
// (a CPU without AVX2, or INGOT_VEC_ISA=scalar), or "scalar (built without SLEEF)". docs/cpu.md.
const char* cpu_vector_math();

// How the CPU backend's arithmetic-bound loops treat data larger than the caches here: "assisted"
// (software prefetch, streaming stores for vector-math outputs) or "plain" (AMD CPUs with AVX-512);
// INGOT_CPU_MEMORY=assisted or =plain overrides it. docs/cpu.md "Memory policy".
const char* cpu_memory_policy();

}  // namespace ingot
