#include <doctest/doctest.h>

#include "core/text.h"

using namespace materialist;

TEST_CASE("trim strips ASCII whitespace at both ends only") {
  CHECK(trim("  2450\r\n") == "2450");
  CHECK(trim("\t a b \t") == "a b");
  CHECK(trim("") == "");
  CHECK(trim(" \r\n\t\f\v") == "");
}

TEST_CASE("case-insensitive comparisons fold ASCII letters only") {
  CHECK(equals_ignoring_case("Chess960", "CHESS960"));
  CHECK_FALSE(equals_ignoring_case("chess", "chess960"));
  CHECK(contains_ignoring_case("Rated Blitz game", "BLITZ"));
  CHECK(contains_ignoring_case("anything", ""));
  CHECK_FALSE(contains_ignoring_case("blitz", "blitz game"));
  CHECK(ends_with_ignoring_case("games.MAT", ".mat"));
  CHECK_FALSE(ends_with_ignoring_case("mat", ".mat"));
  CHECK(to_lower("Éa-B") == "Éa-b");  // bytes above ASCII are left alone
}

TEST_CASE("parse_integer reads a whole decimal number within its range") {
  CHECK(parse_integer("12") == 12);
  CHECK(parse_integer("-7") == -7);
  CHECK(parse_integer("0", 0, 10) == 0);
  CHECK_FALSE(parse_integer("").has_value());
  CHECK_FALSE(parse_integer("12x").has_value());
  CHECK_FALSE(parse_integer(" 12").has_value());
  CHECK_FALSE(parse_integer("+12").has_value());
  CHECK_FALSE(parse_integer("101", 0, 100).has_value());
  CHECK_FALSE(parse_integer("-1", 0, 100).has_value());
  CHECK_FALSE(parse_integer("99999999999999999999").has_value());
  CHECK(parse_int("2147483647") == 2147483647);
  CHECK_FALSE(parse_int("2147483648").has_value());
  CHECK_FALSE(parse_int("5", 6).has_value());
}

TEST_CASE("parse_real reads a whole finite number, blanks around it allowed") {
  CHECK(parse_real("1e-6") == 1e-6);
  CHECK(parse_real(" -3.5\t") == -3.5);
  CHECK(parse_real("1.") == 1.0);
  CHECK_FALSE(parse_real("").has_value());
  CHECK_FALSE(parse_real("  ").has_value());
  CHECK_FALSE(parse_real("1e").has_value());
  CHECK_FALSE(parse_real("12 pawns").has_value());
  CHECK_FALSE(parse_real("inf").has_value());
  CHECK_FALSE(parse_real("nan").has_value());
  CHECK_FALSE(parse_real("1e999").has_value());
}

TEST_CASE("text: printable replaces control bytes and cuts long text at a character") {
  CHECK(printable("plain name.pgn") == "plain name.pgn");
  CHECK(printable("a\nb\r\x1b[2J\x07\x7f") == "a?b??[2J??");
  CHECK(printable("<script>") == "<script>");  // markup is text; the HTML mirror sets textContent
  CHECK(printable("Dvoretsky\xc3\xa9", 100) == "Dvoretsky\xc3\xa9");
  // 10 bytes allowed: "Dvoretsky" and the first byte of "é" would cut the character in two.
  CHECK(printable("Dvoretsky\xc3\xa9 and more", 10) == "Dvoretsky...");
  CHECK(printable(std::string(300, 'x')).size() == 256 + 3);
}

TEST_CASE("grouped writes counts with their thousands separated by commas") {
  CHECK(grouped(0) == "0");
  CHECK(grouped(999) == "999");
  CHECK(grouped(1000) == "1,000");
  CHECK(grouped(10000) == "10,000");
  CHECK(grouped(1234567) == "1,234,567");
  CHECK(grouped(18446744073709551615ull) == "18,446,744,073,709,551,615");
}
