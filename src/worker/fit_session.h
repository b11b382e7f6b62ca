// One fit of the engine's current data (worker/engine.h's fitting): the settings and the model,
// the datasets it is made for, the solver's state from begin() to the finished fits and their
// bootstraps. Replaced as a whole by every new fit, read and reset: its targets point into the
// engine's data, so it never outlives the data it was made for.
//
//   FitSession fit;
//   Expected<int> planned = fit.begin(settings, target, player_view, targets);
//   while (!fit.finished) fit.step(50);  // snapshots of the first dataset
//   fit.fit(0);                          // each dataset's fit (nullptr where it failed)
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "learn/fit/analysis.h"
#include "learn/fit/models.h"
#include "learn/fit/solvers.h"
#include "learn/read/dataset.h"
#include "learn/stats/bootstrap_histograms.h"
#include "learn/stats/game_pairs.h"
#include "learn/stats/histogram.h"
#include "protocol/messages.h"

namespace materialist::worker {

// A dataset a fit is made for: its name and its statistics, in the engine's data.
struct FitTarget {
  std::string name;
  const learn::Histogram* histogram = nullptr;
  const learn::GamePairs* pairs = nullptr;
  const learn::BootstrapHistograms* bootstrap = nullptr;
  const learn::DatasetReport* report = nullptr;
};

struct FitSession {
  // Prepares the fit of `targets` (the data of a read for `target`; `player_view`: its filter
  // names a player's side) and returns the planned iteration count, or why the data cannot be
  // fitted by this model.
  Expected<int> begin(const protocol::FitSettings& fit_settings, learn::Target target,
                      bool player_view, std::vector<FitTarget> fit_targets);
  // Gradient descent: n more iterations (returns the new state). Newton: the next iterate.
  protocol::Snapshot step(int n);
  // Gradient descent only: the current state of every dataset after the first (dataset = 1..n-1).
  std::vector<protocol::Snapshot> other_snapshots() const;
  // The finished fit of a dataset (nullptr before the end, or where it failed).
  const learn::ModelFit* fit(std::size_t dataset) const;
  // The datasets with a finished fit (0 before the end).
  std::size_t fit_count() const { return finished ? targets.size() : 0; }
  // Newton's iterates are shown (no gradient descent run: the model or the data asked for it).
  bool uses_newton() const { return !first.has_value(); }

  protocol::FitSettings settings;
  learn::AnalysisSettings analysis;
  learn::ModelSpec spec;
  std::string reason;  // why the solver differs from the one asked for
  std::vector<FitTarget> targets;
  // Gradient descent of the first dataset, and of the others in lockstep (every trajectory is
  // drawn); nullopt where a dataset could not start (finish() then fits it directly).
  std::optional<learn::GradientDescentRun> first;
  std::vector<std::optional<learn::GradientDescentRun>> others;
  std::vector<learn::FitState> newton_states;  // Newton's iterates, shown one by one
  std::size_t newton_next = 0;
  bool finished = false;
  std::vector<std::optional<learn::ModelFit>> fits;  // one per target
  std::vector<std::string> errors;                   // why a target has no fit
  std::vector<std::optional<learn::BootstrapFit>> bootstraps;
  std::vector<std::string> bootstrap_errors;
  std::optional<protocol::Snapshot> last;

 private:
  // begin's steps: why the data cannot be fitted by this model (or nullopt), then the start of
  // gradient descent or of Newton's iterates (the steps step() will show).
  std::optional<Error> problem(bool player_view) const;
  Expected<int> start_descent();
  Expected<int> start_newton();
  // Fits every dataset (the first from the animated run), bootstraps, sets the last snapshot.
  void finish();
  protocol::Snapshot snapshot_from(const learn::FitState& state) const;
};

}  // namespace materialist::worker
