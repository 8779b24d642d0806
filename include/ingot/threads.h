// Threads the CPU backend runs a large op on. The default is OpenMP's (OMP_NUM_THREADS, else one
// per core); the environment variable INGOT_NUM_THREADS, read once at start-up, overrides it.
#pragma once

namespace ingot {

// n >= 1 threads from now on (ValueError otherwise); a build without OpenMP always uses one.
void set_num_threads(int n);
int get_num_threads();

}  // namespace ingot
