#include "backend/cuda/cache_file.h"

#include <cstring>

#include "backend/cuda/sha256.h"

namespace ingot::cuda {
namespace {

// Little-endian fixed-width integers and length-prefixed strings.
template <typename T>
void put(std::string& out, T value) {
  for (std::size_t i = 0; i < sizeof(T); ++i) out += static_cast<char>(value >> (8 * i));
}
void put_field(std::string& out, std::string_view text) {
  put<uint64_t>(out, text.size());
  out += text;
}

// Reads the same back, failing (ok = false) instead of reading past the end.
struct Reader {
  std::string_view rest;
  bool ok = true;

  template <typename T>
  T get() {
    if (rest.size() < sizeof(T)) {
      ok = false;
      return T{};
    }
    T value{};
    for (std::size_t i = 0; i < sizeof(T); ++i) {
      value |= static_cast<T>(static_cast<T>(static_cast<unsigned char>(rest[i])) << (8 * i));
    }
    rest.remove_prefix(sizeof(T));
    return value;
  }
  std::string_view get_field() {
    const uint64_t size = get<uint64_t>();
    if (!ok || size > rest.size()) {
      ok = false;
      return {};
    }
    std::string_view field = rest.substr(0, size);
    rest.remove_prefix(size);
    return field;
  }
};

}  // namespace

std::string encode_cache_file(std::string_view key, const CompiledModule& module) {
  std::string payload;
  put_field(payload, key);
  put<uint8_t>(payload, static_cast<uint8_t>(module.kind));
  put<uint32_t>(payload, static_cast<uint32_t>(module.arch));
  put_field(payload, module.image);
  put<uint32_t>(payload, static_cast<uint32_t>(module.lowered_names.size()));
  for (const auto& [expression, symbol] : module.lowered_names) {
    put_field(payload, expression);
    put_field(payload, symbol);
  }
  const Sha256::Digest hash = Sha256::digest(payload);

  std::string out(kCacheFileMagic);
  put<uint32_t>(out, kCacheFileVersion);
  put<uint32_t>(out, 0);  // reserved
  put<uint64_t>(out, payload.size());
  out.append(reinterpret_cast<const char*>(hash.data()), hash.size());
  return out + payload;
}

std::optional<CompiledModule> decode_cache_file(std::string_view bytes, std::string_view key) {
  if (bytes.size() < kCacheFileHeaderSize || bytes.substr(0, 8) != kCacheFileMagic) return {};
  Reader header{bytes.substr(8, kCacheFileHeaderSize - 8)};
  const uint32_t version = header.get<uint32_t>();
  header.get<uint32_t>();
  const uint64_t payload_size = header.get<uint64_t>();
  const std::string_view payload = bytes.substr(kCacheFileHeaderSize);
  if (version != kCacheFileVersion || payload_size != payload.size()) return {};
  const Sha256::Digest hash = Sha256::digest(payload);
  if (std::memcmp(hash.data(), header.rest.data(), hash.size()) != 0) return {};

  Reader r{payload};
  if (r.get_field() != key) return {};
  CompiledModule module;
  const uint8_t kind = r.get<uint8_t>();
  module.arch = static_cast<int>(r.get<uint32_t>());
  module.image = r.get_field();
  const uint32_t names = r.get<uint32_t>();
  for (uint32_t i = 0; r.ok && i < names; ++i) {
    const std::string_view expression = r.get_field();
    const std::string_view symbol = r.get_field();
    module.lowered_names.emplace_back(expression, symbol);
  }
  if (!r.ok || !r.rest.empty()) return {};
  if (kind != static_cast<uint8_t>(BinaryKind::Cubin) &&
      kind != static_cast<uint8_t>(BinaryKind::Ptx)) {
    return {};
  }
  module.kind = static_cast<BinaryKind>(kind);
  return module;
}

}  // namespace ingot::cuda
