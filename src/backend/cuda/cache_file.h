// The on-disk format of one kernel cache entry: a fixed header (magic, format version, payload
// length, SHA-256 of the payload) and the payload (the key, then the compiled module).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "backend/cuda/nvrtc.h"

namespace ingot::cuda {

inline constexpr std::string_view kCacheFileMagic = "INGOTKRN";
inline constexpr uint32_t kCacheFileVersion = 1;
inline constexpr std::size_t kCacheFileHeaderSize = 8 + 4 + 4 + 8 + 32;

// The bytes of the file for `module` under `key` (the log is not kept).
std::string encode_cache_file(std::string_view key, const CompiledModule& module);

// The module in `bytes`, or nullopt when anything is off: the size, magic, version, payload hash,
// the payload's structure, or a key other than `key` (a file copied under another name).
std::optional<CompiledModule> decode_cache_file(std::string_view bytes, std::string_view key);

}  // namespace ingot::cuda
