// Loading a shared library at run time (dlopen) and resolving its entry points by name, so that
// one ingot build runs with or without the CUDA driver and NVRTC installed.
#pragma once

#include <span>
#include <string>
#include <vector>

namespace ingot::cuda {

class DynamicLibrary {
 public:
  // Opens the first candidate that loads (a soname or a path); empty when none does. `tried`
  // collects each attempt and dlerror() for the error message of a caller that needs the library.
  static DynamicLibrary open_first(std::span<const std::string> candidates, std::string* tried);

  DynamicLibrary() = default;
  DynamicLibrary(DynamicLibrary&& other) noexcept;
  DynamicLibrary& operator=(DynamicLibrary&& other) noexcept;
  DynamicLibrary(const DynamicLibrary&) = delete;
  DynamicLibrary& operator=(const DynamicLibrary&) = delete;
  ~DynamicLibrary();

  explicit operator bool() const { return handle_ != nullptr; }
  const std::string& path() const { return path_; }
  // The address of `name`, or nullptr when the library does not export it.
  void* symbol(const char* name) const;

 private:
  void* handle_ = nullptr;
  std::string path_;
};

// Splits a ':'-separated list of directories (like PATH), skipping empty entries.
std::vector<std::string> split_search_path(const char* list);

}  // namespace ingot::cuda
