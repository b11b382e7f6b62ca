#include "play/zobrist.h"

#include <array>

#include "core/hash.h"
#include "play/changed_squares.h"

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
  // An empty square adds nothing (its row is drawn all the same, so the others are unchanged).
  keys.piece[chess::Piece().code()] = {};
  return keys;
}

constexpr Keys kKeys = make_keys();

// The en passant file's key when a pawn of the side to move could capture there, else 0.
std::uint64_t en_passant_key(const chess::Position& position) {
  const chess::Square en_passant = position.en_passant_square();
  if (en_passant.is_none()) return 0;
  const chess::Color us = position.side_to_move();
  // Our pawns that attack the square are those a pawn of theirs on it would attack.
  if ((chess::pawn_attacks(~us, en_passant) & position.pieces(us, chess::PieceType::kPawn)).any()) {
    return kKeys.en_passant_file[en_passant.file()];
  }
  return 0;
}

}  // namespace

std::uint64_t zobrist_key(const chess::Position& position) {
  std::uint64_t key = 0;
  for (const chess::Square square : position.pieces()) {
    key ^= kKeys.piece[position.piece_on(square).code()][square.index()];
  }
  for (const chess::Square rook : position.castling_rooks())
    key ^= kKeys.castling_rook[rook.index()];
  key ^= en_passant_key(position);
  if (position.side_to_move() == chess::Color::kBlack) key ^= kKeys.black_to_move;
  return key;
}

std::uint64_t zobrist_key_after(const chess::Position& before, std::uint64_t before_key,
                                const chess::Position& after) {
  std::uint64_t key = before_key;
  for (const chess::Square square : changed_squares(before, after)) {
    key ^= kKeys.piece[before.piece_on(square).code()][square.index()] ^
           kKeys.piece[after.piece_on(square).code()][square.index()];
  }
  for (const chess::Square rook : before.castling_rooks() ^ after.castling_rooks()) {
    key ^= kKeys.castling_rook[rook.index()];
  }
  key ^= en_passant_key(before) ^ en_passant_key(after);
  if (before.side_to_move() != after.side_to_move()) key ^= kKeys.black_to_move;
  return key;
}

}  // namespace materialist::play
