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
                                std::FILE* progress) {
  const learn::DatasetBuilder& builder = *builders.front();
  for (const std::string& path : files) {
    if (progress) std::fprintf(progress, "Reading file: %s\n", path.c_str());
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
          std::fprintf(progress, "  %.0f MB", mb);
          if (p.total_bytes > 0) std::fprintf(progress, " of %.0f MB", p.total_bytes / 1e6);
          std::fprintf(progress, ", %llu games, %llu rows, %.0f MB/s\n",
                       static_cast<unsigned long long>(live.games.games_read),
                       static_cast<unsigned long long>(live.rows), mb / seconds_since(start));
        });
    for (learn::DatasetBuilder* b : builders) b->end_file();
    if (!read) return read.error();
  }
  return std::nullopt;
}

// The --game-ids column: (file index << 40) | the game's 1-based number in its file; rows without
// a game (.mat input) count as games of their own, numbered by row within their file.
struct GameIds {
  std::size_t file = ~std::size_t{0};
  std::uint64_t mat_rows = 0;

  std::uint64_t next(std::size_t file_index, std::uint64_t game) {
    if (file_index != file) {
      file = file_index;
      mat_rows = 0;
    }
    const std::uint64_t number = game != 0 ? game : ++mat_rows;
    return (static_cast<std::uint64_t>(file_index) << 40) | number;
  }
};

// Loads one dataset (a list of files), optionally writing its rows as .mat text to `mat_out`.
struct LoadedDataset {
  std::unique_ptr<learn::DatasetBuilder> builder;
  double seconds = 0;
};

Expected<LoadedDataset> load_dataset(const CliOptions& options,
                                     const std::vector<std::string>& files, std::FILE* mat_out,
                                     std::FILE* progress, bool game_ids = false) {
  auto ingest = ingest_options(options);
  if (!ingest) return ingest.error();
  LoadedDataset dataset;
  dataset.builder = std::make_unique<learn::DatasetBuilder>(*ingest);
  if (options.bootstrap > 0) dataset.builder->enable_bootstrap(options.bootstrap, options.seed);
  std::string buffer;
  GameIds ids;
  if (mat_out != nullptr) {
    const learn::DatasetBuilder* builder = dataset.builder.get();
    dataset.builder->set_row_sink(
        [&buffer, &ids, mat_out, game_ids, builder](const learn::Row& row) {
          learn::append_mat_row(buffer, row.key.delta, row.outcome);
          if (game_ids) {
            buffer.back() = ' ';
            buffer += std::to_string(ids.next(builder->report().files.size(), row.game));
            buffer.push_back('\n');
          }
          if (buffer.size() >= (1 << 16)) {
            std::fwrite(buffer.data(), 1, buffer.size(), mat_out);
            buffer.clear();
          }
        });
  }
  const auto start = Clock::now();
  auto error = read_files(files, {dataset.builder.get()}, progress);
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

int fail(std::FILE* err, const Error& error) {
  std::fprintf(err, "materialist: %s\n", error.message.c_str());
  return error.code == ErrorCode::kInvalidArgument ? 2 : 1;
}

}  // namespace

int run_rows(const CliOptions& options, std::FILE* out, std::FILE* err) {
  auto dataset =
      load_dataset(options, options.files, out, options.progress ? err : nullptr, options.game_ids);
  if (!dataset) return fail(err, dataset.error());
  if (options.progress) print_dataset_summary(err, dataset->builder->report());
  return 0;
}

int run_fit(const CliOptions& options, std::FILE* out, std::FILE* err) {
  auto settings = analysis_settings(options);
  if (!settings) return fail(err, settings.error());

  std::unique_ptr<std::FILE, FileCloser> mat_file;
  if (!options.export_mat.empty()) {
    mat_file.reset(std::fopen(options.export_mat.c_str(), "wb"));
    if (!mat_file)
      return fail(err, make_error(ErrorCode::kIo, "cannot write " + options.export_mat));
  }
  auto dataset = load_dataset(options, options.files, mat_file.get(),
                              options.progress && !options.json ? err : nullptr);
  if (!dataset) return fail(err, dataset.error());
  mat_file.reset();
  const learn::Histogram& histogram = dataset->builder->histogram();
  const learn::DatasetReport& report = dataset->builder->report();

  const bool text = !options.json;
  if (text) print_dataset_summary(out, report);
  if (histogram.totals().total() == 0) {
    if (!text) print_dataset_summary(err, report);
    return fail(err,
                make_error(ErrorCode::kIo, "no rows to fit: no game or .mat row could be used"));
  }
  if (text) print_fit_header(out, histogram, *settings);

  const auto fit_start = Clock::now();
  const auto fit = learn::run_analysis(
      histogram, *settings,
      [&](const learn::FitState& state) {
        if (text) print_iteration(out, state);
        return true;
      },
      options.log_every);
  const double fit_seconds = seconds_since(fit_start);
  if (!fit) return fail(err, fit.error());

  std::optional<learn::BootstrapFit> bootstrap;
  if (const learn::BootstrapHistograms* replicates = dataset->builder->bootstrap()) {
    if (options.progress && !options.json) {
      std::fprintf(err, "Bootstrap: refitting %d replicates...\n", replicates->replicate_count());
    }
    bootstrap = learn::bootstrap_model(*replicates, settings->model);
  }

  if (text) {
    print_fit(out, *fit, *settings, options.units, bootstrap ? &*bootstrap : nullptr);
    print_relations(out, *fit);
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
  std::fprintf(out, "%s\n", json.str().c_str());
  return 0;
}

int run_compare(const CliOptions& options, std::FILE* out, std::FILE* err) {
  auto settings = analysis_settings(options);
  if (!settings) return fail(err, settings.error());
  std::vector<ComparedDataset> compared;
  if (options.each_filter.empty()) {
    for (const std::string& file : options.files) {
      auto dataset =
          load_dataset(options, {file}, nullptr, options.progress && !options.json ? err : nullptr);
      if (!dataset) return fail(err, dataset.error());
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
      if (!ingest) return fail(err, ingest.error());
      builders.push_back(std::make_unique<learn::DatasetBuilder>(*ingest));
      if (options.bootstrap > 0) builders.back()->enable_bootstrap(options.bootstrap, options.seed);
      targets.push_back(builders.back().get());
    }
    if (auto error =
            read_files(options.files, targets, options.progress && !options.json ? err : nullptr)) {
      return fail(err, *error);
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
    if (!fit) return fail(err, make_error(fit.error().code, d.name + ": " + fit.error().message));
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
    std::fprintf(out, "%s\n", json.str().c_str());
    return 0;
  }
  print_comparison(out, compared, options.units);
  return 0;
}

int run_command(const std::vector<std::string>& args, std::FILE* out, std::FILE* err) {
  const auto options = parse_options(args);
  if (!options) {
    std::fprintf(err, "materialist: %s\n", options.error().message.c_str());
    return 2;
  }
  switch (options->command) {
    case Command::kHelp:
      std::fputs(usage_text(), out);
      return 0;
    case Command::kVersion:
      std::fputs("materialist 0.1.0\n", out);
      return 0;
    case Command::kRows:
      return run_rows(*options, out, err);
    case Command::kFit:
      return run_fit(*options, out, err);
    case Command::kCompare:
      return run_compare(*options, out, err);
  }
  return 2;
}

}  // namespace materialist::cli
