#include "cli/commands.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "cli/input.h"
#include "cli/text_report.h"
#include "core/json.h"
#include "learn/analysis.h"
#include "learn/dataset.h"
#include "learn/mat_io.h"
#include "learn/report_json.h"

namespace materialist::cli {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Data options → ingest options (preset first, then explicit flags).
Expected<learn::IngestOptions> ingest_options(const CliOptions& options) {
  learn::IngestOptions ingest = options.preset == "article" ? learn::IngestOptions::article()
                                                            : learn::IngestOptions::defaults();
  if (options.quiet_plies) ingest.quiet.quiet_plies = *options.quiet_plies;
  ingest.quiet.checks_break_quiet = !options.checks_are_quiet;
  ingest.quiet.distinct_per_game = !options.every_position;
  ingest.quiet.skip_first_plies = options.skip_plies;
  if (!options.filter.empty()) {
    auto filter = learn::parse_game_filter(options.filter);
    if (!filter) return make_error(filter.error().code, "--filter: " + filter.error().message);
    ingest.games = *filter;
  }
  return ingest;
}

// Model options → analysis settings (preset first, then explicit flags).
Expected<learn::AnalysisSettings> analysis_settings(const CliOptions& options) {
  learn::AnalysisSettings settings = *learn::AnalysisSettings::preset_named(options.preset);
  if (!options.solver.empty()) settings.solver = *learn::parse_solver(options.solver);
  if (!options.outcomes.empty())
    settings.model.outcomes = *learn::parse_outcome_model(options.outcomes);
  if (options.iterations) settings.gd.iterations = *options.iterations;
  if (options.alpha) settings.gd.learning_rate = *options.alpha;
  if (options.lambda) settings.model.lambda = *options.lambda;
  settings.model.intercept = options.intercept;
  settings.model.bishop_pair = options.bishop_pair;
  settings.model.phase_tapered = options.phase;
  settings.model.rating_offset = options.elo_offset;
  if (settings.solver == learn::SolverKind::kGradientDescent) {
    if (auto error = learn::check_gradient_descent(settings.model)) return *error;
  }
  return settings;
}

// Reads every file once into every builder; stops at the first unreadable file.
std::optional<Error> read_files(const std::vector<std::string>& files,
                                const std::vector<learn::DatasetBuilder*>& builders,
                                bool progress) {
  const learn::DatasetBuilder& builder = *builders.front();
  for (const std::string& path : files) {
    if (progress) std::fprintf(stderr, "Reading file: %s\n", path.c_str());
    for (learn::DatasetBuilder* b : builders) b->begin_file(path == "-" ? "(stdin)" : path);
    const auto start = Clock::now();
    auto read = stream_file(
        path,
        [&](const char* data, std::size_t size) {
          for (learn::DatasetBuilder* b : builders) b->feed(data, size);
        },
        [&](const InputProgress& p) {
          if (!progress) return;
          const double mb = p.bytes_read / 1e6;
          const learn::DatasetReport live = builder.live_report();
          std::fprintf(stderr, "  %.0f MB", mb);
          if (p.total_bytes > 0) std::fprintf(stderr, " of %.0f MB", p.total_bytes / 1e6);
          std::fprintf(stderr, ", %llu games, %llu rows, %.0f MB/s\n",
                       static_cast<unsigned long long>(live.games.games_read),
                       static_cast<unsigned long long>(live.rows), mb / seconds_since(start));
        });
    for (learn::DatasetBuilder* b : builders) b->end_file();
    if (!read) return read.error();
  }
  return std::nullopt;
}

// Loads one dataset (a list of files), optionally writing its rows as .mat text to `mat_out`.
struct LoadedDataset {
  std::unique_ptr<learn::DatasetBuilder> builder;
  double seconds = 0;
};

Expected<LoadedDataset> load_dataset(const CliOptions& options,
                                     const std::vector<std::string>& files, std::FILE* mat_out) {
  auto ingest = ingest_options(options);
  if (!ingest) return ingest.error();
  LoadedDataset dataset;
  dataset.builder = std::make_unique<learn::DatasetBuilder>(*ingest);
  if (options.bootstrap > 0) dataset.builder->enable_bootstrap(options.bootstrap, options.seed);
  std::string buffer;
  if (mat_out != nullptr) {
    dataset.builder->set_row_sink([&buffer, mat_out](const learn::Row& row) {
      learn::append_mat_row(buffer, row.key.delta, row.outcome);
      if (buffer.size() >= (1 << 16)) {
        std::fwrite(buffer.data(), 1, buffer.size(), mat_out);
        buffer.clear();
      }
    });
  }
  const auto start = Clock::now();
  auto error = read_files(files, {dataset.builder.get()}, options.progress && !options.json);
  if (mat_out != nullptr) {
    std::fwrite(buffer.data(), 1, buffer.size(), mat_out);
    dataset.builder->set_row_sink({});
  }
  if (error) return *error;
  dataset.seconds = seconds_since(start);
  return dataset;
}

struct FileCloser {
  void operator()(std::FILE* file) const {
    if (file != nullptr) std::fclose(file);
  }
};

int fail(const Error& error) {
  std::fprintf(stderr, "materialist: %s\n", error.message.c_str());
  return error.code == ErrorCode::kInvalidArgument ? 2 : 1;
}

}  // namespace

int run_rows(const CliOptions& options) {
  auto dataset = load_dataset(options, options.files, stdout);
  if (!dataset) return fail(dataset.error());
  if (options.progress) print_dataset_summary(stderr, dataset->builder->report());
  return 0;
}

