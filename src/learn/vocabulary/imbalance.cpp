#include "learn/vocabulary/imbalance.h"

#include <algorithm>

#include "core/enum_names.h"

namespace materialist::learn {

namespace {

int minors(const std::array<std::uint8_t, kPieceKinds>& side) {
  return side[kKnightIndex] + side[kBishopIndex];
}

// Per side: the term's count for one side (the term is White's minus Black's).
int side_value(ImbalanceTerm term, const std::array<std::uint8_t, kPieceKinds>& side) {
  switch (term) {
    case ImbalanceTerm::kKnightPawns:
      return side[kKnightIndex] * (side[kPawnIndex] - 5);
    case ImbalanceTerm::kRookPawns:
      return side[kRookIndex] * (side[kPawnIndex] - 5);
    case ImbalanceTerm::kRookPair:
      return side[kRookIndex] >= 2 ? 1 : 0;
    case ImbalanceTerm::kQueenRook:
      return side[kQueenIndex] >= 1 && side[kRookIndex] >= 1 ? 1 : 0;
    case ImbalanceTerm::kMinorPair:
      return minors(side) >= 2 && side[kBishopIndex] < 2 ? 1 : 0;
    case ImbalanceTerm::kQueenKnight:
      return side[kQueenIndex] >= 1 && side[kKnightIndex] >= 1 ? 1 : 0;
    case ImbalanceTerm::kRookBishop:
      return side[kRookIndex] >= 1 && side[kBishopIndex] >= 1 ? 1 : 0;
    case ImbalanceTerm::kLastPawn:
      return side[kPawnIndex] == 1 ? 1 : 0;  // in the endgame only (imbalance_value)
    case ImbalanceTerm::kExchangeMinors:
    case ImbalanceTerm::kExchangeNoMinors:
    case ImbalanceTerm::kOppositeBishops:
      return 0;  // not a per-side term
  }
  return 0;
}

// +1 when White has a rook for a minor (rooks, minors and queens otherwise balanced), −1 when
// Black has, else 0.
int exchange(const MaterialCounts& c) {
  const int rooks = c.white[kRookIndex] - c.black[kRookIndex];
  const int minor = minors(c.white) - minors(c.black);
  if (c.white[kQueenIndex] != c.black[kQueenIndex]) return 0;
  if (rooks == 1 && minor == -1) return 1;
  if (rooks == -1 && minor == 1) return -1;
  return 0;
}

}  // namespace

int imbalance_value(ImbalanceTerm term, const MaterialCounts& counts) {
  if (term == ImbalanceTerm::kOppositeBishops) {
    if (!counts.opposite_bishops) return 0;
    constexpr std::array<int, kPieceKinds> kScale = {1, 3, 3, 5, 9};
    int balance = 0;
    for (int i = 0; i < kPieceKinds; ++i)
      balance += kScale[i] * (counts.white[i] - counts.black[i]);
    return balance;
  }
  if (term == ImbalanceTerm::kLastPawn && counts.phase() > kLastPawnPhase) return 0;
  if (term == ImbalanceTerm::kExchangeMinors || term == ImbalanceTerm::kExchangeNoMinors) {
    const int e = exchange(counts);
    const bool minors_left = std::min(minors(counts.white), minors(counts.black)) >= 1;
    return (minors_left == (term == ImbalanceTerm::kExchangeMinors)) ? e : 0;
  }
  return side_value(term, counts.white) - side_value(term, counts.black);
}

Expected<ImbalanceSet> parse_imbalance_list(std::string_view text) {
  if (text == "all") return kAllImbalances;
  ImbalanceSet set = 0;
  if (text.empty() || text == "none") return set;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view word = text.substr(start, comma - start);
    const int index = imbalance_index(word);
    if (index < 0) {
      return make_error(ErrorCode::kInvalidArgument,
                        "unknown imbalance term '" + std::string(word) +
                            "' (terms: " + listed(kImbalanceNames) + ", or all)");
    }
    set = static_cast<ImbalanceSet>(set | (1u << index));
    start = comma + 1;
  }
  return set;
}

std::string imbalance_list_text(ImbalanceSet set) {
  std::string text;
  for (int i = 0; i < kImbalanceTerms; ++i) {
    if (!has_term(set, static_cast<ImbalanceTerm>(i))) continue;
    if (!text.empty()) text += ',';
    text += kImbalanceNames[i];
  }
  return text;
}

int imbalance_index(std::string_view name) {
  for (int i = 0; i < kImbalanceTerms; ++i) {
    if (name == kImbalanceNames[i]) return i;
  }
  return -1;
}

}  // namespace materialist::learn
