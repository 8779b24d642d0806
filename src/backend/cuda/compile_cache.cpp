#include "backend/cuda/compile_cache.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <system_error>

#include "backend/cuda/cache_file.h"
#include "backend/cuda/sha256.h"

#ifndef INGOT_VERSION
#error "INGOT_VERSION (the project version) must be defined by the build"
#endif

namespace ingot::cuda {
namespace {

std::atomic<bool> g_disk_warning_printed{false};
std::atomic<uint64_t> g_temp_counter{0};

bool env_flag(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' && std::strcmp(v, "0") != 0;
}

// Writes all of `bytes` to a new file `path`; false (errno set) on any failure.
bool write_new_file(const std::string& path, const std::string& bytes) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  const char* p = bytes.data();
  std::size_t left = bytes.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int saved = errno;
      ::close(fd);
      errno = saved;
      return false;
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  // No fsync: after a crash the file may be short or garbled, and the payload hash turns that into
  // a miss.
  return ::close(fd) == 0;
}

}  // namespace

std::string cache_key(const CompileRequest& request, int nvrtc_version) {
  Sha256 h;
  h.update_field("ingot kernel cache key v1").update_field(INGOT_VERSION);
  h.update_field(std::to_string(nvrtc_version));
  h.update_field(std::to_string(request.arch_major) + "." + std::to_string(request.arch_minor));
  h.update_field(request.name).update_field(request.source);
  if (!request.headers_digest.empty()) {
    h.update_field("headers digest").update_field(request.headers_digest);
  } else {
    h.update_field(std::to_string(request.headers.size()));
    for (const HeaderSource& header : request.headers) {
      h.update_field(header.name).update_field(header.text);
    }
  }
  h.update_field(std::to_string(request.options.size()));
  for (const std::string& option : request.options) h.update_field(option);
  h.update_field(std::to_string(request.name_expressions.size()));
  for (const std::string& expression : request.name_expressions) h.update_field(expression);
  return Sha256::hex(h.finish());
}

std::vector<std::string_view> quoted_includes(std::string_view source) {
  std::vector<std::string_view> names;
  size_t pos = 0;
  while (pos < source.size()) {
    size_t end = source.find('\n', pos);
    if (end == std::string_view::npos) end = source.size();
    std::string_view line = source.substr(pos, end - pos);
    pos = end + 1;
    size_t i = line.find_first_not_of(" \t");
    if (i == std::string_view::npos || line[i] != '#') continue;
    i = line.find_first_not_of(" \t", i + 1);
    if (i == std::string_view::npos || line.substr(i, 7) != "include") continue;
    i = line.find_first_not_of(" \t", i + 7);
    if (i == std::string_view::npos || line[i] != '"') continue;
    const size_t close = line.find('"', i + 1);
    if (close != std::string_view::npos) names.push_back(line.substr(i + 1, close - i - 1));
  }
  return names;
}

HeaderDigests::HeaderDigests(std::span<const HeaderSource> headers) {
  entries_.reserve(headers.size());
  for (const HeaderSource& h : headers) {
    entries_.push_back({h.name, h.text, Sha256::hex(Sha256::digest(h.text)), {}});
  }
  std::sort(entries_.begin(), entries_.end(),
            [](const Entry& x, const Entry& y) { return x.name < y.name; });
  Sha256 all;
  for (Entry& e : entries_) all.update_field(e.name).update_field(e.text_hash);
  all_ = Sha256::hex(all.finish());
  for (Entry& e : entries_) {
    for (std::string_view inc : quoted_includes(e.text)) e.includes.push_back(find(inc));
  }
}

int HeaderDigests::find(std::string_view name) const {
  const auto it = std::lower_bound(entries_.begin(), entries_.end(), name,
                                   [](const Entry& e, std::string_view n) { return e.name < n; });
  return it != entries_.end() && it->name == name ? static_cast<int>(it - entries_.begin()) : -1;
}

std::string HeaderDigests::digest_for(std::string_view source) const {
  std::vector<char> seen(entries_.size(), 0);
  std::vector<int> pending;
  for (std::string_view inc : quoted_includes(source)) pending.push_back(find(inc));
  while (!pending.empty()) {
    const int k = pending.back();
    pending.pop_back();
    if (k < 0) return all_;
    if (seen[static_cast<size_t>(k)] != 0) continue;
    seen[static_cast<size_t>(k)] = 1;
    for (int inc : entries_[static_cast<size_t>(k)].includes) pending.push_back(inc);
  }
  Sha256 h;
  h.update_field("reachable headers");
  for (size_t k = 0; k < entries_.size(); ++k) {  // entries_ is in name order
    if (seen[k] != 0) h.update_field(entries_[k].name).update_field(entries_[k].text_hash);
  }
  return Sha256::hex(h.finish());
}

