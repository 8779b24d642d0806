#include "backend/cuda/dynamic_library.h"

#include <dlfcn.h>

#include <utility>

namespace ingot::cuda {

DynamicLibrary DynamicLibrary::open_first(std::span<const std::string> candidates,
                                          std::string* tried) {
  DynamicLibrary lib;
  for (const std::string& candidate : candidates) {
    // RTLD_LOCAL: the CUDA symbols must not leak into the global namespace of the process, where
    // they could interpose on another copy of the same library (PyTorch's, CuPy's).
    void* handle = ::dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle != nullptr) {
      lib.handle_ = handle;
      lib.path_ = candidate;
      return lib;
    }
    if (tried != nullptr) {
      const char* why = ::dlerror();
      *tried += "\n  " + candidate + ": " + (why != nullptr ? why : "not loadable");
    }
  }
  return lib;
}

DynamicLibrary::DynamicLibrary(DynamicLibrary&& other) noexcept
    : handle_(std::exchange(other.handle_, nullptr)), path_(std::move(other.path_)) {}

DynamicLibrary& DynamicLibrary::operator=(DynamicLibrary&& other) noexcept {
  std::swap(handle_, other.handle_);
  std::swap(path_, other.path_);
  return *this;
}

DynamicLibrary::~DynamicLibrary() {
  if (handle_ != nullptr) ::dlclose(handle_);
}

void* DynamicLibrary::symbol(const char* name) const {
  return handle_ != nullptr ? ::dlsym(handle_, name) : nullptr;
}

std::vector<std::string> split_search_path(const char* list) {
  std::vector<std::string> dirs;
  if (list == nullptr) return dirs;
  std::string current;
  for (const char* p = list;; ++p) {
    if (*p == ':' || *p == '\0') {
      if (!current.empty()) dirs.push_back(std::move(current));
      current.clear();
      if (*p == '\0') break;
    } else {
      current += *p;
    }
  }
  return dirs;
}

}  // namespace ingot::cuda
