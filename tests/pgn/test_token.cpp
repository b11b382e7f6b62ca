#include <doctest/doctest.h>

#include "pgn/token.h"

namespace materialist::pgn {
namespace {

TokenPiece piece(std::string_view token) {
  return next_token_piece(token);
}

TEST_CASE("pgn/token: SAN moves keep check signs and lose annotation glyphs") {
  CHECK(piece("e4").kind == TokenKind::kMove);
  CHECK(piece("e4").text == "e4");
  CHECK(piece("Nbd7+").text == "Nbd7+");
  CHECK(piece("exd8=Q#").text == "exd8=Q#");
  CHECK(piece("e4!?").text == "e4");
  CHECK(piece("e4!?").length == 2);
  CHECK(piece("Qh5$1").text == "Qh5");
  CHECK(piece("O-O-O").text == "O-O-O");
  CHECK(piece("e8=Q+").text == "e8=Q+");
  CHECK(piece("Bb5+-").text == "Bb5");
  CHECK(piece("Bb5+-").length == 3);
  CHECK(piece("e4=+").text == "e4");
  CHECK(piece("Nf3+/-").text == "Nf3");
  CHECK(piece("Qh5-+").text == "Qh5");
  CHECK(piece("Rd1+=").text == "Rd1");
}

TEST_CASE("pgn/token: castling with zeros and the null move are normalised") {
  CHECK(piece("0-0").text == "O-O");
  CHECK(piece("0-0-0+").text == "O-O-O+");
  CHECK(piece("0-0!").length == 3);
  CHECK(piece("Z0").text == "--");
  CHECK(piece("--").text == "--");
  CHECK(piece("--").kind == TokenKind::kMove);
}

TEST_CASE("pgn/token: move numbers split off glued moves") {
  const TokenPiece number = piece("12...Nf3");
  CHECK(number.kind == TokenKind::kMoveNumber);
  CHECK(number.number == 12);
  CHECK(number.length == 5);
  CHECK(piece("7.").length == 2);
  CHECK(piece("7").kind == TokenKind::kMoveNumber);
  CHECK(piece("7x").kind == TokenKind::kInvalid);
}

TEST_CASE("pgn/token: results, NAGs, glyphs and the bare ellipsis") {
  CHECK(piece("1-0").kind == TokenKind::kResult);
  CHECK(piece("0-1").text == "0-1");
  CHECK(piece("1/2-1/2").text == "1/2-1/2");
  CHECK(piece("*").text == "*");
  CHECK(piece("\xC2\xBD-\xC2\xBD").text == "1/2-1/2");
  CHECK(piece("\xBD-\xBD").text == "1/2-1/2");
  CHECK(piece("$14").kind == TokenKind::kNag);
  CHECK(piece("$").kind == TokenKind::kInvalid);
  CHECK(piece("!?").kind == TokenKind::kGlyph);
  CHECK(piece("+-").kind == TokenKind::kGlyph);
  CHECK(piece("...").kind == TokenKind::kMissingMove);
  CHECK(piece("..").kind == TokenKind::kGlyph);
}

TEST_CASE("pgn/token: garbage is invalid as a whole") {
  CHECK(piece("\xFF\xD8\xFF").kind == TokenKind::kInvalid);
  CHECK(piece("\xFF\xD8\xFF").length == 3);
  CHECK(piece("%x").kind == TokenKind::kInvalid);
  CHECK(piece("1/2").kind == TokenKind::kInvalid);
  CHECK(piece("xyz").kind == TokenKind::kInvalid);
}

}  // namespace
}  // namespace materialist::pgn
