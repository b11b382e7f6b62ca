#include "play/evaluation.h"

#include <algorithm>
#include <array>
#include <bit>

#include "play/changed_squares.h"
#include "play/square_values.h"

namespace materialist::play {

namespace {

using chess::Color;
using chess::PieceType;
constexpr int table_index(Color color, chess::Square square) {
  return color == Color::kWhite ? square.index() : square.index() ^ 56;
}

// The positional part each piece type adds on each square, beside the material part: a set's
// own tables less its material (their means), else the shared Simplified tables (none when
// material only).
SquareValues positional_part(const ValueSet& values, EvaluationOptions options) {
  SquareValues part;
  if (values.squares) {
    part = *values.squares;
    for (int type = 0; type < learn::kPieceKinds; ++type) {
      for (int square = 0; square < 64; ++square) {
        part.middlegame[type][square] -= values.middlegame[type];
        part.endgame[type][square] -= values.endgame[type];
      }
    }
    return part;
  }
  if (options.material_only) return part;
  part = simplified::square_values();
  for (int type = 0; type < learn::kPieceKinds; ++type) {
    for (int square = 0; square < 64; ++square) {
      part.middlegame[type][square] -= simplified::kPieceValues[type];
      part.endgame[type][square] -= simplified::kPieceValues[type];
    }
  }
  return part;
}

}  // namespace

Positional Evaluator::positional(const chess::Position& position) const {
  Positional sums;
  for (const chess::Square square : position.pieces()) {
    const Positional& entry = tables_[position.piece_on(square).code()][square.index()];
    sums.middlegame += entry.middlegame;
    sums.endgame += entry.endgame;
  }
  return sums;
}

Positional Evaluator::positional_after(const chess::Position& before, const chess::Position& after,
                                       Positional sums) const {
  for (const chess::Square square : changed_squares(before, after)) {
    const Positional& gone = tables_[before.piece_on(square).code()][square.index()];
    const Positional& come = tables_[after.piece_on(square).code()][square.index()];
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

Evaluator::Evaluator(const ValueSet& values, EvaluationOptions options) : values_(values) {
  const SquareValues part = positional_part(values, options);
  for (const Color color : {Color::kWhite, Color::kBlack}) {
    const int sign = color == Color::kWhite ? 1 : -1;
    for (int type = 0; type < kSquarePieceTypes; ++type) {
      for (int square = 0; square < 64; ++square) {
        const int index = table_index(color, chess::Square(square));
        tables_[chess::Piece(color, PieceType(type)).code()][square] = {
            sign * part.middlegame[type][index], sign * part.endgame[type][index]};
      }
    }
  }
  for (int type = 0; type < 5; ++type) {
    // A set of tables may weigh a piece at nothing in the middlegame: order by both phases.
    ordering_[type] = values.squares
                          ? std::max(1, (values.middlegame[type] + values.endgame[type]) / 2)
                          : values.middlegame[type];
  }
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
  return evaluate(position, positional(position));
}

int Evaluator::evaluate(const chess::Position& position, Positional sums) const {
  // The counts once: the phase is theirs (a popcount is a library call on plain x86-64).
  const learn::MaterialCounts counts = material_counts(position);
  const int phase = counts.phase();
  const int score =
      material_tapered(counts, phase) +
      (sums.middlegame * phase + sums.endgame * (learn::kMaxPhase - phase)) / learn::kMaxPhase;
  return position.side_to_move() == Color::kWhite ? score : -score;
}

}  // namespace materialist::play