KernelCacheConfig KernelCacheConfig::from_environment() {
  if (env_flag("INGOT_DISABLE_DISK_CACHE")) return {};
  if (const char* dir = std::getenv("INGOT_CACHE_DIR"); dir != nullptr && *dir != '\0') {
    return {dir};
  }
  // The XDG base directory spec ignores relative paths.
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && xdg[0] == '/') {
    return {std::filesystem::path(xdg) / "ingot" / "kernels"};
  }
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    return {std::filesystem::path(home) / ".cache" / "ingot" / "kernels"};
  }
  return {};
}

KernelCache::KernelCache(KernelCacheConfig config)
    : directory_(std::move(config.directory)), disk_enabled_(!directory_.empty()) {}

std::filesystem::path KernelCache::file_for(const std::string& key) const {
  return directory_ / (key + ".bin");
}

KernelCache::Stats KernelCache::stats() const {
  return {memory_hits_.load(), disk_hits_.load(), misses_.load(), disk_writes_.load(),
          rejected_files_.load()};
}

void KernelCache::clear_memory() {
  std::lock_guard<std::mutex> lock(mutex_);
  entries_.clear();
}

#if INGOT_HAS_CUDA  // a build without CUDA uses the cache for compile_shader's CPU objects only
std::shared_ptr<const CompiledModule> KernelCache::get_or_compile(const CompileRequest& request) {
  return get_or_compile(cache_key(request, nvrtc_version()), [&] { return compile(request); });
}
#endif

std::shared_ptr<const CompiledModule> KernelCache::get_or_compile(
    const std::string& key, const std::function<CompiledModule()>& compile) {
  if (auto found = find(key)) return found;
  return store(key, compile());
}

std::shared_ptr<const CompiledModule> KernelCache::find(const std::string& key) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = entries_.find(key); it != entries_.end()) {
      ++memory_hits_;
      return it->second;
    }
  }
  if (auto loaded = load_file(key)) {
    ++disk_hits_;
    std::lock_guard<std::mutex> lock(mutex_);
    return entries_.try_emplace(key, std::move(loaded)).first->second;
  }
  ++misses_;
  return nullptr;
}

std::shared_ptr<const CompiledModule> KernelCache::store(const std::string& key,
                                                         CompiledModule module) {
  module.log.clear();  // warnings belong to the compile that printed them, not to later hits
  auto entry = std::make_shared<const CompiledModule>(std::move(module));
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto [it, inserted] = entries_.try_emplace(key, entry);
    if (!inserted) return it->second;  // another thread stored it first
  }
  write_file(key, *entry);
  return entry;
}

std::shared_ptr<const CompiledModule> KernelCache::load_file(const std::string& key) {
  if (!disk_enabled()) return nullptr;
  std::ifstream in(file_for(key), std::ios::binary);
  if (!in) return nullptr;  // not cached yet
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::optional<CompiledModule> module = decode_cache_file(bytes, key);
  if (!module) {
    ++rejected_files_;  // the next store replaces it
    return nullptr;
  }
  return std::make_shared<const CompiledModule>(std::move(*module));
}

void KernelCache::write_file(const std::string& key, const CompiledModule& module) {
  if (!disk_enabled()) return;
  std::call_once(directory_created_, [&] {
    std::error_code ec;
    std::filesystem::create_directories(directory_, ec);
    if (ec) disable_disk("cannot create it: " + ec.message());
  });
  if (!disk_enabled()) return;
  // A name unique to this write, in the same directory so that rename() is atomic: concurrent
  // writers of one key (threads, processes, hosts sharing the directory) each rename a complete
  // file, and the last one wins.
  static const uint64_t process_token = std::random_device{}();
  const std::string temp =
      (directory_ / (key + ".tmp." + std::to_string(::getpid()) + "." +
                     std::to_string(process_token) + "." + std::to_string(g_temp_counter++)))
          .string();
  if (!write_new_file(temp, encode_cache_file(key, module)) ||
      std::rename(temp.c_str(), file_for(key).c_str()) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(temp.c_str());
    disable_disk("cannot write " + temp + ": " + why);
    return;
  }
  ++disk_writes_;
}

void KernelCache::disable_disk(const std::string& why) {
  disk_enabled_.store(false);
  if (!g_disk_warning_printed.exchange(true)) {
    std::fprintf(stderr,
                 "ingot: warning: the kernel cache directory %s is not usable (%s); compiled "
                 "kernels are kept in memory only. Set INGOT_CACHE_DIR to a writable directory, "
                 "or INGOT_DISABLE_DISK_CACHE=1.\n",
                 directory_.c_str(), why.c_str());
  }
}

KernelCache& kernel_cache() {
  static KernelCache cache(KernelCacheConfig::from_environment());
  return cache;
}

namespace detail {
void reset_disk_cache_warning_for_testing() { g_disk_warning_printed.store(false); }
}  // namespace detail

}  // namespace ingot::cuda
