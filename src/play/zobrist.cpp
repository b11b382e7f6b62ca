#include "play/zobrist.h"

#include <array>

#include "core/hash.h"

namespace materialist::play {

namespace {

// One random key per (piece code, square), castling rook square, en passant file and side, drawn
// from splitmix64 at compile time so every build and platform hashes alike.
struct Keys {
  std::array<std::array<std::uint64_t, 64>, 16> piece{};
  std::array<std::uint64_t, 64> castling_rook{};
  std::array<std::uint64_t, 8> en_passant_file{};
  std::uint64_t black_to_move = 0;
};

constexpr Keys make_keys() {
  Keys keys;
  std::uint64_t state = 0x4d6174657269616cULL;  // "Material"
  for (auto& squares : keys.piece) {
    for (auto& key : squares) key = splitmix64(state);
  }
  for (auto& key : keys.castling_rook) key = splitmix64(state);
  for (auto& key : keys.en_passant_file) key = splitmix64(state);
  keys.black_to_move = splitmix64(state);
  return keys;
}

constexpr Keys kKeys = make_keys();

}  // namespace

std::uint64_t zobrist_key(const chess::Position& position) {
  std::uint64_t key = 0;
  for (const chess::Square square : position.pieces()) {
    key ^= kKeys.piece[position.piece_on(square).code()][square.index()];
  }
  for (const chess::Square rook : position.castling_rooks())
    key ^= kKeys.castling_rook[rook.index()];
  const chess::Square en_passant = position.en_passant_square();
  if (!en_passant.is_none()) {
    const chess::Color us = position.side_to_move();
    // Our pawns that attack the square are those a pawn of theirs on it would attack.
    if ((chess::pawn_attacks(~us, en_passant) & position.pieces(us, chess::PieceType::kPawn))
            .any()) {
      key ^= kKeys.en_passant_file[en_passant.file()];
    }
  }
  if (position.side_to_move() == chess::Color::kBlack) key ^= kKeys.black_to_move;
  return key;
}

}  // namespace materialist::play
