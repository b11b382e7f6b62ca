// Named bundles of settings: how games are read and how the fit treats draws.
//
//   const auto preset = find_preset("article");   // the original tool's behaviour
//   Ingestor ingestor(preset->ingest);
//   ... make_logistic_data(design, preset->draws) ... fit_gradient_descent(data, preset->descent)
#pragma once

#include <optional>
#include <string_view>

#include "learn/ingest.h"
#include "learn/solvers.h"

namespace materialist::learn {

struct Preset {
  std::string_view name;
  IngestOptions ingest;
  DrawHandling draws = DrawHandling::kLeaveOut;
  GradientDescentOptions descent;  // α = 1, λ = 1e-6, 10 000 iterations
};

// "article": unknown results count as draws, draws stay out of the fit, N = 2 (METHOD.md §2).
inline Preset article_preset() {
  return {"article", IngestOptions::article(), DrawHandling::kLeaveOut, {}};
}

// "default": unknown results are skipped (and reported); otherwise as the article.
inline Preset default_preset() {
  return {"default", IngestOptions::defaults(), DrawHandling::kLeaveOut, {}};
}

// Finds a preset by name ("article", "default"); nullopt for anything else.
inline std::optional<Preset> find_preset(std::string_view name) {
  if (name == "article") return article_preset();
  if (name == "default") return default_preset();
  return std::nullopt;
}

}  // namespace materialist::learn
