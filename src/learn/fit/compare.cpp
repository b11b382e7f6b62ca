#include "learn/fit/compare.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "core/enum_names.h"
#include "learn/vocabulary/pieces.h"
#include "learn/fit/numeric.h"

namespace materialist::learn {
namespace {


struct RelationSpec {
  const char* text;
  bool equality;
  std::array<double, kPieceKinds> weights;  // left − right, on P N B R Q
};

constexpr std::array<RelationSpec, 5> kCapablanca = {{
    {"B > N", false, {0, -1, 1, 0, 0}},
    {"B > 3P", false, {-3, 0, 1, 0, 0}},
    {"N > 3P", false, {-3, 1, 0, 0, 0}},
    {"B + N = R + 1.5P", true, {-1.5, 1, 1, -1, 0}},
    {"Q + P = 2R", true, {1, 0, 0, -2, 1}},
}};

// The contrast as a vector over the fit's parameters, and the pawn reference; false if a named
// column is missing.
bool contrast_vector(const ModelFit& fit, const Contrast& contrast, std::vector<double>& vector,
                     int& reference) {
  vector.assign(fit.parameter_count(), 0.0);
  reference = -1;
  for (const auto& [name, weight] : contrast) {
    const int column = fit.column(name);
    if (column < 0) return false;
    vector[column] += weight;
    if (reference < 0) reference = fit.coefficients[column].reference;
  }
  return reference >= 0;
}

double replicate_contrast(const std::vector<double>& parameters, const std::vector<double>& c,
                          int reference) {
  if (parameters.size() < c.size() || parameters[reference] == 0) return kNaN;
  double sum = 0;
  for (std::size_t j = 0; j < c.size(); ++j) sum += c[j] * parameters[j];
  return 100.0 * sum / parameters[reference];
}

}  // namespace

const char* verdict_name(Verdict verdict) {
  return name_of(kVerdictNames, verdict);
}

Estimate contrast_estimate(const ModelFit& fit, const Contrast& contrast) {
  std::vector<double> c;
  int reference = -1;
  if (!contrast_vector(fit, contrast, c, reference)) return {kNaN, kNaN};
  std::vector<double> covariance = fit.covariance;
  if (!fit.covariance_ok) covariance.assign(c.size() * c.size(), kNaN);
  return ratio_contrast_estimate(fit.parameters(), covariance, c, reference);
}

std::vector<RelationEstimate> capablanca_relations(const ModelFit& fit, double z_critical,
                                                   const std::string& suffix) {
  std::vector<RelationEstimate> relations;
  for (const PieceNames& piece : kPieces) {
    if (fit.column(std::string(piece.column) + suffix) < 0) return relations;
  }
  for (const RelationSpec& spec : kCapablanca) {
    Contrast contrast;
    contrast.push_back({"pawn" + suffix, 0.0});  // the reference comes from the pawn column
    for (int piece = 0; piece < kPieceKinds; ++piece) {
      if (spec.weights[piece] != 0) {
        contrast.push_back({std::string(kPieces[piece].column) + suffix, spec.weights[piece]});
      }
    }
    RelationEstimate relation;
    relation.relation = spec.text;
    relation.equality = spec.equality;
    relation.margin = contrast_estimate(fit, contrast);
    relation.z = relation.margin.se > 0 ? relation.margin.value / relation.margin.se : kNaN;
    const double bound = z_critical * relation.margin.se;
    if (std::isnan(bound)) {
      relation.verdict = Verdict::kUndecided;
    } else if (spec.equality) {
      relation.verdict =
          std::fabs(relation.margin.value) <= bound ? Verdict::kHolds : Verdict::kViolated;
    } else if (relation.margin.value > bound) {
      relation.verdict = Verdict::kHolds;
    } else if (relation.margin.value < -bound) {
      relation.verdict = Verdict::kViolated;
    } else {
      relation.verdict = Verdict::kUndecided;
    }
    relations.push_back(relation);
  }
  return relations;
}

ComparisonTable compare_fits(const std::vector<DatasetFit>& sets, double z_critical) {
  ComparisonTable table;
  for (const DatasetFit& set : sets) {
    table.datasets.push_back(set.name);
    for (const Coefficient& c : set.fit.coefficients) {
      bool known = false;
      for (const ComparisonRow& row : table.rows) known = known || row.name == c.name;
      if (!known) table.rows.push_back({c.name, {}});
    }
    table.relations.push_back(capablanca_relations(set.fit, z_critical));
  }
  for (ComparisonRow& row : table.rows) {
    for (const DatasetFit& set : sets) {
      ComparisonCell cell;
      cell.value_interval = cell.theta_interval = {kNaN, kNaN};
      for (std::size_t j = 0; j < set.fit.coefficients.size(); ++j) {
        if (set.fit.coefficients[j].name != row.name) continue;
        cell.present = true;
        cell.coefficient = set.fit.coefficients[j];
        if (set.bootstrap && j < set.bootstrap->coefficients.size()) {
          cell.value_interval = set.bootstrap->coefficients[j].value_interval;
          cell.theta_interval = set.bootstrap->coefficients[j].theta_interval;
        }
      }
      row.cells.push_back(cell);
    }
  }
  return table;
}

DatasetDifference compare_contrast(const DatasetFit& a, const DatasetFit& b,
                                   const Contrast& contrast, double level) {
  DatasetDifference difference;
  difference.a = contrast_estimate(a.fit, contrast);
  difference.b = contrast_estimate(b.fit, contrast);
  difference.z_test = difference_test(difference.a, difference.b);
  difference.bootstrap_interval = {kNaN, kNaN};
  difference.bootstrap_p = kNaN;
  if (!a.bootstrap || !b.bootstrap) return difference;

  std::vector<double> ca, cb;
  int ra = -1, rb = -1;
  if (!contrast_vector(a.fit, contrast, ca, ra) || !contrast_vector(b.fit, contrast, cb, rb)) {
    return difference;
  }
  // Replicates of independent datasets pair up arbitrarily: pair them by index.
  std::vector<double> differences;
  const std::size_t n = std::min(a.bootstrap->parameters.size(), b.bootstrap->parameters.size());
  std::size_t below = 0, above = 0;
  for (std::size_t r = 0; r < n; ++r) {
    const double d = replicate_contrast(a.bootstrap->parameters[r], ca, ra) -
                     replicate_contrast(b.bootstrap->parameters[r], cb, rb);
    if (std::isnan(d)) continue;
    differences.push_back(d);
    below += d <= 0;
    above += d >= 0;
  }
  if (differences.empty()) return difference;
  difference.has_bootstrap = true;
  difference.bootstrap_interval = percentile_interval(differences, level);
  const double tail = static_cast<double>(std::min(below, above)) / differences.size();
  difference.bootstrap_p = std::min(1.0, 2.0 * tail);
  return difference;
}

bool contrast_determined(const ModelFit& fit, const Contrast& contrast) {
  for (const auto& term : contrast) {
    const std::string& name = term.first;  // (clang 14 cannot capture a structured binding)
    const auto column = std::find_if(fit.coefficients.begin(), fit.coefficients.end(),
                                     [&](const Coefficient& c) { return c.name == name; });
    if (column == fit.coefficients.end() || !column->identified) return false;
    const int pawn = column->reference;  // values are pawn = 100: the pawn must be identified too
    if (pawn < 0 || pawn >= static_cast<int>(fit.coefficients.size()) ||
        !fit.coefficients[pawn].identified)
      return false;
  }
  const Estimate e = contrast_estimate(fit, contrast);
  return std::isfinite(e.value) && std::isfinite(e.se);
}

std::optional<std::size_t> reference_dataset(const std::vector<const ModelFit*>& fits,
                                             const Contrast& contrast) {
  for (std::size_t i = 0; i < fits.size(); ++i) {
    if (fits[i] != nullptr && contrast_determined(*fits[i], contrast)) return i;
  }
  return std::nullopt;
}

}  // namespace materialist::learn
