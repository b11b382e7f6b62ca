#include "learn/fit/design.h"

#include <algorithm>
#include <numeric>

#include "learn/vocabulary/imbalance.h"
#include "learn/vocabulary/pieces.h"

namespace materialist::learn {

std::string Feature::name() const {
  const std::string piece_name(kPieces[std::clamp(piece, 0, kPieceKinds - 1)].column);
  switch (kind) {
    case FeatureKind::kDelta:
      return piece_name;
    case FeatureKind::kDeltaMidgame:
      return piece_name + "-mg";
    case FeatureKind::kDeltaEndgame:
      return piece_name + "-eg";
    case FeatureKind::kIntercept:
      return "intercept";
    case FeatureKind::kBishopPair:
      return "bishop-pair";
    case FeatureKind::kSideToMove:
      return "side-to-move";
    case FeatureKind::kRatingDiff:
      return "rating-diff";
    case FeatureKind::kImbalance:
      return kImbalanceNames[std::clamp(piece, 0, kImbalanceTerms - 1)];
    case FeatureKind::kOwnCount:
      return "own-" + piece_name;
    case FeatureKind::kOpponentCount:
      return "opponent-" + piece_name;
  }
  return "unknown";
}

double Feature::value(const RowKey& key) const {
  const double delta = key.delta[std::clamp(piece, 0, kPieceKinds - 1)];
  switch (kind) {
    case FeatureKind::kDelta:
      return delta;
    case FeatureKind::kDeltaMidgame:
      return delta * key.phase / kMaxPhase;
    case FeatureKind::kDeltaEndgame:
      return delta * (kMaxPhase - key.phase) / kMaxPhase;
    case FeatureKind::kIntercept:
      return 1.0;
    case FeatureKind::kBishopPair:
      return key.bishop_pair;
    case FeatureKind::kSideToMove:
      return key.black_to_move ? -1.0 : 1.0;
    case FeatureKind::kRatingDiff:
      return key.rating_known ? key.rating_diff / 100.0 : 0.0;
    case FeatureKind::kImbalance:
      return imbalance_value(static_cast<ImbalanceTerm>(std::clamp(piece, 0, kImbalanceTerms - 1)),
                             key.counts());
    case FeatureKind::kOwnCount:
      return key.white_counts[std::clamp(piece, 0, kPieceKinds - 1)];
    case FeatureKind::kOpponentCount:
      return -static_cast<double>(key.counts().black[std::clamp(piece, 0, kPieceKinds - 1)]);
  }
  return 0.0;
}

ModelSpec ModelSpec::article() {
  ModelSpec model;
  for (int piece = kPawnIndex; piece <= kQueenIndex; ++piece) {
    model.features.push_back({FeatureKind::kDelta, piece});
  }
  return model;
}

int ModelSpec::pawn_column() const {
  for (std::size_t i = 0; i < features.size(); ++i) {
    if (features[i].kind == FeatureKind::kDelta && features[i].piece == kPawnIndex) {
      return static_cast<int>(i);
    }
  }
  for (std::size_t i = 0; i < features.size(); ++i) {
    if (features[i].kind == FeatureKind::kOwnCount && features[i].piece == kPawnIndex) {
      return static_cast<int>(i);
    }
  }
  return -1;
}

Design build_design(const Histogram& histogram, const ModelSpec& model) {
  const std::vector<HistogramEntry> entries = histogram.entries();
  const int columns = static_cast<int>(model.features.size());
  std::vector<double> x(entries.size() * columns);
  for (std::size_t r = 0; r < entries.size(); ++r) {
    for (int c = 0; c < columns; ++c) x[r * columns + c] = model.features[c].value(entries[r].key);
  }
  // Sort row indices by x (stable: equal rows keep the key order), then merge runs of equal x.
  std::vector<std::size_t> order(entries.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  const auto row_less = [&](std::size_t a, std::size_t b) {
    return std::lexicographical_compare(x.begin() + a * columns, x.begin() + (a + 1) * columns,
                                        x.begin() + b * columns, x.begin() + (b + 1) * columns);
  };
  std::stable_sort(order.begin(), order.end(), row_less);

  Design design;
  design.columns = columns;
  for (const Feature& feature : model.features) design.names.push_back(feature.name());
  for (std::size_t k = 0; k < order.size(); ++k) {
    const std::size_t r = order[k];
    const bool same_as_previous = k > 0 && !row_less(order[k - 1], r);
    if (!same_as_previous) {
      design.x.insert(design.x.end(), x.begin() + r * columns, x.begin() + (r + 1) * columns);
      design.weights.push_back({});
    }
    if (model.target == Target::kEval) {
      // n rows with summed scores Σp: Σp "white wins" and n − Σp "black wins" give the
      // fractional target's likelihood, Σ [p log h + (1 − p) log(1 − h)].
      const double rows = static_cast<double>(entries[r].counts.total());
      const double score = target_sum_value(entries[r].target);
      design.weights.back()[static_cast<int>(Outcome::kWhiteWin)] += score;
      design.weights.back()[static_cast<int>(Outcome::kBlackWin)] += rows - score;
      continue;
    }
    for (int o = 0; o < kOutcomeCount; ++o) {
      design.weights.back()[o] += static_cast<double>(entries[r].counts.by_outcome[o]);
    }
  }
  return design;
}

}  // namespace materialist::learn
