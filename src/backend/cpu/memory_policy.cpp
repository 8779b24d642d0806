#include "backend/cpu/memory_policy.h"

#include <cstdlib>
#include <cstring>

namespace ingot::cpu {
namespace {

bool pick() {
  const char* want = std::getenv("INGOT_CPU_MEMORY");
  if (want != nullptr && std::strcmp(want, "assisted") == 0) return true;
  if (want != nullptr && std::strcmp(want, "plain") == 0) return false;
#if defined(__x86_64__) && defined(__GNUC__)
  __builtin_cpu_init();
  return !__builtin_cpu_is("amd");
#else
  return true;
#endif
}

}  // namespace

bool assisted_memory() {
  static const bool assisted = pick();
  return assisted;
}

const char* memory_policy() { return assisted_memory() ? "assisted" : "plain"; }

}  // namespace ingot::cpu
