// The engine's reading: files into datasets (merged, per file or per filter), parallel imports.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string_view>

#include "core/json.h"
#include "core/text.h"
#include "learn/filter/game_filter.h"
#include "learn/fit/compare.h"
#include "learn/fit/design.h"
#include "learn/fit/uncertainty.h"
#include "learn/read/empty_read.h"
#include "learn/read/report_json.h"
#include "learn/stats/bootstrap_histograms.h"
#include "learn/stats/mat_io.h"
#include "protocol/codec.h"
#include "worker/engine.h"

namespace materialist::worker {

// ---- reading ----

std::optional<Error> Engine::begin_read(const ReadOptions& options) {
  learn::ReadRequest request;
  request.unknown = options.unknown;
  request.quiet = options.quiet;
  request.filter = options.filter;
  request.target = options.target;
  request.mode = options.datasets == DatasetMode::kPerFile     ? learn::SplitMode::kPerFile
                 : options.datasets == DatasetMode::kPerFilter ? learn::SplitMode::kPerFilter
                                                               : learn::SplitMode::kMerge;
  request.each_filter = options.each_filter;
  request.keep = options.keep;
  request.keep_boards = options.keep.boards;
  request.max_games = options.max_games;
  request.bootstrap = options.bootstrap;
  request.seed = options.seed;
  request.max_reported_issues = kMaxListedIssues;
  request.subset_max_issues = 0;  // the merged dataset lists the issues
  auto split = learn::split_options_for(request);
  if (!split) return split.error();
  Expected<learn::DatasetSplit> created = learn::DatasetSplit::create(std::move(*split));
  if (!created) return created.error();
  file_.close();  // it reads into the pending dataset
  pending_ = std::make_unique<Dataset>();
  pending_->options = options;
  pending_->split.emplace(std::move(*created));
  pending_->pairs = learn::GamePairs(options.keep);
  if (options.keep.boards) pending_->squares.emplace(squares_data_options(options.target));
  if (options.keep_rows || options.keep.boards) {
    Dataset* dataset = pending_.get();
    const bool mat = options.keep_rows;
    pending_->split->merged().set_row_sink([dataset, mat](const learn::Row& row) {
      if (mat) learn::append_mat_row(dataset->mat_text, row.key.delta, row.outcome);
      if (dataset->squares) dataset->squares->add(row);
    });
  }
  return std::nullopt;
}

void Engine::begin_file(const std::string& name, double /*size*/) {
  if (!pending_) begin_read({});
  if (file_.open()) end_file();
  file_.begin(*pending_, name);
}

void Engine::begin_range(const std::string& name, bool file_start) {
  if (!pending_) begin_read({});
  if (file_.open()) end_file();
  file_.begin(*pending_, name, file_start ? FileStretch::kFileStart : FileStretch::kAfterStart);
}

bool Engine::feed(const char* data, std::size_t size) {
  return pending_ && file_.feed(*pending_, data, size);
}

std::optional<FileError> Engine::end_file() {
  if (!pending_ || !file_.open()) return std::nullopt;
  return file_.end(*pending_);
}

protocol::Progress Engine::progress() const {
  protocol::Progress p;
  if (!pending_) return p;
  // Files read here so far, plus the parts of parallel reads imported so far.
  learn::IngestReport games = pending_->report.games;
  std::uint64_t bytes = pending_->report.bytes, rows = pending_->report.rows;
  if (!pending_->ended) {
    const learn::DatasetReport live = pending_->split->merged().live_report();
    learn::merge_ingest_reports(games, live.games, 0);
    bytes += live.bytes;
    rows += live.rows;
  }
  p.bytes = static_cast<double>(bytes);
  p.games = games.games_read;
  p.used = games.games_used;
  p.partial = games.games_partial;
  p.skipped = games.games_skipped;
  p.rows = rows;
  return p;
}

bool Engine::end_read() {
  if (!pending_) return false;
  if (file_.open()) end_file();
  if (!pending_->ended) {  // the files read here join the imported ones
    const learn::DatasetBuilder& merged = pending_->split->merged();
    const learn::DatasetReport& read = merged.report();
    pending_->histogram.merge(merged.histogram());
    pending_->pairs.merge(*merged.pairs());
    learn::merge_ingest_reports(pending_->report.games, read.games, kMaxListedIssues);
    pending_->report.mat = read.mat;
    for (const learn::FileReport& file : read.files) pending_->report.files.push_back(file);
    pending_->report.bytes += read.bytes;
    pending_->report.rows += read.rows;
    pending_->report.stopped_at_limit = pending_->report.stopped_at_limit || read.stopped_at_limit;
    pending_->ended = true;
  }
  last_read_report_ = pending_->report;
  last_read_target_ = pending_->options.target;
  last_read_made_with_.reset();
  if (!pending_->stats_source.empty()) last_read_made_with_ = pending_->options;
  last_read_issues_ = pending_->issues;
  last_read_errors_ = pending_->file_errors;
  if (pending_->histogram.totals().total() == 0) {
    pending_.reset();
    return false;
  }
  fit_ = FitSession{};  // before the data its targets point into goes
  squares_.clear();
  current_ = std::move(pending_);
  return true;
}

// ---- parallel reads ----

Part Engine::export_part() const {
  if (!pending_ || pending_->ended) return Part{};
  const learn::DatasetBuilder& merged = pending_->split->merged();
  Part part = part_of(merged.histogram(), *merged.pairs(), merged.report().games);
  part.file_errors = pending_->file_errors;
  if (pending_->squares) {
    part.has_squares = true;
    part.squares_rows = pending_->squares->rows();
    part.squares_tally = pending_->squares->tally();
  }
  return part;
}

std::uint64_t Engine::line_breaks() const {
  if (!pending_) return 0;
  std::uint64_t lines = 0;
  for (const learn::FileReport& file : pending_->split->live_report().files) {
    lines += file.line_breaks;
  }
  return lines;
}

void Engine::begin_import(const std::string& file_name) {
  if (!pending_) begin_read({});
  import_.begin(file_name, pending_->pairs.fields());
}

void Engine::import_part(const Part& part, std::uint64_t line_offset, std::uint64_t game_offset) {
  if (pending_) import_.add(*pending_, part, line_offset, game_offset);
}

std::optional<FileError> Engine::end_import(std::uint64_t bytes) {
  if (!pending_) return std::nullopt;
  std::optional<Error> error = import_.end_file(*pending_, bytes);
  if (!error) return std::nullopt;
  return FileError{std::move(*error), false};  // the shares' own errors say what was kept
}

std::string Engine::take_mat_text() {
  std::string out;
  if (pending_) out.swap(pending_->mat_text);
  return out;
}

// ---- the current dataset ----

const learn::DatasetReport* Engine::report() const {
  return current_ ? &current_->report : nullptr;
}

std::size_t Engine::distinct_rows() const {
  return current_ ? current_->histogram.distinct() : 0;
}

protocol::Balance balance_of(const learn::Histogram& histogram) {
  protocol::Balance out;
  const std::vector<learn::BalanceBin> bins = learn::balance_bins(histogram);
  for (const learn::BalanceBin& bin : bins) {
    if (bin.targets) {  // the evaluation target: White's expected score, no draws
      out.bins.push_back({bin.balance, *bin.targets, 0, double(bin.rows()) - *bin.targets});
      continue;
    }
    out.bins.push_back({bin.balance, double(bin.counts[learn::Outcome::kWhiteWin]),
                        double(bin.counts[learn::Outcome::kDraw]),
                        double(bin.counts[learn::Outcome::kBlackWin])});
  }
  const Expected<learn::BalanceFit> fit = learn::fit_balance_alpha(bins);
  if (fit.ok()) out.alpha = fit->alpha;
  return out;
}

namespace {

std::string issue_reason(const learn::GameIssue& issue) {
  std::string reason = issue.status == learn::GameStatus::kPartial ? "partial, " : "skipped, ";
  reason += learn::issue_reason_name(issue.reason);
  if (!issue.detail.empty()) reason += ": " + issue.detail;
  if (issue.rows_kept > 0) reason += " (" + grouped(issue.rows_kept) + " rows kept)";
  return reason;
}

}  // namespace

protocol::Balance Engine::balance() const {
  return current_ ? balance_of(current_->histogram) : protocol::Balance{};
}

protocol::DataReport Engine::data_report() const {
  // The last read's own figures, committed or not (a failed read after a good one must not
  // show the old data's counts beside its own errors).
  const learn::DatasetReport& r = last_read_report();
  protocol::DataReport out;
  out.games = r.games.games_read;
  out.used = r.games.games_used;
  out.partial = r.games.games_partial;
  out.skipped = r.games.games_skipped;
  out.filtered = r.games.games_filtered;
  for (int i = 1; i < learn::kFilterReasonCount; ++i) {
    const auto reason = static_cast<learn::FilterReason>(i);
    const std::uint64_t n = r.games.filter_tally.count(reason);
    if (n > 0) out.filtered_by.push_back({learn::filter_reason_name(reason), n});
  }
  const std::vector<DatasetSummary> summaries = dataset_summaries();
  if (summaries.size() > 1) out.datasets = summaries;
  out.rows = r.rows;
  const learn::OutcomeCounts& by = r.games.rows_by_outcome;
  out.draw_rows = by[learn::Outcome::kDraw];
  out.white_win_rows = by[learn::Outcome::kWhiteWin];
  out.black_win_rows = by[learn::Outcome::kBlackWin];
  out.decisive_rows = out.white_win_rows + out.black_win_rows;
  out.distinct_rows = distinct_rows();
  out.bytes = static_cast<double>(r.bytes);
  out.stopped_at_limit = r.stopped_at_limit;
  out.plies = r.games.plies_replayed;
  out.issue_total = r.games.issue_count;
  for (const learn::FileReport& file : r.files) out.files.push_back(file.name);
  out.file_errors = last_read_errors_;
  out.target = last_read_target_;
  out.made_with = last_read_made_with_;
  if (out.target == learn::Target::kEval) {
    out.unannotated_rows = r.games.rows_without_eval;
    out.games_with_evals = r.games.games_with_evals;
    out.games_without_evals = r.games.games_without_evals;
    out.malformed_evals = r.games.malformed_evals;
  }
  for (const FileIssue& f : last_read_issues_) {
    out.issues.push_back({f.file, f.issue.line, f.issue.game, issue_reason(f.issue)});
  }
  if (r.rows == 0) {
    const learn::EmptyRead why = learn::empty_read_of(r.games, out.target);
    out.empty_read = learn::empty_read_code(why);
    out.empty_read_message = learn::empty_read_message(why, r.games);
  }
  return out;
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

std::vector<FitTarget> Engine::fit_targets() const {
  std::vector<FitTarget> targets;
  if (!current_) return targets;
  const learn::DatasetSplit& split = *current_->split;
  if (split.subsets().empty()) {
    std::string name = current_->report.files.size() == 1 ? current_->report.files[0].name
                                                          : std::string("all files");
    const learn::BootstrapHistograms* bootstrap =
        current_->bootstrap ? current_->bootstrap.get() : split.merged().bootstrap();
    targets.push_back(
        {std::move(name), &current_->histogram, &current_->pairs, bootstrap, &current_->report});
    return targets;
  }
  for (const learn::NamedSubset& subset : split.subsets()) {
    if (subset.builder->histogram().totals().total() == 0) continue;  // nothing to fit
    targets.push_back({subset.name, &subset.builder->histogram(), subset.builder->pairs(),
                       subset.builder->bootstrap(), &subset.builder->report()});
  }
  return targets;
}

void Engine::reset() {
  fit_ = FitSession{};  // first: its targets point into current_
  squares_.clear();
  file_.close();
  current_.reset();
  pending_.reset();
  last_read_report_ = {};
  last_read_target_ = learn::Target::kResult;
  last_read_made_with_.reset();
  last_read_issues_.clear();
  last_read_errors_.clear();
}

}  // namespace materialist::worker

namespace materialist::worker {

protocol::Estimate Engine::estimate(const FitSettings& settings) const {
  protocol::Estimate out;
  if (!pending_ || pending_->ended) return out;
  const learn::DatasetSplit& split = *pending_->split;
  const learn::DatasetReport live = split.merged().live_report();
  out.games = live.games.games_read;
  out.rows = live.rows;
  out.bytes = static_cast<double>(live.bytes);
  // The datasets as they stand: the merged one, or each subset (copies of their histograms).
  struct Live {
    std::string name;
    learn::Histogram histogram;
    const learn::GamePairs* pairs;
    learn::DatasetReport report;
  };
  std::vector<Live> datasets;
  if (split.subsets().empty()) {
    datasets.push_back(
        {pending_->report.files.empty() && live.files.empty() ? file_.name() : "all files",
         split.merged().live_histogram(), split.merged().pairs(), live});
  } else {
    for (const learn::NamedSubset& subset : split.subsets()) {
      datasets.push_back({subset.name, subset.builder->live_histogram(), subset.builder->pairs(),
                          subset.builder->live_report()});
    }
  }
  const learn::ModelOptions model = settings.model_options(pending_->options.target);
  const bool player = learn::player_view(pending_->options.filter);
  for (const Live& d : datasets) {
    if (d.histogram.totals().total() == 0) continue;
    const FitTarget target{d.name, &d.histogram, d.pairs, nullptr, &d.report};
    const Expected<learn::ModelFit> fit = learn::fit_model(d.histogram, model, d.pairs);
    out.fits.push_back(Exporter::describe(target, fit ? &*fit : nullptr, nullptr, "",
                                          fit ? std::string() : fit.error().message, player));
  }
  return out;
}

}  // namespace materialist::worker
