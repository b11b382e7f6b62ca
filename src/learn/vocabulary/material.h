// Material on the board as the learner sees it: piece counts per side (kings never count), the
// difference vector d = (ΔP, ΔN, ΔB, ΔR, ΔQ), white minus black, and the summaries richer
// models use (bishop-pair delta, game phase).
#pragma once

#include <array>
#include <cstdint>

namespace materialist::learn {

inline constexpr int kPieceKinds = 5;  // pawn, knight, bishop, rook, queen (the article's order)
enum PieceIndex : int { kPawnIndex, kKnightIndex, kBishopIndex, kRookIndex, kQueenIndex };

// White minus black count per piece kind, in the order P N B R Q.
using MaterialVector = std::array<std::int8_t, kPieceKinds>;

// The phase scale engines taper with: N = B = 1, R = 2, Q = 4 for both sides, capped at 24.
inline constexpr int kMaxPhase = 24;
inline constexpr std::array<int, kPieceKinds> kPhaseWeight = {0, 1, 1, 2, 4};

struct MaterialCounts {
  std::array<std::uint8_t, kPieceKinds> white{};
  std::array<std::uint8_t, kPieceKinds> black{};
  // Each side has exactly one bishop, on squares of different colours (from the board: counts
  // alone cannot tell; filled where the imbalance terms read it, else false).
  bool opposite_bishops = false;

  // The start position's material: 8 pawns, 2 knights, 2 bishops, 2 rooks, 1 queen a side.
  static constexpr MaterialCounts start() {
    MaterialCounts counts;
    counts.white = {8, 2, 2, 2, 1};
    counts.black = {8, 2, 2, 2, 1};
    return counts;
  }

  constexpr MaterialVector delta() const {
    MaterialVector d{};
    for (int i = 0; i < kPieceKinds; ++i) d[i] = static_cast<std::int8_t>(white[i] - black[i]);
    return d;
  }

  // +1 when only White has two or more bishops, -1 when only Black has, else 0. Counts alone
  // cannot tell the bishops' square colours; promotions to a second same-coloured bishop are rare.
  constexpr int bishop_pair_delta() const {
    return (white[kBishopIndex] >= 2 ? 1 : 0) - (black[kBishopIndex] >= 2 ? 1 : 0);
  }

  // Non-pawn material of both sides on the tapering scale, 24 at the start, 0 with bare pawns.
  constexpr int phase() const {
    int phase = 0;
    for (int i = 0; i < kPieceKinds; ++i) phase += kPhaseWeight[i] * (white[i] + black[i]);
    return phase < kMaxPhase ? phase : kMaxPhase;
  }

  friend constexpr bool operator==(const MaterialCounts&, const MaterialCounts&) = default;
};

}  // namespace materialist::learn
