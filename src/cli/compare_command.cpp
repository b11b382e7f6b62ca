// compare: fits several datasets (files, --each filters, --by bands, statistics files, or the
// two targets) and prints them side by side.
#include "cli/compare_command.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/band_report.h"
#include "cli/command_support.h"
#include "cli/read_files.h"
#include "cli/stats_command.h"
#include "cli/text_report.h"
#include "core/json.h"
#include "learn/filter/bands.h"
#include "learn/fit/analysis.h"
#include "learn/fit/target_compare.h"
#include "learn/read/dataset.h"
#include "learn/read/dataset_split.h"
#include "learn/read/report_json.h"
#include "learn/stats/mat_io.h"

namespace materialist::cli {
namespace {

// One dataset of a comparison, before its fit: read from files, or merged statistics files.
struct CompareSource {
  std::string name;
  const learn::DatasetReport* report;
  const learn::Histogram* histogram;
  const learn::GamePairs* pairs;
  const learn::BootstrapHistograms* bootstrap;
  bool player_view = false;
};

// Fits every source and prints the comparison (text or --json), as a table of bands when
// `bands` is given; returns the exit status.
int fit_and_compare(const CliOptions& options, const learn::AnalysisSettings& first,
                    const std::vector<CompareSource>& sources, std::FILE* out, std::FILE* err,
                    const BandTable* bands = nullptr) {
  const bool text = !options.json;
  int status = kExitOk;
  std::vector<ComparedDataset> compared;
  for (const CompareSource& source : sources) {
    ComparedDataset& d = compared.emplace_back();
    d.name = source.name;
    d.report = *source.report;
    d.histogram = *source.histogram;
    d.player_view = source.player_view;
    // The base settings' model (checked), the intercept by this dataset's point of view.
    // (--split-sides is refused for a dataset without a player's point of view.)
    const Expected<learn::AnalysisSettings> settings = analysis_settings(options, d.player_view);
    const learn::AnalysisSettings analysis = settings ? *settings : first;
    std::optional<Failure> failure =
        settings ? nothing_to_fit(d.report, d.histogram)
                 : std::optional<Failure>(
                       Failure{FailureCode::kDatasetNotFitted, settings.error().message});
    if (!failure) {
      auto fit = learn::run_analysis(d.histogram, analysis, {}, 1, source.pairs);
      if (fit) {
        d.fit = *fit;
        if (source.bootstrap != nullptr) {
          d.bootstrap = learn::bootstrap_model(*source.bootstrap, analysis.model);
        }
      } else {
        failure = Failure{FailureCode::kFitFailed, "the fit failed: " + fit.error().message};
      }
    }
    if (failure) {
      d.error_code = failure->code_name();
      d.error = failure->message;
      status = failure->status();
      std::fprintf(err, "materialist: %s: %s\n", d.name.c_str(), failure->message.c_str());
    }
  }

  if (text) {
    if (bands != nullptr) {
      print_band_table(out, *bands, compared, options.units);
    } else {
      print_comparison(out, compared, options.units);
    }
    return status;
  }
  JsonWriter json;
  json.begin_object().field("preset", first.preset);
  json.field("solver", learn::solver_name(first.solver));
  json.field("outcomes", learn::outcome_model_name(first.model.outcomes));
  json.field("target", learn::target_name(first.model.target));
  if (bands != nullptr) write_band_table_json(json, *bands, compared, options.units);
  json.key("datasets").begin_array();
  for (const ComparedDataset& d : compared) {
    json.begin_object().field("name", d.name);
    json.field("pointOfView", d.player_view ? "player" : "white");
    write_model_terms_json(json, first.model);
    write_data_json(json, d.report, d.histogram, 0);
    if (d.error.empty()) {
      write_fit_json(json, d.fit, d.player_view);
      if (d.bootstrap) write_bootstrap_json(json, *d.bootstrap);
    } else {
      write_error_json(json, d.error_code, d.error);
    }
    json.end_object();
  }
  json.end_array();
  if (status != kExitOk) {
    write_error_json(json, failure_code_name(FailureCode::kDatasetNotFitted),
                     "one or more datasets could not be fitted (see their \"error\")");
  }
  json.end_object();
  std::fprintf(out, "%s\n", json.str().c_str());
  return status;
}

// compare A.mstats B.mstats: one dataset per statistics file, named by it.
int compare_stats(const CliOptions& options, const DatasetSettings& base, std::FILE* out,
                  std::FILE* err) {
  if (!options.each_filter.empty()) {
    return fail_early(options, out, err,
                      bad_options("--each filters games: .mstats inputs hold none (make one "
                                  "statistics file per filter with stats --filter)"));
  }
  std::vector<learn::Statistics> all;
  for (const std::string& path : options.files) {
    LoadedStats loaded =
        load_stats({path}, split_options(options, &base.analysis.model), base.analysis.model);
    if (loaded.failure) return fail_early(options, out, err, *loaded.failure);
    all.push_back(std::move(*loaded.stats));
  }
  std::vector<CompareSource> sources;
  for (std::size_t i = 0; i < all.size(); ++i) {
    sources.push_back({options.files[i], &all[i].report, &all[i].histogram, &all[i].pairs,
                       all[i].bootstrap.get(), base.player_view});
  }
  return fit_and_compare(options, base.analysis, sources, out, err);
}

// compare --targets result,eval: one read of the annotated positions, both targets fitted on
// them. Without --outcomes the result fit takes draws as half points (fractional), so that both
// fits read every annotated position.
int run_compare_targets(const CliOptions& options, DatasetSettings base, std::FILE* out,
                        std::FILE* err) {
  const bool text = !options.json;
  if (options.outcomes.empty()) base.analysis.model.outcomes = learn::OutcomeModel::kFractional;
  LoadedDataset dataset = load_dataset(options, &base.analysis.model, nullptr,
                                       options.progress && text ? err : nullptr);
  const learn::Histogram& histogram = dataset.builder().histogram();
  const learn::DatasetReport& report = dataset.builder().report();
  std::optional<Failure> failure = dataset.failure;
  if (!failure) failure = nothing_to_fit(report, histogram);
  const auto both =
      failure ? Expected<learn::TargetComparison>(learn::TargetComparison{})
              : learn::compare_targets(histogram, base.analysis, dataset.builder().pairs());
  if (!failure && !both) {
    failure = Failure{FailureCode::kFitFailed, "the fit failed: " + both.error().message};
  }
  if (failure) {
    if (!text) return fail_json(out, err, *failure, report, histogram);
    if (!dataset.failure) print_dataset_summary(out, report);
    return report_failure(err, *failure);
  }
  const bool eval_first = options.targets.front() == "eval";
  if (text) {
    print_dataset_summary(out, report);
    std::fprintf(out, "Both targets on the same %llu annotated positions of %llu games (%s, %s):\n",
                 static_cast<unsigned long long>(histogram.totals().total()),
                 static_cast<unsigned long long>(report.games.games_with_evals),
                 learn::solver_name(base.analysis.solver),
                 base.analysis.model.outcomes == learn::OutcomeModel::kFractional
                     ? "the result with draws as half points"
                     : "the result without draws");
    print_target_comparison(out, *both, eval_first, base.player_view, options.units);
    return kExitOk;
  }
  JsonWriter json;
  json.begin_object().field("preset", base.analysis.preset);
  json.field("solver", learn::solver_name(base.analysis.solver));
  json.field("outcomes", learn::outcome_model_name(base.analysis.model.outcomes));
  json.field("pointOfView", base.player_view ? "player" : "white");
  write_model_terms_json(json, base.analysis.model);
  write_data_json(json, report, histogram, 50);
  write_target_comparison_json(json, *both, eval_first, base.player_view);
  json.field("seconds", dataset.seconds).end_object();
  std::fprintf(out, "%s\n", json.str().c_str());
  return kExitOk;
}

}  // namespace

int run_compare(const CliOptions& options, std::FILE* out, std::FILE* err) {
  const bool text = !options.json;
  std::FILE* progress = options.progress && text ? err : nullptr;
  auto base = dataset_settings(options);
  if (!base) return fail_early(options, out, err, settings_failure(base.error()));
  if (!options.targets.empty()) return run_compare_targets(options, *base, out, err);
  if (has_stats_inputs(options.files)) {
    if (!options.by.empty()) {
      return fail_early(options, out, err,
                        bad_options("--by splits games: .mstats inputs hold none"));
    }
    return compare_stats(options, *base, out, err);
  }
  // --by: one --each filter per band.
  std::optional<BandTable> bands;
  CliOptions read_options = options;
  if (!options.by.empty()) {
    const learn::BandSpec spec = *learn::parse_band_spec(options.by);  // checked by the parse
    auto made = learn::make_bands(spec, base->ingest.games);
    if (!made) return fail_early(options, out, err, bad_options("--by: " + made.error().message));
    bands = BandTable{options.by, learn::band_axis_title(spec, base->ingest.games), {}, {}};
    for (const learn::Band& band : *made) read_options.each_filter.push_back(band.filter);
    bands->shown = std::move(*made);
  }
  // One dataset per file, or one per --each filter over all the files, read in one pass.
  auto split = make_split(
      read_options, &base->analysis.model,
      read_options.each_filter.empty() ? learn::SplitMode::kPerFile : learn::SplitMode::kPerFilter);
  if (!split) return fail_early(options, out, err, bad_options("--each " + split.error().message));
  // A file that could not be read ends the reading.
  if (const std::optional<Failure> read_failure =
          read_files(options.files, *split, options, progress)) {
    if (!text) {
      // The data read before the failure, in the one object.
      const auto& subsets = split->subsets();
      return fail_json(out, err, *read_failure,
                       subsets.empty() ? learn::DatasetReport{} : subsets.back().builder->report(),
                       subsets.empty() ? learn::Histogram{} : subsets.back().builder->histogram());
    }
    return report_failure(err, *read_failure);
  }
  std::vector<CompareSource> sources;
  std::vector<learn::Band> shown;
  for (std::size_t i = 0; i < split->subsets().size(); ++i) {
    const learn::DatasetBuilder& builder = *split->subsets()[i].builder;
    std::string name = split->subsets()[i].name;
    if (bands) {
      // A band no game fell in is left out of the table, and named under it.
      if (builder.report().games.filter_tally.kept() == 0) {
        bands->omitted.push_back(bands->shown[i].label);
        continue;
      }
      shown.push_back(bands->shown[i]);
      name = bands->shown[i].label;
    }
    sources.push_back({name, &builder.report(), &builder.histogram(), builder.pairs(),
                       builder.bootstrap(), learn::player_view(builder.options().games)});
  }
  if (bands) {
    bands->shown = std::move(shown);
    if (sources.empty()) {
      const learn::DatasetBuilder& first = *split->subsets().front().builder;
      const Failure none{FailureCode::kFilteredOut,
                         "no game fell in any band (games without the band's rating or speed are "
                         "in none)"};
      if (!text) return fail_json(out, err, none, first.report(), first.histogram());
      return report_failure(err, none);
    }
  }
  return fit_and_compare(options, base->analysis, sources, out, err, bands ? &*bands : nullptr);
}

}  // namespace materialist::cli
