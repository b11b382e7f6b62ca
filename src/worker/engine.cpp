#include "worker/engine.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string_view>

#include "core/json.h"
#include "learn/design.h"
#include "learn/mat_io.h"
#include "learn/uncertainty.h"

namespace materialist::worker {
namespace {

constexpr std::array<const char*, 5> kPieceNames = {"Pawn", "Knight", "Bishop", "Rook", "Queen"};
constexpr std::array<const char*, 5> kPieceLetters = {"P", "N", "B", "R", "Q"};
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

void Engine::begin_read(const ReadOptions& options) {
  pending_ = std::make_unique<Dataset>();
  learn::IngestOptions ingest = options.unknown == learn::UnknownResultPolicy::kTreatAsDraw
                                    ? learn::IngestOptions::article()
                                    : learn::IngestOptions::defaults();
  ingest.max_reported_issues = kMaxListedIssues;
  pending_->builder = std::make_unique<learn::DatasetBuilder>(ingest);
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
}

void Engine::begin_file(const std::string& name, double /*size*/) {
  if (!pending_) begin_read({});
  pending_->builder->begin_file(name);
  file_name_ = name;
  file_bytes_ = 0;
  file_error_.clear();
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
  pending_->builder->feed(data, size);
  return true;
}

std::string Engine::end_file() {
  if (!pending_) return "";
  pending_->builder->end_file();
  const learn::DatasetReport& report = pending_->builder->report();
  std::string error = file_error_;
  if (error.empty() && file_bytes_ == 0) error = "the file is empty";
  if (error.empty() && !report.files.empty()) error = report.files.back().error;
  const auto& issues = report.games.issues;
  for (std::size_t i = issues_before_file_; i < issues.size(); ++i) {
    pending_->issues.push_back({file_name_, issues[i]});
  }
  if (!error.empty()) pending_->file_errors.push_back(file_name_ + ": " + error);
  return error;
}

ReadProgress Engine::progress() const {
  ReadProgress p;
  if (!pending_) return p;
  // Files read here so far, plus the parts of parallel reads imported so far.
  learn::IngestReport games = pending_->report.games;
  std::uint64_t bytes = pending_->report.bytes, rows = pending_->report.rows;
  if (pending_->builder) {
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
  if (pending_->builder) {  // the files read here join the imported ones
    const learn::DatasetReport& read = pending_->builder->report();
    pending_->histogram.merge(pending_->builder->histogram());
    learn::merge_ingest_reports(pending_->report.games, read.games, kMaxListedIssues);
    pending_->report.mat = read.mat;
    for (const learn::FileReport& file : read.files) pending_->report.files.push_back(file);
    pending_->report.bytes += read.bytes;
    pending_->report.rows += read.rows;
    pending_->builder.reset();
  }
  last_read_report_ = pending_->report;
  last_read_issues_ = pending_->issues;
  last_read_errors_ = pending_->file_errors;
  if (pending_->histogram.totals().total() == 0) {
    pending_.reset();
    return false;
  }
  current_ = std::move(pending_);
  descent_.reset();
  newton_states_.clear();
  last_.reset();
  return true;
}

// ---- parallel reads ----

Part Engine::export_part() const {
  Part part;
  if (!pending_ || !pending_->builder) return part;
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

void Engine::reset() {
  current_.reset();
  pending_.reset();
  descent_.reset();
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
  descent_.reset();
  newton_states_.clear();
  newton_next_ = 0;
  newton_result_.reset();
  const learn::Design design =
      learn::build_design(current_->histogram, learn::ModelSpec::article());
  data_ = learn::make_logistic_data(design, settings.draws);
  if (data_.total_weight <= 0) {
    return make_error(ErrorCode::kInvalidArgument,
                      settings.draws == learn::DrawHandling::kLeaveOut
                          ? "every row is a draw: nothing to fit with draws left out"
                          : "no rows to fit");
  }
  if (!settings.newton) {
    learn::GradientDescentOptions options;
    options.learning_rate = settings.step;
    options.lambda = settings.lambda;
    options.iterations = settings.iterations;
    descent_ = std::make_unique<learn::GradientDescent>(data_, options);
    last_ = snapshot_from(descent_->state(), false);
    return settings.iterations;
  }
  learn::NewtonOptions options;
  options.lambda = settings.lambda;
  std::vector<learn::FitState> states;
  Expected<learn::FitResult> result =
      learn::fit_newton(data_, options, [&states](const learn::FitState& state) {
        states.push_back(state);
        return true;
      });
  if (!result.ok()) return result.error();
  newton_result_ = std::move(result.value());
  newton_states_ = std::move(states);
  last_ = snapshot_from(newton_states_.front(), newton_states_.size() == 1);
  newton_next_ = 1;
  return static_cast<int>(newton_states_.size()) - 1;
}

Snapshot Engine::step(int n) {
  if (descent_) {
    descent_->step(std::max(1, n));
    last_ = snapshot_from(descent_->state(), descent_->finished());
  } else if (newton_next_ < newton_states_.size()) {
    ++newton_next_;
    last_ = snapshot_from(newton_states_[newton_next_ - 1], newton_next_ == newton_states_.size());
  }
  return last_.value_or(Snapshot{});
}

bool Engine::fit_finished() const {
  if (descent_) return descent_->finished();
  return newton_next_ >= newton_states_.size();
}

Snapshot Engine::snapshot_from(const learn::FitState& state, bool with_se) const {
  Snapshot s;
  s.iteration = state.iteration;
  s.theta = state.theta;
  s.values = learn::relative_values(state.theta, 0);
  s.loss = state.loss;
  s.gradient_norm = state.gradient_norm;
  if (!with_se) return s;
  // Standard errors from the Fisher information m·(∇²J − 2λI) at the final θ (delta method).
  const learn::FitResult result = descent_ ? descent_->result() : *newton_result_;
  const int n = static_cast<int>(result.theta.size());
  if (n == 0 || result.hessian.size() != static_cast<std::size_t>(n * n)) return s;
  std::vector<double> information = result.hessian;
  for (int i = 0; i < n; ++i) information[i * n + i] -= 2 * settings_.lambda;
  for (double& v : information) v *= result.total_weight;
  const Expected<std::vector<double>> covariance = learn::invert_symmetric(information, n);
  if (!covariance.ok()) return s;
  for (int j = 0; j < n; ++j) {
    s.value_se.push_back(learn::ratio_estimate(state.theta, *covariance, j, 0).se);
  }
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
  for (std::size_t i = 0; i < last_->values.size() && i < kPieceNames.size(); ++i) {
    const double se = i < last_->value_se.size() ? last_->value_se[i] : NAN;
    std::snprintf(line, sizeof line, "%s,%.4f,%.4f,%.9g\n", kPieceNames[i], last_->values[i], se,
                  last_->theta[i]);
    out += line;
  }
  return out;
}

std::string Engine::result_json() const {
  JsonWriter json;
  json.begin_object();
  json.field("preset", settings_.preset);
  json.field("solver", settings_.newton ? "newton" : "gradient-descent");
  json.field("draws", settings_.draws == learn::DrawHandling::kHalfPoint ? "half" : "exclude");
  json.field("step", settings_.step).field("lambda", settings_.lambda);
  if (last_) {
    json.field("iterations", last_->iteration).field("loss", last_->loss);
    json.key("theta").begin_array();
    for (double t : last_->theta) json.value(t);
    json.end_array();
    json.key("values").begin_object();
    for (std::size_t i = 0; i < last_->values.size() && i < kPieceLetters.size(); ++i) {
      json.field(kPieceLetters[i], last_->values[i]);
    }
    json.end_object();
    json.key("standardErrors").begin_object();
    for (std::size_t i = 0; i < last_->value_se.size() && i < kPieceLetters.size(); ++i) {
      json.field(kPieceLetters[i], last_->value_se[i]);
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

}  // namespace materialist::worker
