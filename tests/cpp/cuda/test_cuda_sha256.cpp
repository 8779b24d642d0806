#include <gtest/gtest.h>

#include <string>

#include "backend/cuda/sha256.h"

using ingot::cuda::Sha256;

namespace {
std::string hex_of(std::string_view text) { return Sha256::hex(Sha256::digest(text)); }
}  // namespace

// FIPS 180-4 / NIST example vectors.
TEST(CudaSha256, MatchesKnownVectors) {
  EXPECT_EQ(hex_of(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(hex_of("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(hex_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(hex_of(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(CudaSha256, SplitUpdatesEqualOneUpdate) {
  const std::string text(1000, 'x');
  for (std::size_t cut : {0, 1, 55, 56, 63, 64, 65, 999}) {
    Sha256 h;
    h.update(std::string_view(text).substr(0, cut)).update(std::string_view(text).substr(cut));
    EXPECT_EQ(Sha256::hex(h.finish()), hex_of(text)) << "cut at " << cut;
  }
}

TEST(CudaSha256, FieldsDoNotRunIntoEachOther) {
  EXPECT_NE(Sha256().update_field("ab").update_field("c").finish(),
            Sha256().update_field("a").update_field("bc").finish());
}
