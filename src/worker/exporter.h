// What the engine's data and fit say, written out (worker/engine.h's exports): the fit's
// messages (fit-begin, fit-done), the values CSV, the results and provenance JSON, the C++ header
// and the status line. A view of the engine's state, made for each call.
//
//   const Exporter out(fit, current_data, read_options, units);
//   out.fits_json();  out.values_csv();  out.status_line();
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/json.h"
#include "learn/fit/models.h"
#include "learn/stats/histogram.h"
#include "protocol/messages.h"
#include "worker/engine_dataset.h"
#include "worker/fit_session.h"

namespace materialist::worker {

// The article's first chart of a histogram: rows per 1-3-3-5-9 balance and the fitted α.
protocol::Balance balance_of(const learn::Histogram& histogram);

class Exporter {
 public:
  // `data`: the current data (null when none); `read`: the options it was read with.
  Exporter(const FitSession& fit, const Dataset* data, const protocol::ReadOptions& read,
           protocol::Units units)
      : fit_(fit), current_(data), read_(read), units_(units) {}

  // After begin_fit: the solver, the plan and why the solver differs from the one asked.
  protocol::FitBegin fit_begin() const;
  // After the fit: every dataset's fit, the differences, the final snapshot; and as JSON.
  protocol::FitDone fit_done() const;
  std::string fits_json() const;
  // Every dataset's every coefficient (draw margin included), one row each, with its errors.
  std::string values_csv() const;
  // The settings and every dataset's fit (values, errors, warnings, coefficients).
  std::string result_json() const;
  // Files with sha-256, settings, the data report and every fit.
  std::string provenance_json() const;
  // A C++ header: every dataset's terms in centipawns, each named, with the model and data
  // (exporter_code_header.cpp).
  std::string code_header() const;
  // One line for the status bar: the fit's state and values, naming datasets when several.
  std::string status_line() const;

  // A dataset's fit as the protocol sends it (`fit` null: `error` says why).
  static protocol::Fit describe(const FitTarget& target, const learn::ModelFit* fit,
                                const learn::BootstrapFit* bootstrap,
                                const std::string& bootstrap_error, const std::string& error,
                                bool player_view);

 private:
  std::size_t fit_count() const { return fit_.fit_count(); }
  const learn::ModelFit* fit(std::size_t dataset) const { return fit_.fit(dataset); }
  const learn::DatasetReport* report() const { return current_ ? &current_->report : nullptr; }
  const protocol::ReadOptions& read_options() const { return read_; }
  const std::vector<FileDigest>& digests() const;
  std::string error_kinds_text() const;  // the status line's "± … errors"
  protocol::Settings settings() const;
  protocol::Fit fit_result(std::size_t index) const;
  std::vector<protocol::Difference> differences() const;
  // "settings", "fits" and "differences" fields of an export.
  void write_results(JsonWriter& json) const;

  const FitSession& fit_;
  const Dataset* current_;
  const protocol::ReadOptions& read_;
  protocol::Units units_;
};

}  // namespace materialist::worker
