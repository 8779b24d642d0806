// The cache of compiled kernel modules: in memory, and on disk so that a later process skips
// NVRTC. A key covers everything that can change the binary; every file carries the hash of its
// payload, and a file that does not check out is a miss (and gets replaced), never a crash.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "backend/cuda/nvrtc.h"

namespace ingot::cuda {

// Hex SHA-256 over the request (source, every header's name and text or headers_digest, options,
// arch, name expressions), the NVRTC version and ingot's version.
std::string cache_key(const CompileRequest& request, int nvrtc_version);

// The headers' part of a module's cache key: for each module source, a digest over only the
// headers it reaches through `#include "..."` (the embedded set is closed over such includes,
// codegen/embed_sources.py), so an edit to one kernel header changes the keys of the modules that
// include it and no others. Built once per header set; digest_for is thread-safe.
class HeaderDigests {
 public:
  explicit HeaderDigests(std::span<const HeaderSource> headers);
  // Hex SHA-256 over (name, hash of text) of every header `source` reaches, in name order; over
  // every header when one of its quoted includes names none of them (NVRTC would then fail, or
  // find it some other way: the key must not miss a change).
  std::string digest_for(std::string_view source) const;

 private:
  struct Entry {
    std::string_view name;
    std::string_view text;
    std::string text_hash;      // hex SHA-256 of the text
    std::vector<int> includes;  // indices of the headers it includes; -1: one not in the set
  };
  int find(std::string_view name) const;  // binary search
  std::vector<Entry> entries_;            // sorted by name
  std::string all_;                       // the digest over every header
};

// The quoted #include names of a source, in order.
std::vector<std::string_view> quoted_includes(std::string_view source);

struct KernelCacheConfig {
  std::filesystem::path directory;  // empty: memory only

  // INGOT_DISABLE_DISK_CACHE=1: memory only; else INGOT_CACHE_DIR, else
  // $XDG_CACHE_HOME/ingot/kernels, else ~/.cache/ingot/kernels.
  static KernelCacheConfig from_environment();
};

class KernelCache {
 public:
  struct Stats {
    uint64_t memory_hits = 0;
    uint64_t disk_hits = 0;
    uint64_t misses = 0;  // neither in memory nor (validly) on disk
    uint64_t disk_writes = 0;
    uint64_t rejected_files = 0;  // files found on disk that failed a check
  };

  explicit KernelCache(KernelCacheConfig config);

  // The module for `request`: from memory, else from disk, else compiled and stored in both.
  // Thread-safe; two threads missing the same key may both compile, and the first result wins.
  std::shared_ptr<const CompiledModule> get_or_compile(const CompileRequest& request);
  // The same with an explicit key and compiler.
  std::shared_ptr<const CompiledModule> get_or_compile(
      const std::string& key, const std::function<CompiledModule()>& compile);

  // Memory, then disk; nullptr on a miss.
  std::shared_ptr<const CompiledModule> find(const std::string& key);
  // Into memory, and atomically onto disk (temp file + rename). Returns the stored module.
  std::shared_ptr<const CompiledModule> store(const std::string& key, CompiledModule module);

  bool disk_enabled() const { return disk_enabled_.load(); }
  std::filesystem::path file_for(const std::string& key) const;
  Stats stats() const;
  void clear_memory();  // forgets the in-memory entries (the next find goes to disk)

 private:
  std::shared_ptr<const CompiledModule> load_file(const std::string& key);
  void write_file(const std::string& key, const CompiledModule& module);
  void disable_disk(const std::string& why);

  const std::filesystem::path directory_;
  std::atomic<bool> disk_enabled_;
  std::once_flag directory_created_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::shared_ptr<const CompiledModule>> entries_;
  std::atomic<uint64_t> memory_hits_{0}, disk_hits_{0}, misses_{0}, disk_writes_{0},
      rejected_files_{0};
};

// The process-wide cache, configured from the environment on first use.
KernelCache& kernel_cache();

namespace detail {
// Re-arms the once-per-process warning about an unusable cache directory (tests only).
void reset_disk_cache_warning_for_testing();
}  // namespace detail

}  // namespace ingot::cuda
