// Imbalance terms: optional columns beyond the five piece values that read each side's absolute
// piece counts (RowKey::white_counts with the deltas), each White's term minus Black's, so a
// balanced position reads 0 and a term's coefficient is its value in log-odds (pawn = 100 units
// like the pieces).
//
//   const MaterialCounts c = ...;                        // P N B R Q per side
//   imbalance_value(ImbalanceTerm::kKnightPawns, c)      // Nw·(Pw−5) − Nb·(Pb−5)
//   parse_imbalance_list("knight-pawns,rook-pair")       // a bit set, or an error naming the word
//
// Definitions (w = White's counts, b = Black's; minors M = N + B):
//   knight-pawns        Nw·(Pw−5) − Nb·(Pb−5): a knight's value per own pawn on the board (Kaufman:
//                       +1/16 pawn per pawn above five); unit: value per knight per pawn
//   rook-pawns          Rw·(Pw−5) − Rb·(Pb−5): the same for rooks (Kaufman: −1/8 pawn per pawn)
//   rook-pair           [Rw ≥ 2] − [Rb ≥ 2]: redundancy of two rooks
//   queen-rook          [Qw ≥ 1 ∧ Rw ≥ 1] − [Qb ≥ 1 ∧ Rb ≥ 1]: queen-and-rook redundancy
//   minor-pair          [Mw ≥ 2 ∧ Bw < 2] − [Mb ≥ 2 ∧ Bb < 2]: two or more minors that do not
//                       hold the bishop pair (knight pair, or knight and bishop), so with the
//                       bishop-pair column the two pairs are measured apart
//   queen-knight        [Qw ≥ 1 ∧ Nw ≥ 1] − [Qb ≥ 1 ∧ Nb ≥ 1]: a queen with a knight (the
//                       article: a pair said to work well together)
//   rook-bishop         [Rw ≥ 1 ∧ Bw ≥ 1] − [Rb ≥ 1 ∧ Bb ≥ 1]: a rook with a bishop
//   opposite-bishops    [each side one bishop, on squares of different colours] · ΔM, with ΔM
//                       the 1-3-3-5-9 material balance in pawns (White's minus Black's): the
//                       feature is the same for both sides, so it is defined as what it changes,
//                       the weight of the material balance in such positions (the coefficient,
//                       in pawn = 100, is the change per pawn of balance: negative when opposite
//                       bishops make a material edge count less, as their drawish endings do)
//   last-pawn           [Pw = 1 ∧ endgame] − [Pb = 1 ∧ endgame], endgame = phase ≤ 6 (e.g. a
//                       rook and a minor a side at most): a side's single remaining pawn in the
//                       endgame, worth this much beyond a pawn's value
//   exchange-minors     E·[min(Mw, Mb) ≥ 1]; exchange-no-minors: E·[min(Mw, Mb) = 0], where the
//                       exchange E = +1 when ΔR = +1, ΔM = −1 and ΔQ = 0 (White has a rook for a
//                       minor, otherwise balanced in rooks, minors and queens; pawns free), −1 for
//                       Black, else 0: the exchange's worth beyond rook minus minor, with other
//                       minors left on the board (both sides keep one) or none (the rook side has
//                       no minor, the other side only the one it holds for the rook)
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/error.h"
#include "learn/vocabulary/material.h"

namespace materialist::learn {

enum class ImbalanceTerm : std::uint8_t {
  kKnightPawns,
  kRookPawns,
  kRookPair,
  kQueenRook,
  kMinorPair,
  kExchangeMinors,
  kExchangeNoMinors,
  kQueenKnight,  // the article's terms
  kRookBishop,
  kOppositeBishops,
  kLastPawn,
};
inline constexpr int kImbalanceTerms = 11;
// The column names (also the words of --imbalance), in ImbalanceTerm order.
inline constexpr std::array<const char*, kImbalanceTerms> kImbalanceNames = {
    "knight-pawns", "rook-pawns",       "rook-pair",          "queen-rook",
    "minor-pair",   "exchange-minors",  "exchange-no-minors", "queen-knight",
    "rook-bishop",  "opposite-bishops", "last-pawn"};
// People's labels and units, in ImbalanceTerm order.
inline constexpr std::array<const char*, kImbalanceTerms> kImbalanceLabels = {
    "Knight per own pawn",  "Rook per own pawn",     "Rook pair",           "Queen and rook",
    "Minor pair (not B+B)", "Exchange, minors left", "Exchange, no minors", "Queen and knight",
    "Rook and bishop",      "Opposite bishops",      "Last pawn (endgame)"};
inline constexpr std::array<const char*, kImbalanceTerms> kImbalanceUnits = {
    "per knight per pawn beyond 5",
    "per rook per pawn beyond 5",
    "per side with two rooks",
    "per side with queen and rook",
    "per side with the pair",
    "per exchange",
    "per exchange",
    "per side with queen and knight",
    "per side with rook and bishop",
    "per pawn of material balance",
    "per side with one pawn left"};
static_assert(static_cast<int>(ImbalanceTerm::kLastPawn) + 1 == kImbalanceTerms);
// The last-pawn term's endgame: a phase (MaterialCounts::phase) at most this.
inline constexpr int kLastPawnPhase = 6;

// A set of terms: bit i is ImbalanceTerm i.
using ImbalanceSet = std::uint16_t;
inline constexpr ImbalanceSet kAllImbalances = (1u << kImbalanceTerms) - 1;

constexpr bool has_term(ImbalanceSet set, ImbalanceTerm term) {
  return ((set >> static_cast<int>(term)) & 1u) != 0;
}

// The term's White-minus-Black value for these counts.
int imbalance_value(ImbalanceTerm term, const MaterialCounts& counts);

// "knight-pawns,rook-pair" or "all" (or "none", "") → the set; an unknown word is an error that
// names it and lists the terms.
Expected<ImbalanceSet> parse_imbalance_list(std::string_view text);
// The set as its words in term order, comma-separated ("" when empty).
std::string imbalance_list_text(ImbalanceSet set);
// The term of a column name, or −1.
int imbalance_index(std::string_view name);

}  // namespace materialist::learn
