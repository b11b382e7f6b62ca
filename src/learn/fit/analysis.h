// From a histogram to fitted values, the way both front ends run it: settings name the model and
// the solver; gradient descent can be stepped (the live view animates it) and every solver ends
// in a ModelFit with values ± standard errors.
//
//   AnalysisSettings settings = AnalysisSettings::article();     // the founding article exactly
//   auto run = GradientDescentRun::start(histogram, settings);
//   while (!run->finished()) { run->step(100); draw(run->state()); }
//   ModelFit fit = run->fit();
//
//   Expected<ModelFit> exact = run_analysis(histogram, AnalysisSettings::defaults());   // Newton
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "learn/fit/models.h"
#include "learn/fit/solvers.h"
#include "learn/stats/histogram.h"

namespace materialist::learn {

enum class SolverKind : std::uint8_t { kGradientDescent, kNewton };
inline constexpr std::array kSolverNames = {"gd", "newton"};
static_assert(kSolverNames.size() == static_cast<std::size_t>(SolverKind::kNewton) + 1);
const char* solver_name(SolverKind solver);  // "gd", "newton"
std::optional<SolverKind> parse_solver(std::string_view name);

struct AnalysisSettings {
  std::string preset = "default";
  SolverKind solver = SolverKind::kNewton;
  ModelOptions model;         // outcomes, extra features, λ
  GradientDescentOptions gd;  // α and iterations (its λ is taken from model.lambda)

  // The article: gradient descent, α = 1, 10 000 steps, λ = 1e-6, draws left out.
  static AnalysisSettings article();
  // The product's default: the exact Newton fit of the same model.
  static AnalysisSettings defaults();
  // Newton with draws as half points (the fractional model): the draws are information too.
  static AnalysisSettings exact();
  // A preset of kPresets by name; nullopt for anything else.
  static std::optional<AnalysisSettings> preset_named(std::string_view name);
};

// The one table of named settings: the CLI's --preset and the app's Preset combo read it.
struct Preset {
  const char* name;
  const char* label;  // for people
  AnalysisSettings (*settings)();
  UnknownResultPolicy unknown;  // what a game with an unknown result ('*') becomes
};
inline constexpr std::array<Preset, 3> kPresets = {{
    {"article", "Article (GD, α=1, 10 000 steps, draws out)", &AnalysisSettings::article,
     UnknownResultPolicy::kTreatAsDraw},
    {"default", "Default (Newton, draws left out)", &AnalysisSettings::defaults,
     UnknownResultPolicy::kSkip},
    {"exact", "Exact (Newton, draws = ½ point)", &AnalysisSettings::exact,
     UnknownResultPolicy::kSkip},
}};
inline constexpr std::array<const char*, kPresets.size()> kPresetNames = [] {
  std::array<const char*, kPresets.size()> names{};
  for (std::size_t i = 0; i < kPresets.size(); ++i) names[i] = kPresets[i].name;
  return names;
}();
// The preset of that name, or nullptr.
const Preset* find_preset(std::string_view name);

// Gradient descent fits binary logistic models only: not the ordinal model, not the rating offset,
// not the imbalance terms or split sides.
std::optional<Error> check_gradient_descent(const ModelOptions& model);

// The article's gradient descent over any binary model, step by step.
class GradientDescentRun {
 public:
  // With `pairs` (which must outlive the run) fit() reports game-clustered errors.
  static Expected<GradientDescentRun> start(const Histogram& histogram,
                                            const AnalysisSettings& settings,
                                            const GamePairs* pairs = nullptr);

  int step(int n = 1) { return descent_.step(n); }
  bool finished() const { return descent_.finished(); }
  const FitState& state() const { return descent_.state(); }
  int columns() const { return static_cast<int>(spec_.features.size()); }
  const ModelSpec& spec() const { return spec_; }
  // The fit at the current θ, with standard errors from the Hessian there (game-clustered with
  // pairs) and its warnings: "not-converged" while the remaining Newton step is more than 1% of
  // a standard error (finish_fit in models.h).
  ModelFit fit() const;

 private:
  GradientDescentRun(ModelOptions model, ModelSpec spec, GradientDescent descent,
                     const GamePairs* pairs)
      : model_(std::move(model)),
        spec_(std::move(spec)),
        descent_(std::move(descent)),
        pairs_(pairs) {}

  ModelOptions model_;
  ModelSpec spec_;
  GradientDescent descent_;
  const GamePairs* pairs_ = nullptr;
};

// Runs the settings' solver to the end. `on_iteration` sees gradient descent's state at iteration
// 0 and every `report_every` iterations after (the loss is evaluated only there, so a sparse
// log is cheap) and may stop it by returning false; Newton reports only its result.
// With `pairs` the errors are game-clustered (when the pairs cover the model).
Expected<ModelFit> run_analysis(const Histogram& histogram, const AnalysisSettings& settings,
                                const FitCallback& on_iteration = {}, int report_every = 1,
                                const GamePairs* pairs = nullptr);

// Values of the five piece columns (pawn = 100) of a fit, in P N B R Q order; NaN where absent.
std::vector<double> piece_values(const ModelFit& fit);

}  // namespace materialist::learn
