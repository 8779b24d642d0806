// Sharded kernel translation units: cmake/IngotKernels.cmake may compile one kernels/ops/*.h header
// as several translation units (its heaviest headers, to spread their compile time over cores).
// Each defines INGOT_KERNEL_SHARDS (n) and INGOT_KERNEL_SHARD (k), and the unit whose k is a hash
// of the op's name modulo n instantiates and registers that op's kernels; the others only declare
// its kernel types. All of an op's registrations land in one unit, in source order, so the order in
// which the registries list an op's signatures (what lookups and error messages follow) does not
// depend on the sharding.
#pragma once

#include <cstdint>

#ifndef INGOT_KERNEL_SHARDS
#define INGOT_KERNEL_SHARDS 1
#define INGOT_KERNEL_SHARD 0
#endif

namespace ingot::cpu {

constexpr bool in_this_shard(const char* op) {
  uint32_t h = 2166136261u;  // FNV-1a
  for (; *op != '\0'; ++op) h = (h ^ static_cast<unsigned char>(*op)) * 16777619u;
  return h % INGOT_KERNEL_SHARDS == INGOT_KERNEL_SHARD;
}

}  // namespace ingot::cpu
