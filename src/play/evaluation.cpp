#include "play/evaluation.h"

#include <algorithm>
#include <array>
#include <bit>

#include "play/changed_squares.h"

namespace materialist::play {

namespace {

using chess::Color;
using chess::PieceType;
using Table = std::array<int, 64>;

// Michniewski's tables as printed: from White's side, rank 8 first (index 0 = a8). A white
// piece on square s reads entry s ^ 56; a black piece reads entry s (the board seen from Black).
// clang-format off
constexpr Table kPawnTable = {
      0,   0,   0,   0,   0,   0,   0,   0,
     50,  50,  50,  50,  50,  50,  50,  50,
     10,  10,  20,  30,  30,  20,  10,  10,
      5,   5,  10,  25,  25,  10,   5,   5,
      0,   0,   0,  20,  20,   0,   0,   0,
      5,  -5, -10,   0,   0, -10,  -5,   5,
      5,  10,  10, -20, -20,  10,  10,   5,
      0,   0,   0,   0,   0,   0,   0,   0,
};
constexpr Table kKnightTable = {
    -50, -40, -30, -30, -30, -30, -40, -50,
    -40, -20,   0,   0,   0,   0, -20, -40,
    -30,   0,  10,  15,  15,  10,   0, -30,
    -30,   5,  15,  20,  20,  15,   5, -30,
    -30,   0,  15,  20,  20,  15,   0, -30,
    -30,   5,  10,  15,  15,  10,   5, -30,
    -40, -20,   0,   5,   5,   0, -20, -40,
    -50, -40, -30, -30, -30, -30, -40, -50,
};
constexpr Table kBishopTable = {
    -20, -10, -10, -10, -10, -10, -10, -20,
    -10,   0,   0,   0,   0,   0,   0, -10,
    -10,   0,   5,  10,  10,   5,   0, -10,
    -10,   5,   5,  10,  10,   5,   5, -10,
    -10,   0,  10,  10,  10,  10,   0, -10,
    -10,  10,  10,  10,  10,  10,  10, -10,
    -10,   5,   0,   0,   0,   0,   5, -10,
    -20, -10, -10, -10, -10, -10, -10, -20,
};
constexpr Table kRookTable = {
      0,   0,   0,   0,   0,   0,   0,   0,
      5,  10,  10,  10,  10,  10,  10,   5,
     -5,   0,   0,   0,   0,   0,   0,  -5,
     -5,   0,   0,   0,   0,   0,   0,  -5,
     -5,   0,   0,   0,   0,   0,   0,  -5,
     -5,   0,   0,   0,   0,   0,   0,  -5,
     -5,   0,   0,   0,   0,   0,   0,  -5,
      0,   0,   0,   5,   5,   0,   0,   0,
};
constexpr Table kQueenTable = {
    -20, -10, -10,  -5,  -5, -10, -10, -20,
    -10,   0,   0,   0,   0,   0,   0, -10,
    -10,   0,   5,   5,   5,   5,   0, -10,
     -5,   0,   5,   5,   5,   5,   0,  -5,
      0,   0,   5,   5,   5,   5,   0,  -5,
    -10,   5,   5,   5,   5,   5,   0, -10,
    -10,   0,   5,   0,   0,   0,   0, -10,
    -20, -10, -10,  -5,  -5, -10, -10, -20,
};
constexpr Table kKingMiddlegameTable = {
    -30, -40, -40, -50, -50, -40, -40, -30,
    -30, -40, -40, -50, -50, -40, -40, -30,
    -30, -40, -40, -50, -50, -40, -40, -30,
    -30, -40, -40, -50, -50, -40, -40, -30,
    -20, -30, -30, -40, -40, -30, -30, -20,
    -10, -20, -20, -20, -20, -20, -20, -10,
     20,  20,   0,   0,   0,   0,  20,  20,
     20,  30,  10,   0,   0,  10,  30,  20,
};
constexpr Table kKingEndgameTable = {
    -50, -40, -30, -20, -20, -30, -40, -50,
    -30, -20, -10,   0,   0, -10, -20, -30,
    -30, -10,  20,  30,  30,  20, -10, -30,
    -30, -10,  30,  40,  40,  30, -10, -30,
    -30, -10,  30,  40,  40,  30, -10, -30,
    -30, -10,  20,  30,  30,  20, -10, -30,
    -30, -30,   0,   0,   0,   0, -30, -30,
    -50, -30, -30, -30, -30, -30, -30, -50,
};
// clang-format on

constexpr std::array<const Table*, 5> kPieceTables = {&kPawnTable, &kKnightTable, &kBishopTable,
                                                      &kRookTable, &kQueenTable};

constexpr int table_index(Color color, chess::Square square) {
  return color == Color::kWhite ? square.index() ^ 56 : square.index();
}

// Each piece code's (type + 8 * colour) entry on each square, signed for White's point of view,
// with the king's middlegame and endgame tables; zero for the codes that are no piece.
struct SquareTables {
  std::array<std::array<Positional, 64>, 16> entry{};
};

constexpr SquareTables make_square_tables() {
  SquareTables tables;
  for (const Color color : {Color::kWhite, Color::kBlack}) {
    const int sign = color == Color::kWhite ? 1 : -1;
    for (int square = 0; square < 64; ++square) {
      const int index = table_index(color, chess::Square(square));
      for (int type = 0; type < 5; ++type) {
        const int value = sign * (*kPieceTables[type])[index];
        tables.entry[chess::Piece(color, PieceType(type)).code()][square] = {value, value};
      }
      tables.entry[chess::Piece(color, PieceType::kKing).code()][square] = {
          sign * kKingMiddlegameTable[index], sign * kKingEndgameTable[index]};
    }
  }
  return tables;
}

constexpr SquareTables kSquareTables = make_square_tables();

}  // namespace

Positional positional(const chess::Position& position) {
  Positional sums;
  for (const chess::Square square : position.pieces()) {
    const Positional& entry = kSquareTables.entry[position.piece_on(square).code()][square.index()];
    sums.middlegame += entry.middlegame;
    sums.endgame += entry.endgame;
  }
  return sums;
}

Positional positional_after(const chess::Position& before, const chess::Position& after,
                            Positional sums) {
  for (const chess::Square square : changed_squares(before, after)) {
    const Positional& gone = kSquareTables.entry[before.piece_on(square).code()][square.index()];
    const Positional& come = kSquareTables.entry[after.piece_on(square).code()][square.index()];
    sums.middlegame += come.middlegame - gone.middlegame;
    sums.endgame += come.endgame - gone.endgame;
  }
  return sums;
}

learn::MaterialCounts material_counts(const chess::Position& position) {
  learn::MaterialCounts counts;
  for (int type = 0; type < learn::kPieceKinds; ++type) {
    counts.white[type] = static_cast<std::uint8_t>(position.count(Color::kWhite, PieceType(type)));
    counts.black[type] = static_cast<std::uint8_t>(position.count(Color::kBlack, PieceType(type)));
  }
  counts.opposite_bishops = chess::opposite_coloured_bishops(position);  // the term's condition
  return counts;
}

Evaluator::Evaluator(const ValueSet& values, EvaluationOptions options)
    : values_(values), options_(options) {
  for (int type = 0; type < 5; ++type) ordering_[type] = values_.middlegame[type];
  ordering_[chess::index_of(PieceType::kKing)] = 20000;
}

int Evaluator::material_tapered(const learn::MaterialCounts& counts, int phase) const {
  int middlegame = 0;
  int endgame = 0;
  for (int type = 0; type < learn::kPieceKinds; ++type) {
    const int delta = counts.white[type] - counts.black[type];
    middlegame += delta * values_.middlegame[type];
    endgame += delta * values_.endgame[type];
  }
  const int pairs =
      (counts.white[learn::kBishopIndex] >= 2) - (counts.black[learn::kBishopIndex] >= 2);
  middlegame += pairs * values_.bishop_pair_middlegame;
  endgame += pairs * values_.bishop_pair_endgame;
  const int tapered =
      (middlegame * phase + endgame * (learn::kMaxPhase - phase)) / learn::kMaxPhase;
  int imbalance = 0;
  for (int term = 0; term < learn::kImbalanceTerms; ++term) {
    if (values_.imbalance[term] != 0) {
      imbalance += values_.imbalance[term] *
                   learn::imbalance_value(static_cast<learn::ImbalanceTerm>(term), counts);
    }
  }
  return tapered + imbalance;
}

int Evaluator::material(const chess::Position& position) const {
  const learn::MaterialCounts counts = material_counts(position);
  return material_tapered(counts, counts.phase());
}

int Evaluator::evaluate(const chess::Position& position) const {
  return evaluate(position, options_.material_only ? Positional{} : positional(position));
}

int Evaluator::evaluate(const chess::Position& position, Positional sums) const {
  // The counts once: the phase is theirs (a popcount is a library call on plain x86-64).
  const learn::MaterialCounts counts = material_counts(position);
  const int phase = counts.phase();
  int score = material_tapered(counts, phase);
  if (!options_.material_only) {
    score +=
        (sums.middlegame * phase + sums.endgame * (learn::kMaxPhase - phase)) / learn::kMaxPhase;
  }
  return position.side_to_move() == Color::kWhite ? score : -score;
}

}  // namespace materialist::play
