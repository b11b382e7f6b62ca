#include "worker/engine.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string_view>

#include "core/json.h"
#include "learn/compare.h"
#include "learn/design.h"
#include "learn/game_filter.h"
#include "learn/mat_io.h"
#include "learn/report_json.h"
#include "learn/uncertainty.h"

namespace materialist::worker {
namespace {

constexpr std::array<const char*, 5> kPieceNames = {"Pawn", "Knight", "Bishop", "Rook", "Queen"};
constexpr std::array<const char*, 5> kColumnNames = {"pawn", "knight", "bishop", "rook", "queen"};
constexpr std::size_t kSniffBytes = 4096;

struct Magic {
  std::string_view bytes;
  const char* what;
};
constexpr std::array<Magic, 8> kBinaryMagics = {{
    {"\xFF\xD8\xFF", "a JPEG image"},
    {"\x89PNG", "a PNG image"},
    {"GIF8", "a GIF image"},
    {"%PDF", "a PDF document"},
    {"PK\x03\x04", "a ZIP archive"},
    {"\x1F\x8B", "gzip-compressed data (name it .gz)"},
    {"\x28\xB5\x2F\xFD", "zstd-compressed data (decompress it first)"},
    {"BZh", "bzip2-compressed data (decompress it first)"},
}};

// Names what a first chunk looks like when it is clearly not text, or returns nullptr.
const char* binary_kind(const char* data, std::size_t size) {
  const std::string_view head(data, std::min(size, kSniffBytes));
  for (const Magic& magic : kBinaryMagics) {
    if (head.substr(0, magic.bytes.size()) == magic.bytes) return magic.what;
  }
  // Text never holds NUL bytes; a handful of other control bytes (0x1A, form feeds) it may.
  if (head.find('\0') != std::string_view::npos) return "binary data";
  return nullptr;
}

}  // namespace

// ---- reading ----

const char* dataset_mode_name(DatasetMode mode) {
  switch (mode) {
    case DatasetMode::kPerFile:
      return "per-file";
    case DatasetMode::kPerFilter:
      return "per-filter";
    case DatasetMode::kMerge:
      break;
  }
  return "merge";
}

learn::ModelOptions FitSettings::model() const {
  learn::ModelOptions model;
  model.outcomes =
      outcomes.value_or(draws == learn::DrawHandling::kHalfPoint ? learn::OutcomeModel::kFractional
                                                                 : learn::OutcomeModel::kDrawsOut);
  model.intercept = intercept;
  model.bishop_pair = bishop_pair;
  model.phase_tapered = phase;
  model.rating_offset = elo_offset;
  model.side_to_move = side_to_move;
  model.lambda = lambda;
  return model;
}

std::optional<Error> Engine::begin_read(const ReadOptions& options) {
  learn::IngestOptions ingest = options.unknown == learn::UnknownResultPolicy::kTreatAsDraw
                                    ? learn::IngestOptions::article()
                                    : learn::IngestOptions::defaults();
  ingest.max_reported_issues = kMaxListedIssues;
  ingest.quiet = options.quiet;
  const auto filter = learn::parse_game_filter(options.filter);
  if (!filter) return make_error(filter.error().code, "filter: " + filter.error().message);
  ingest.games = *filter;
  std::vector<Subset> subsets;
  if (options.datasets == DatasetMode::kPerFilter) {
    for (const std::string& each : options.each_filter) {
      const std::string text = learn::combine_game_filters(options.filter, each);
      const auto one = learn::parse_game_filter(text);
      if (!one) return make_error(one.error().code, each + ": " + one.error().message);
      learn::IngestOptions per = ingest;
      per.games = *one;
      per.max_reported_issues = 0;  // the merged dataset lists the issues
      subsets.push_back({each, std::make_unique<learn::DatasetBuilder>(per)});
      if (options.bootstrap > 0)
        subsets.back().builder->enable_bootstrap(options.bootstrap, options.seed);
    }
  }
  pending_ = std::make_unique<Dataset>();
  pending_->options = options;
  pending_->ingest = ingest;
  pending_->subsets = std::move(subsets);
  pending_->builder = std::make_unique<learn::DatasetBuilder>(ingest);
  if (options.bootstrap > 0 && options.datasets == DatasetMode::kMerge)
    pending_->builder->enable_bootstrap(options.bootstrap, options.seed);
  if (options.keep_rows) {
    Dataset* dataset = pending_.get();
    pending_->builder->set_row_sink([dataset](const learn::Row& row) {
      if (dataset->rows.size() >= kMaxKeptRows * 6) {
        dataset->rows_truncated = true;
        return;
      }
      for (std::int8_t d : row.key.delta) dataset->rows.push_back(d);
      dataset->rows.push_back(static_cast<std::int8_t>(learn::outcome_code(row.outcome)));
    });
  }
  return std::nullopt;
}

void Engine::begin_file(const std::string& name, double /*size*/) {
  if (!pending_) begin_read({});
  pending_->builder->begin_file(name);
  if (pending_->options.datasets == DatasetMode::kPerFile) {
    learn::IngestOptions per = pending_->ingest;
    per.max_reported_issues = 0;
    pending_->subsets.push_back({name, std::make_unique<learn::DatasetBuilder>(per)});
    if (pending_->options.bootstrap > 0) {
      pending_->subsets.back().builder->enable_bootstrap(pending_->options.bootstrap,
                                                         pending_->options.seed);
    }
    pending_->subsets.back().builder->begin_file(name);
  } else {
    for (Subset& subset : pending_->subsets) subset.builder->begin_file(name);
  }
  file_name_ = name;
  file_bytes_ = 0;
  file_error_.clear();
  file_hash_.reset();
  issues_before_file_ = pending_->builder->report().games.issues.size();
}

bool Engine::feed(const char* data, std::size_t size) {
  if (!pending_ || !file_error_.empty()) return false;
  if (file_bytes_ == 0 && size > 0) {
    if (const char* kind = binary_kind(data, size)) {
      file_error_ = "not PGN text: it looks like " + std::string(kind);
      return false;
    }
  }
  file_bytes_ += size;
  if (pending_->options.hash_files) file_hash_.update(data, size);
  pending_->builder->feed(data, size);
  if (pending_->options.datasets == DatasetMode::kPerFile) {
    pending_->subsets.back().builder->feed(data, size);
  } else {
    for (Subset& subset : pending_->subsets) subset.builder->feed(data, size);
  }
  return true;
}

std::string Engine::end_file() {
  if (!pending_) return "";
  pending_->builder->end_file();
  if (pending_->options.datasets == DatasetMode::kPerFile) {
    if (!pending_->subsets.empty()) pending_->subsets.back().builder->end_file();
  } else {
    for (Subset& subset : pending_->subsets) subset.builder->end_file();
  }
  const learn::DatasetReport& report = pending_->builder->report();
  std::string error = file_error_;
  if (error.empty() && file_bytes_ == 0) error = "the file is empty";
  if (error.empty() && !report.files.empty()) error = report.files.back().error;
  const auto& issues = report.games.issues;
  for (std::size_t i = issues_before_file_; i < issues.size(); ++i) {
    pending_->issues.push_back({file_name_, issues[i]});
  }
  if (!error.empty()) pending_->file_errors.push_back(file_name_ + ": " + error);
  pending_->digests.push_back(
      {file_name_, file_bytes_,
       file_error_.empty() && pending_->options.hash_files ? file_hash_.hex() : std::string()});
  return error;
}

ReadProgress Engine::progress() const {
  ReadProgress p;
  if (!pending_) return p;
  // Files read here so far, plus the parts of parallel reads imported so far.
  learn::IngestReport games = pending_->report.games;
  std::uint64_t bytes = pending_->report.bytes, rows = pending_->report.rows;
  if (pending_->builder && !pending_->ended) {
    const learn::DatasetReport live = pending_->builder->live_report();
    learn::merge_ingest_reports(games, live.games, 0);
    bytes += live.bytes;
    rows += live.rows;
  }
  p.bytes = bytes;
  p.games = games.games_read;
  p.used = games.games_used;
  p.partial = games.games_partial;
  p.skipped = games.games_skipped;
  p.rows = rows;
  return p;
}

bool Engine::end_read() {
  if (!pending_) return false;
  if (!pending_->ended) {  // the files read here join the imported ones
    const learn::DatasetReport& read = pending_->builder->report();
    pending_->histogram.merge(pending_->builder->histogram());
    learn::merge_ingest_reports(pending_->report.games, read.games, kMaxListedIssues);
    pending_->report.mat = read.mat;
    for (const learn::FileReport& file : read.files) pending_->report.files.push_back(file);
    pending_->report.bytes += read.bytes;
    pending_->report.rows += read.rows;
    pending_->ended = true;
  }
  last_read_report_ = pending_->report;
  last_read_issues_ = pending_->issues;
  last_read_errors_ = pending_->file_errors;
  if (pending_->histogram.totals().total() == 0) {
    pending_.reset();
    return false;
  }
  current_ = std::move(pending_);
  run_.reset();
  other_runs_.clear();
  newton_states_.clear();
  fits_.clear();
  finished_ = false;
  last_.reset();
  return true;
}

// ---- parallel reads ----

Part Engine::export_part() const {
  Part part;
  if (!pending_ || pending_->ended) return part;
  pending_->builder->histogram().for_each(
      [&part](const learn::RowKey& key, const learn::OutcomeCounts& counts) {
        part.keys.push_back(key.pack());
        part.counts.push_back(counts);
      });
  part.games = pending_->builder->report().games;
  part.rows = pending_->rows;
  part.rows_truncated = pending_->rows_truncated;
  part.file_errors = pending_->file_errors;
  return part;
}

void Engine::begin_import(const std::string& file_name) {
  if (!pending_) begin_read({});
  import_name_ = file_name;
  import_report_ = {};
}

void Engine::import_part(const Part& part, std::uint64_t line_offset, std::uint64_t game_offset) {
  if (!pending_) return;
  for (std::size_t i = 0; i < part.keys.size(); ++i) {
    pending_->histogram.add(learn::RowKey::unpack(part.keys[i]), part.counts[i]);
  }
  learn::IngestReport shifted = part.games;
  for (learn::GameIssue& issue : shifted.issues) {
    issue.line += line_offset;
    issue.game += game_offset;
    if (pending_->issues.size() < kMaxListedIssues)
      pending_->issues.push_back({import_name_, issue});
  }
  learn::merge_ingest_reports(import_report_, shifted, kMaxListedIssues);
  const std::size_t room = kMaxKeptRows * 6 - std::min(kMaxKeptRows * 6, pending_->rows.size());
  const std::size_t taken = std::min(room, part.rows.size());
  pending_->rows.insert(pending_->rows.end(), part.rows.begin(),
                        part.rows.begin() + static_cast<std::ptrdiff_t>(taken));
  pending_->rows_truncated =
      pending_->rows_truncated || part.rows_truncated || taken < part.rows.size();
}

void Engine::end_import(std::uint64_t bytes) {
  if (!pending_) return;
  learn::DatasetReport& report = pending_->report;
  learn::FileReport file;
  file.name = import_name_;
  file.bytes = bytes;
  file.games = import_report_.games_read;
  file.rows = import_report_.rows;
  if (file.games == 0 && bytes > 0) file.error = "no games found: is this a PGN file?";
  if (!file.error.empty()) pending_->file_errors.push_back(import_name_ + ": " + file.error);
  learn::merge_ingest_reports(report.games, import_report_, kMaxListedIssues);
  report.bytes += bytes;
  report.rows += file.rows;
  pending_->digests.push_back({import_name_, bytes, ""});
  report.files.push_back(std::move(file));
  import_report_ = {};
}

// ---- the current dataset ----

const learn::DatasetReport* Engine::report() const {
  return current_ ? &current_->report : nullptr;
}

std::size_t Engine::distinct_rows() const {
  return current_ ? current_->histogram.distinct() : 0;
}

std::vector<learn::BalanceBin> Engine::balance_bins() const {
  if (!current_) return {};
  return learn::balance_bins(current_->histogram);
}

std::vector<DatasetSummary> Engine::dataset_summaries() const {
  std::vector<DatasetSummary> out;
  for (const FitTarget& target : fit_targets()) {
    const learn::DatasetReport& r = *target.report;
    out.push_back(
        {target.name, r.games.games_read, r.games.games_used, r.games.games_filtered, r.rows});
  }
  return out;
}

const std::vector<FileDigest>& Engine::digests() const {
  static const std::vector<FileDigest> kNone;
  return current_ ? current_->digests : kNone;
}

void Engine::set_digest(std::size_t index, const std::string& sha256) {
  if (current_ && index < current_->digests.size()) current_->digests[index].sha256 = sha256;
}

const ReadOptions& Engine::read_options() const {
  static const ReadOptions kDefaults;
  return current_ ? current_->options : kDefaults;
}

std::vector<Engine::FitTarget> Engine::fit_targets() const {
  std::vector<FitTarget> targets;
  if (!current_) return targets;
  if (current_->subsets.empty()) {
    std::string name = current_->report.files.size() == 1 ? current_->report.files[0].name
                                                          : std::string("all files");
    targets.push_back(
        {std::move(name), &current_->histogram, current_->builder->bootstrap(), &current_->report});
    return targets;
  }
  for (const Subset& subset : current_->subsets) {
    if (subset.builder->histogram().totals().total() == 0) continue;  // nothing to fit
    targets.push_back({subset.name, &subset.builder->histogram(), subset.builder->bootstrap(),
                       &subset.builder->report()});
  }
  return targets;
}

void Engine::reset() {
  current_.reset();
  pending_.reset();
  run_.reset();
  fits_.clear();
  finished_ = false;
  newton_states_.clear();

  last_.reset();
  last_read_report_ = {};
  last_read_issues_.clear();
  last_read_errors_.clear();
}

// ---- fitting ----

Expected<int> Engine::begin_fit(const FitSettings& settings) {
  if (!has_data())
    return make_error(ErrorCode::kInvalidArgument, "no data to fit: read games first");
  settings_ = settings;
  run_.reset();
  newton_states_.clear();
  newton_next_ = 0;
  finished_ = false;
  fits_.clear();
  fit_errors_.clear();
  bootstraps_.clear();
  reason_.clear();
  analysis_ = learn::AnalysisSettings::article();
  analysis_.preset = settings.preset;
  analysis_.model = settings.model();
  analysis_.gd.learning_rate = settings.step;
  analysis_.gd.iterations = settings.iterations;
  analysis_.solver =
      settings.newton ? learn::SolverKind::kNewton : learn::SolverKind::kGradientDescent;
  if (!settings.newton) {
    if (auto why = learn::check_gradient_descent(analysis_.model)) {
      analysis_.solver = learn::SolverKind::kNewton;
      reason_ = why->message;
    }
  }
  spec_ = learn::model_spec(analysis_.model);
  targets_ = fit_targets();
  if (targets_.empty()) {
    return make_error(ErrorCode::kInvalidArgument,
                      "no dataset has rows: every game was filtered out of every dataset");
  }
  const learn::Histogram& first = *targets_.front().histogram;
  const learn::OutcomeCounts& totals = first.totals();
  if (analysis_.model.outcomes == learn::OutcomeModel::kDrawsOut &&
      totals[learn::Outcome::kDraw] == totals.total()) {
    return make_error(ErrorCode::kInvalidArgument,
                      "every row is a draw: nothing to fit with draws left out");
  }
  if (analysis_.solver == learn::SolverKind::kGradientDescent) {
    auto run = learn::GradientDescentRun::start(first, analysis_);
    if (!run) return run.error();
    run_.emplace(std::move(*run));
    for (std::size_t i = 1; i < targets_.size(); ++i) {
      auto other = learn::GradientDescentRun::start(*targets_[i].histogram, analysis_);
      other_runs_.push_back(other ? std::optional(std::move(*other)) : std::nullopt);
    }
    last_ = snapshot_from(run_->state(), false);
    if (run_->finished()) finish_fits();  // zero iterations asked for
    return settings.iterations;
  }
  // Newton: fit the first dataset now; binary models show their iterates one by one.
  Expected<learn::ModelFit> fit = learn::fit_model(first, analysis_.model);
  if (!fit) return fit.error();
  fits_.assign(targets_.size(), std::nullopt);
  fits_[0] = std::move(*fit);
  const learn::ModelOptions& model = analysis_.model;
  if (model.outcomes != learn::OutcomeModel::kOrdinal && !model.rating_offset) {
    const learn::LogisticData data = learn::make_logistic_data(
        learn::build_design(first, spec_), model.outcomes == learn::OutcomeModel::kFractional
                                               ? learn::DrawHandling::kHalfPoint
                                               : learn::DrawHandling::kLeaveOut);
    learn::NewtonOptions options;
    options.lambda = model.lambda;
    std::vector<learn::FitState> states;
    const Expected<learn::FitResult> result =
        learn::fit_newton(data, options, [&states](const learn::FitState& state) {
          states.push_back(state);
          return true;
        });
    if (result.ok()) newton_states_ = std::move(states);
  }
  if (newton_states_.empty()) {
    // No iterates to show (ordinal, rating offset): only the fit itself. A line from θ = 0 would
    // be made up, and the ordinal loss at θ = 0 is not even finite.
    learn::FitState final_state;
    final_state.iteration = fits_[0]->iterations;
    final_state.theta = fits_[0]->theta;
    final_state.loss = fits_[0]->loss;
    newton_states_ = {final_state};
  }
  last_ = snapshot_from(newton_states_.front(), false);
  newton_next_ = 1;
  if (newton_next_ >= newton_states_.size()) finish_fits();
  return static_cast<int>(newton_states_.size()) - 1;
}

Snapshot Engine::step(int n) {
  if (finished_) return last_.value_or(Snapshot{});
  if (run_) {
    run_->step(std::max(1, n));
    for (auto& other : other_runs_) {
      if (other) other->step(std::max(1, n));
    }
    last_ = snapshot_from(run_->state(), false);
    if (run_->finished()) finish_fits();
  } else if (newton_next_ < newton_states_.size()) {
    ++newton_next_;
    last_ = snapshot_from(newton_states_[newton_next_ - 1], false);
    if (newton_next_ == newton_states_.size()) finish_fits();
  }
  return last_.value_or(Snapshot{});
}

bool Engine::fit_finished() const {
  return finished_;
}

std::vector<Snapshot> Engine::other_snapshots() const {
  std::vector<Snapshot> snapshots;
  for (std::size_t i = 0; i < other_runs_.size(); ++i) {
    if (!other_runs_[i]) continue;
    Snapshot s = snapshot_from(other_runs_[i]->state(), false);
    s.dataset = static_cast<int>(i + 1);
    snapshots.push_back(std::move(s));
  }
  return snapshots;
}

void Engine::finish_fits() {
  fits_.resize(targets_.size());
  fit_errors_.assign(targets_.size(), "");
  if (run_) fits_[0] = run_->fit();
  for (std::size_t i = 1; i < targets_.size(); ++i) {
    if (i - 1 < other_runs_.size() && other_runs_[i - 1]) {
      fits_[i] = other_runs_[i - 1]->fit();  // stepped alongside the first: the same iterations
      continue;
    }
    Expected<learn::ModelFit> fit = learn::run_analysis(*targets_[i].histogram, analysis_);
    if (fit) {
      fits_[i] = std::move(*fit);
    } else {
      fit_errors_[i] = fit.error().message;
    }
  }
  bootstraps_.assign(targets_.size(), std::nullopt);
  for (std::size_t i = 0; i < targets_.size(); ++i) {
    if (targets_[i].bootstrap != nullptr && fits_[i]) {
      bootstraps_[i] = learn::bootstrap_model(*targets_[i].bootstrap, analysis_.model);
    }
  }
  finished_ = true;
  if (last_ && fits_[0]) {
    // The final snapshot: the fit's θ (identical to the last state) with standard errors.
    last_->value_se.clear();
    for (std::size_t j = 0; j < last_->theta.size() && j < fits_[0]->coefficients.size(); ++j) {
      last_->value_se.push_back(fits_[0]->coefficients[j].value.se);
    }
  }
}

Snapshot Engine::snapshot_from(const learn::FitState& state, bool /*final*/) const {
  Snapshot s;
  s.iteration = state.iteration;
  s.theta = state.theta;
  s.values = learn::relative_values(state.theta, std::max(0, spec_.pawn_column()));
  s.loss = state.loss;
  s.gradient_norm = state.gradient_norm;
  for (const learn::Feature& feature : spec_.features) s.columns.push_back(feature.name());
  return s;
}

// ---- exports ----

std::string Engine::mat_chunk(std::size_t from_row, std::size_t max_rows) const {
  std::string out;
  if (!current_) return out;
  const std::vector<std::int8_t>& rows = current_->rows;
  const std::size_t end = std::min(rows.size() / 6, from_row + max_rows);
  out.reserve((end > from_row ? end - from_row : 0) * 18);
  for (std::size_t r = from_row; r < end; ++r) {
    const std::int8_t* row = rows.data() + 6 * r;
    learn::MaterialVector delta{};
    std::copy(row, row + 5, delta.begin());
    const learn::Outcome outcome =
        row[5] < 0 ? learn::Outcome::kUnknown : static_cast<learn::Outcome>(row[5]);
    learn::append_mat_row(out, delta, outcome);
  }
  return out;
}

std::string Engine::values_csv() const {
  std::string out = "piece,value,standard_error,theta\n";
  if (!last_) return out;
  char line[160];
  for (std::size_t i = 0; i < last_->values.size(); ++i) {
    const double se = i < last_->value_se.size() ? last_->value_se[i] : NAN;
    const std::string name = i < kPieceNames.size() && last_->columns[i] == kColumnNames[i]
                                 ? std::string(kPieceNames[i])
                                 : last_->columns[i];
    std::snprintf(line, sizeof line, "%s,%.4f,%.4f,%.9g\n", name.c_str(), last_->values[i], se,
                  last_->theta[i]);
    out += line;
  }
  return out;
}

std::string Engine::result_json() const {
  JsonWriter json;
  json.begin_object();
  json.field("preset", settings_.preset);
  json.field("solver",
             analysis_.solver == learn::SolverKind::kNewton ? "newton" : "gradient-descent");
  json.field("outcomes", learn::outcome_model_name(analysis_.model.outcomes));
  json.field("draws", settings_.draws == learn::DrawHandling::kHalfPoint ? "half" : "exclude");
  json.field("step", settings_.step).field("lambda", settings_.lambda);
  if (last_) {
    json.field("iterations", last_->iteration).field("loss", last_->loss);
    json.key("theta").begin_array();
    for (double t : last_->theta) json.value(t);
    json.end_array();
    json.key("values").begin_object();
    for (std::size_t i = 0; i < last_->values.size(); ++i) {
      json.field(learn::piece_key(last_->columns[i]), last_->values[i]);
    }
    json.end_object();
    json.key("standardErrors").begin_object();
    for (std::size_t i = 0; i < last_->value_se.size(); ++i) {
      json.field(learn::piece_key(last_->columns[i]), last_->value_se[i]);
    }
    json.end_object();
  }
  if (const learn::DatasetReport* r = report()) {
    json.key("data").begin_object();
    json.field("bytes", r->bytes).field("rows", r->rows);
    json.field("games", r->games.games_read).field("used", r->games.games_used);
    json.field("partial", r->games.games_partial).field("skipped", r->games.games_skipped);
    json.key("files").begin_array();
    for (const learn::FileReport& f : r->files) json.value(f.name);
    json.end_array();
    json.end_object();
  }
  json.end_object();
  return json.take();
}

// ---- fits of every dataset (fit-done, provenance) ----

namespace {

constexpr double kCurveFrom = -10, kCurveTo = 10;
constexpr int kCurveSteps = 80;

void field_or_null(JsonWriter& json, const char* key, double value) {
  json.key(key);
  if (std::isfinite(value)) {
    json.value(value);
  } else {
    json.null();
  }
}

}  // namespace

void Engine::write_fit(JsonWriter& json, std::size_t index) const {
  const FitTarget& target = targets_[index];
  const learn::DatasetReport& report = *target.report;
  const learn::OutcomeCounts& totals = target.histogram->totals();
  json.begin_object().field("name", target.name);
  json.field("games", report.games.games_read).field("used", report.games.games_used);
  json.field("rows", totals.total());
  json.field("decisiveRows", totals[learn::Outcome::kWhiteWin] + totals[learn::Outcome::kBlackWin]);
  const std::vector<learn::BalanceBin> bins = learn::balance_bins(*target.histogram);
  const Expected<learn::BalanceFit> alpha = learn::fit_balance_alpha(bins);
  if (!fits_[index]) {
    json.field("error", index < fit_errors_.size() ? fit_errors_[index] : std::string("no fit"));
  } else {
    const learn::ModelFit& fit = *fits_[index];
    const learn::BootstrapFit* boot = bootstraps_[index] ? &*bootstraps_[index] : nullptr;
    json.field("loss", fit.loss).field("iterations", fit.iterations);
    field_or_null(json, "drawMargin",
                  fit.has_margin() ? fit.draw_margin * 400 / std::log(10.0) : NAN);
    if (boot) json.field("replicates", boot->replicates).field("failedReplicates", boot->failed);
    json.key("coefficients").begin_array();
    for (std::size_t i = 0; i < fit.coefficients.size(); ++i) {
      const learn::Coefficient& c = fit.coefficients[i];
      json.begin_object().field("name", c.name);
      field_or_null(json, "value", c.value.value);
      field_or_null(json, "valueSe", c.value.se);
      field_or_null(json, "elo", c.elo.value);
      field_or_null(json, "eloSe", c.elo.se);
      field_or_null(json, "theta", c.theta.value);
      field_or_null(json, "thetaSe", c.theta.se);
      const bool interval = boot && i < boot->coefficients.size();
      field_or_null(json, "low", interval ? boot->coefficients[i].value_interval.low : NAN);
      field_or_null(json, "high", interval ? boot->coefficients[i].value_interval.high : NAN);
      json.end_object();
    }
    json.end_array();
    json.key("relations").begin_array();
    for (const learn::RelationEstimate& r : learn::capablanca_relations(fit)) {
      json.begin_object().field("relation", r.relation);
      field_or_null(json, "margin", r.margin.value);
      field_or_null(json, "se", r.margin.se);
      json.field("verdict", learn::verdict_name(r.verdict)).field("equality", r.equality);
      json.end_object();
    }
    json.end_array();
    json.key("curve").begin_array();
    for (const learn::BalancePoint& p :
         learn::pawn_balance_curve(fit, kCurveFrom, kCurveTo, kCurveSteps)) {
      json.begin_object().field("pawns", p.pawns);
      field_or_null(json, "win", p.probabilities.white_win);
      field_or_null(json, "draw", p.probabilities.draw);
      field_or_null(json, "loss", p.probabilities.black_win);
      json.end_object();
    }
    json.end_array();
  }
  json.key("balance").begin_object().key("bins").begin_array();
  for (const learn::BalanceBin& bin : bins) {
    json.begin_object().field("dm", bin.balance);
    json.field("white", bin.counts[learn::Outcome::kWhiteWin]);
    json.field("draws", bin.counts[learn::Outcome::kDraw]);
    json.field("black", bin.counts[learn::Outcome::kBlackWin]).end_object();
  }
  json.end_array();
  field_or_null(json, "alpha", alpha.ok() ? alpha->alpha : NAN);
  json.end_object().end_object();
}

void Engine::write_fits(JsonWriter& json) const {
  json.key("fits").begin_array();
  if (finished_) {
    for (std::size_t i = 0; i < targets_.size(); ++i) write_fit(json, i);
  }
  json.end_array();
}

void Engine::write_differences(JsonWriter& json) const {
  json.key("differences").begin_array();
  if (finished_ && !fits_.empty() && fits_[0]) {
    const learn::Contrast bishop_minus_knight = {{"bishop", 1}, {"knight", -1}};
    const learn::DatasetFit first{targets_[0].name, *fits_[0], bootstraps_[0]};
    for (std::size_t i = 1; i < targets_.size(); ++i) {
      if (!fits_[i]) continue;
      const learn::DatasetFit other{targets_[i].name, *fits_[i], bootstraps_[i]};
      // compare_contrast(b, a): the difference is B−N in dataset i minus B−N in the first.
      const learn::DatasetDifference d = learn::compare_contrast(other, first, bishop_minus_knight);
      json.begin_object().field("a", 0).field("b", static_cast<int>(i));
      json.field("contrast", "B-N");
      field_or_null(json, "diff", d.z_test.difference);
      field_or_null(json, "se", d.z_test.se);
      field_or_null(json, "p", d.z_test.p_value);
      field_or_null(json, "bootstrapP", d.has_bootstrap ? d.bootstrap_p : NAN);
      json.end_object();
    }
  }
  json.end_array();
}

std::string Engine::fits_json() const {
  JsonWriter json;
  json.begin_object();
  if (!reason_.empty()) json.field("reason", reason_);
  write_fits(json);
  write_differences(json);
  json.end_object();
  return json.take();
}

std::string Engine::provenance_json() const {
  JsonWriter json;
  json.begin_object().field("tool", "materialist");
  json.key("files").begin_array();
  for (const FileDigest& digest : digests()) {
    json.begin_object().field("name", digest.name).field("bytes", digest.bytes);
    json.key("sha256");
    if (digest.sha256.empty()) {
      json.null();
    } else {
      json.value(digest.sha256);
    }
    json.end_object();
  }
  json.end_array();
  const ReadOptions& read = read_options();
  const learn::ModelOptions& model = analysis_.model;
  json.key("settings").begin_object();
  json.field("filter", read.filter);
  json.field("unknown", read.unknown == learn::UnknownResultPolicy::kSkip ? "skip" : "draw");
  json.key("quiet").begin_object();
  json.field("plies", read.quiet.quiet_plies).field("checksBreak", read.quiet.checks_break_quiet);
  json.field("distinct", read.quiet.distinct_per_game)
      .field("skipFirst", read.quiet.skip_first_plies);
  json.end_object();
  json.field("datasets", dataset_mode_name(read.datasets));
  json.key("eachFilter").begin_array();
  for (const std::string& each : read.each_filter) json.value(each);
  json.end_array();
  json.field("bootstrap", read.bootstrap).field("seed", read.seed);
  json.field("preset", settings_.preset).field("solver", learn::solver_name(analysis_.solver));
  if (!reason_.empty()) json.field("reason", reason_);
  json.field("step", analysis_.gd.learning_rate).field("iterations", analysis_.gd.iterations);
  json.field("lambda", model.lambda);
  json.key("model").begin_object();
  json.field("outcomes", learn::outcome_model_name(model.outcomes));
  json.field("intercept", model.intercept).field("bishopPair", model.bishop_pair);
  json.field("phase", model.phase_tapered).field("eloOffset", model.rating_offset);
  json.field("sideToMove", model.side_to_move).end_object();
  json.end_object();
  if (const learn::DatasetReport* r = report()) {
    json.key("data").begin_object();
    learn::write_dataset_fields(json, *r, 0);
    json.end_object();
  }
  write_fits(json);
  write_differences(json);
  json.end_object();
  return json.take();
}

std::string Engine::code_header() const {
  std::string out =
      "// Piece values learned by Materialist (logistic regression on quiet positions)\n";
  const learn::DatasetReport* r = report();
  if (r != nullptr) {
    out += "// data:";
    for (const learn::FileReport& file : r->files) out += " " + file.name;
    out += "; " + std::to_string(r->games.games_used + r->games.games_partial) + " games, " +
           std::to_string(r->rows) + " rows\n";
  }
  const ReadOptions& read = read_options();
  out += "// settings: preset " + settings_.preset + ", solver " +
         learn::solver_name(analysis_.solver) + ", outcomes " +
         learn::outcome_model_name(analysis_.model.outcomes);
  if (!read.filter.empty()) out += ", filter \"" + read.filter + "\"";
  out += "\n#pragma once\n\n";
  if (!finished_ || fits_.empty() || !fits_[0]) return out + "// (no fit yet)\n";
  const std::vector<double> values = learn::piece_values(*fits_[0]);
  if (std::isnan(values[0])) {  // phase-tapered: no single piece values
    out += "// the model has no single piece values (phase-tapered); its columns:\n";
    for (const learn::Coefficient& c : fits_[0]->coefficients) {
      if (std::isfinite(c.value.value)) {
        char line[96];
        std::snprintf(line, sizeof line, "//   %s %.0f\n", c.name.c_str(), c.value.value);
        out += line;
      }
    }
    return out;
  }
  out += "// Pawn, knight, bishop, rook, queen in centipawns (pawn = 100).\n";
  out += "constexpr int kPieceValues[5] = {";
  for (std::size_t i = 0; i < values.size(); ++i) {
    out += (i ? ", " : "") + std::to_string(static_cast<long>(std::lround(values[i])));
  }
  out += "};\n";
  return out;
}

}  // namespace materialist::worker