int run_fit(const CliOptions& options) {
  auto settings = analysis_settings(options);
  if (!settings) return fail(settings.error());

  std::unique_ptr<std::FILE, FileCloser> mat_file;
  if (!options.export_mat.empty()) {
    mat_file.reset(std::fopen(options.export_mat.c_str(), "wb"));
    if (!mat_file) return fail(make_error(ErrorCode::kIo, "cannot write " + options.export_mat));
  }
  auto dataset = load_dataset(options, options.files, mat_file.get());
  if (!dataset) return fail(dataset.error());
  mat_file.reset();
  const learn::Histogram& histogram = dataset->builder->histogram();
  const learn::DatasetReport& report = dataset->builder->report();

  const bool text = !options.json;
  if (text) print_dataset_summary(stdout, report);
  if (histogram.totals().total() == 0) {
    if (!text) print_dataset_summary(stderr, report);
    return fail(make_error(ErrorCode::kIo, "no rows to fit: no game or .mat row could be used"));
  }
  if (text) print_fit_header(stdout, histogram, *settings);

  const auto fit_start = Clock::now();
  const auto fit = learn::run_analysis(
      histogram, *settings,
      [&](const learn::FitState& state) {
        if (text) print_iteration(stdout, state);
        return true;
      },
      options.log_every);
  const double fit_seconds = seconds_since(fit_start);
  if (!fit) return fail(fit.error());

  std::optional<learn::BootstrapFit> bootstrap;
  if (const learn::BootstrapHistograms* replicates = dataset->builder->bootstrap()) {
    if (options.progress && !options.json) {
      std::fprintf(stderr, "Bootstrap: refitting %d replicates...\n",
                   replicates->replicate_count());
    }
    bootstrap = learn::bootstrap_model(*replicates, settings->model);
  }

  if (text) {
    print_fit(stdout, *fit, *settings, options.units, bootstrap ? &*bootstrap : nullptr);
    print_relations(stdout, *fit);
    return 0;
  }
  JsonWriter json;
  json.begin_object();
  json.field("preset", settings->preset).field("solver", learn::solver_name(settings->solver));
  json.field("outcomes", learn::outcome_model_name(settings->model.outcomes));
  learn::write_dataset_fields(json, report, 50);
  const learn::OutcomeCounts& totals = histogram.totals();
  json.field("decisive_rows", totals[learn::Outcome::kWhiteWin] + totals[learn::Outcome::kBlackWin])
      .field("draws", totals[learn::Outcome::kDraw])
      .field("distinct_rows", static_cast<std::uint64_t>(histogram.distinct()));
  write_fit_json(json, *fit);
  if (bootstrap) write_bootstrap_json(json, *bootstrap);
  json.field("parse_seconds", dataset->seconds)
      .field("fit_seconds", fit_seconds)
      .field("seconds", dataset->seconds + fit_seconds)
      .end_object();
  std::printf("%s\n", json.str().c_str());
  return 0;
}

int run_compare(const CliOptions& options) {
  auto settings = analysis_settings(options);
  if (!settings) return fail(settings.error());
  std::vector<ComparedDataset> compared;
  if (options.each_filter.empty()) {
    for (const std::string& file : options.files) {
      auto dataset = load_dataset(options, {file}, nullptr);
      if (!dataset) return fail(dataset.error());
      compared.push_back({file, dataset->builder->report(), {}, dataset->builder->histogram(), {}});
      if (const auto* replicates = dataset->builder->bootstrap()) {
        compared.back().bootstrap = learn::bootstrap_model(*replicates, settings->model);
      }
    }
  } else {
    // One builder per filter set, fed from a single pass over the files.
    std::vector<std::unique_ptr<learn::DatasetBuilder>> builders;
    std::vector<learn::DatasetBuilder*> targets;
    for (const std::string& spec : options.each_filter) {
      CliOptions one = options;
      one.filter = learn::combine_game_filters(options.filter, spec);
      auto ingest = ingest_options(one);
      if (!ingest) return fail(ingest.error());
      builders.push_back(std::make_unique<learn::DatasetBuilder>(*ingest));
      if (options.bootstrap > 0) builders.back()->enable_bootstrap(options.bootstrap, options.seed);
      targets.push_back(builders.back().get());
    }
    if (auto error = read_files(options.files, targets, options.progress && !options.json)) {
      return fail(*error);
    }
    for (std::size_t i = 0; i < builders.size(); ++i) {
      compared.push_back(
          {options.each_filter[i], builders[i]->report(), {}, builders[i]->histogram(), {}});
      if (const auto* replicates = builders[i]->bootstrap()) {
        compared.back().bootstrap = learn::bootstrap_model(*replicates, settings->model);
      }
    }
  }
  for (ComparedDataset& d : compared) {
    auto fit = learn::run_analysis(d.histogram, *settings);
    if (!fit) return fail(make_error(fit.error().code, d.name + ": " + fit.error().message));
    d.fit = *fit;
  }
  if (options.json) {
    JsonWriter json;
    json.begin_object().field("preset", settings->preset);
    json.field("solver", learn::solver_name(settings->solver)).key("datasets").begin_array();
    for (const ComparedDataset& d : compared) {
      json.begin_object().field("name", d.name);
      learn::write_dataset_fields(json, d.report, 0);
      write_fit_json(json, d.fit);
      json.end_object();
    }
    json.end_array().end_object();
    std::printf("%s\n", json.str().c_str());
    return 0;
  }
  print_comparison(stdout, compared, options.units);
  return 0;
}

}  // namespace materialist::cli
