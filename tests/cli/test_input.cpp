#include <doctest/doctest.h>

#include <string>

#include "cli/input.h"

using materialist::cli::compressed_file_message;
using materialist::cli::compressed_format;

TEST_CASE("cli input: compressed files are recognised by their magic bytes") {
  using namespace std::string_literals;
  const struct {
    std::string head;
    const char* name;
  } cases[] = {
      {"\x1F\x8B\x08\x00rest"s, "gzip"},
      {"\x28\xB5\x2F\xFD\x24\x00"s, "zstd"},
      {"BZh91AY&SY"s, "bzip2"},
      {"\xFD"
       "7zXZ\x00\x00\x04"s,
       "xz"},
      {"7z\xBC\xAF\x27\x1C\x00\x04"s, "7z"},
      {"PK\x03\x04\x14\x00"s, "zip"},
      {"PK\x05\x06\x00\x00"s, "zip"},
      {"Rar!\x1A\x07\x00\xCF"s, "rar"},
      {"Rar!\x1A\x07\x01\x00"s, "rar"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    const auto format = compressed_format(c.head);
    REQUIRE(format.has_value());
    CHECK(std::string(format->name) == c.name);
  }
  // PGN, .mat rows, a UTF-8 byte-order mark and near misses are not compressed.
  CHECK_FALSE(compressed_format("[Event \"Rated Blitz game\"]\n").has_value());
  CHECK_FALSE(compressed_format(" 1  0  0  0  0  2\n").has_value());
  CHECK_FALSE(compressed_format("\xEF\xBB\xBF[Event \"x\"]").has_value());
  CHECK_FALSE(compressed_format("BZh").has_value());
  CHECK_FALSE(compressed_format("BZhx").has_value());
  CHECK_FALSE(compressed_format("PK").has_value());
  CHECK_FALSE(compressed_format("").has_value());
}

TEST_CASE("cli input: the refusal names the file, the format and how to decompress it") {
  CHECK(compressed_file_message("games.pgn.zst", *compressed_format("\x28\xB5\x2F\xFD")) ==
        "games.pgn.zst is zstd-compressed: Materialist cannot read compressed files yet; "
        "decompress it first (zstd -d)");
  CHECK(compressed_file_message("games.zip", *compressed_format("PK\x03\x04")) ==
        "games.zip is a zip archive: Materialist cannot read compressed files yet; extract it "
        "first (unzip)");
}
