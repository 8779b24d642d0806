// SHA-256 (FIPS 180-4), for cache keys and the payload check of cached kernel files.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace ingot::cuda {

class Sha256 {
 public:
  using Digest = std::array<uint8_t, 32>;

  Sha256& update(const void* data, std::size_t size);
  Sha256& update(std::string_view text) { return update(text.data(), text.size()); }
  // Appends the length before the text, so that consecutive fields cannot run into each other
  // ("ab" + "c" and "a" + "bc" hash differently).
  Sha256& update_field(std::string_view text);
  Digest finish();  // the object is spent afterwards

  static Digest digest(std::string_view text) { return Sha256().update(text).finish(); }
  static std::string hex(const Digest& digest);

 private:
  void compress(const uint8_t* block);

  std::array<uint32_t, 8> state_ = {0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
                                    0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u};
  std::array<uint8_t, 64> buffer_{};
  std::size_t buffered_ = 0;
  uint64_t total_bytes_ = 0;
};

}  // namespace ingot::cuda
