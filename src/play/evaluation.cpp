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
  has_imbalance_ = std::any_of(values.imbalance.begin(), values.imbalance.end(),
                               [](int value) { return value != 0; });
}

Evaluator::Balance Evaluator::balance_of(const learn::MaterialCounts& counts) {
  Balance balance;
  for (int type = 0; type < learn::kPieceKinds; ++type) {
    balance.delta[type] = counts.white[type] - counts.black[type];
  }
  balance.pairs = counts.bishop_pair_delta();
  balance.phase = counts.phase();
  return balance;
}

// The same as balance_of(material_counts(position)), read straight from the position's counts:
// a MaterialCounts written byte by byte and read back as words stalled store-to-load forwarding,
// a third of the evaluation's time.
Evaluator::Balance Evaluator::balance_of(const chess::Position& position) {
  Balance balance;
  int phase = 0;
  for (int type = 0; type < learn::kPieceKinds; ++type) {
    const int white = position.count(Color::kWhite, PieceType(type));
    const int black = position.count(Color::kBlack, PieceType(type));
    balance.delta[type] = white - black;
    phase += learn::kPhaseWeight[type] * (white + black);
  }
  balance.pairs = (position.count(Color::kWhite, PieceType::kBishop) >= 2 ? 1 : 0) -
                  (position.count(Color::kBlack, PieceType::kBishop) >= 2 ? 1 : 0);
  balance.phase = std::min(phase, learn::kMaxPhase);
  return balance;
}

int Evaluator::tapered(const Balance& balance) const {
  int middlegame = balance.pairs * values_.bishop_pair_middlegame;
  int endgame = balance.pairs * values_.bishop_pair_endgame;
  for (int type = 0; type < learn::kPieceKinds; ++type) {
    middlegame += balance.delta[type] * values_.middlegame[type];
    endgame += balance.delta[type] * values_.endgame[type];
  }
  return (middlegame * balance.phase + endgame * (learn::kMaxPhase - balance.phase)) /
         learn::kMaxPhase;
}

int Evaluator::imbalance(const learn::MaterialCounts& counts) const {
  int sum = 0;
  for (int term = 0; term < learn::kImbalanceTerms; ++term) {
    if (values_.imbalance[term] != 0) {
      sum += values_.imbalance[term] *
             learn::imbalance_value(static_cast<learn::ImbalanceTerm>(term), counts);
    }
  }
  return sum;
}

int Evaluator::material(const chess::Position& position) const {
  const learn::MaterialCounts counts = material_counts(position);
  return tapered(balance_of(counts)) + imbalance(counts);
}

int Evaluator::evaluate(const chess::Position& position) const {
  return evaluate(position, positional(position));
}

int Evaluator::evaluate(const chess::Position& position, Positional sums) const {
  const Balance balance = balance_of(position);
  const int phase = balance.phase;
  int score =
      tapered(balance) +
      (sums.middlegame * phase + sums.endgame * (learn::kMaxPhase - phase)) / learn::kMaxPhase;
  if (has_imbalance_) score += imbalance(material_counts(position));
  return position.side_to_move() == Color::kWhite ? score : -score;
}

}  // namespace materialist::play
