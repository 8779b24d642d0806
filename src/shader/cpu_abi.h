// The interface between libingot's CPU runtime for compile_shader kernels (cpu_runtime.cpp) and a
// shader's shared object (built with cpu_dialect.h): plain structs and function pointers, so the
// shared object needs no symbol from libingot. Bump kAbiVersion when a layout changes.
#pragma once

namespace ingot::shader_abi {

inline constexpr int kAbiVersion = 1;
inline constexpr int kWarpSize = 32;

struct Dim {
  unsigned x, y, z;
};

struct Block;  // the runtime's, opaque here

// One CUDA thread of the emulation.
struct Thread {
  Dim thread_idx, block_idx, block_dim, grid_dim;
  void* dynamic_shared;             // extern __shared__ memory of the block
  unsigned long long* warp_slots;   // kWarpSize exchange slots of this thread's warp
  unsigned lane;                    // in the warp
  unsigned warp_lanes;              // threads the warp has (fewer in a block's last warp)
  Block* block;
  int index;                        // linear thread index in the block
};

struct Runtime {
  int abi_version;
  void (*sync_block)(Thread*);  // __syncthreads
  void (*sync_warp)(Thread*);   // __syncwarp and the warp exchanges
};

// What the shared object exports per kernel: runs one thread.
using Entry = void (*)(const Runtime*, Thread*, void* const* args);

}  // namespace ingot::shader_abi
