#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "core/sha256.h"

namespace materialist {
namespace {

std::string hash_of(const std::string& text) {
  Sha256 hash;
  hash.update(text.data(), text.size());
  return hash.hex();
}

TEST_CASE("sha256: the FIPS 180-2 vectors") {
  CHECK(hash_of("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(hash_of("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(hash_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST_CASE("sha256: one million 'a' fed in odd chunks") {
  const std::string chunk(997, 'a');
  Sha256 hash;
  std::size_t fed = 0;
  for (std::size_t size = 1; fed < 1000000; size = size % 131 + 7) {
    const std::size_t n = std::min({size, chunk.size(), 1000000 - fed});
    hash.update(chunk.data(), n);
    fed += n;
  }
  CHECK(hash.hex() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

}  // namespace
}  // namespace materialist
