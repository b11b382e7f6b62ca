// Embind face of the worker's Engine (web/engine-worker.js drives it; web/PROTOCOL.md). Chunks
// travel through one malloc'ed buffer: JavaScript copies bytes in with HEAPU8.set and calls
// feed(ptr, len), which is about five times faster than passing a std::string per chunk.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/sha256.h"
#include "learn/game_filter.h"
#include "learn/ingest.h"
#include "learn/models.h"
#include "worker/engine.h"

namespace materialist::worker {
namespace {

using emscripten::val;

double number(const val& object, const char* key, double fallback) {
  const val field = object[key];
  return field.isNumber() ? field.as<double>() : fallback;
}

std::string text(const val& object, const char* key, const char* fallback) {
  const val field = object[key];
  return field.isString() ? field.as<std::string>() : std::string(fallback);
}

// Emscripten 3.1.6's val has no isObject().
bool is_object(const val& v) {
  return !v.isNull() && !v.isUndefined() && v.typeOf().as<std::string>() == "object";
}

val array_of(const std::vector<double>& values) {
  val out = val::array();
  for (std::size_t i = 0; i < values.size(); ++i) out.set(i, val(values[i]));
  return out;
}

val snapshot_object(const Snapshot& s) {
  val out = val::object();
  out.set("iteration", val(s.iteration));
  out.set("dataset", val(s.dataset));
  val columns = val::array();
  for (std::size_t i = 0; i < s.columns.size(); ++i) columns.set(i, val(s.columns[i]));
  out.set("columns", columns);
  out.set("theta", array_of(s.theta));
  out.set("values", array_of(s.values));
  out.set("loss", val(s.loss));
  out.set("gradientNorm", val(s.gradient_norm));
  if (!s.value_se.empty()) out.set("valueSe", array_of(s.value_se));
  return out;
}

val issue_object(const FileIssue& f) {
  const learn::GameIssue& issue = f.issue;
  std::string reason = issue.status == learn::GameStatus::kPartial ? "partial, " : "skipped, ";
  reason += learn::issue_reason_name(issue.reason);
  if (!issue.detail.empty()) reason += ": " + issue.detail;
  if (issue.rows_kept > 0) reason += " (" + std::to_string(issue.rows_kept) + " rows kept)";
  val out = val::object();
  out.set("file", val(f.file));
  out.set("line", val(static_cast<double>(issue.line)));
  out.set("game", val(static_cast<double>(issue.game)));
  out.set("reason", val(reason));
  return out;
}

// ---- a Part in plain typed arrays (parallel reads: reader workers → coordinator) ----

// The IngestReport's counters in a fixed order (both ends of the transfer are this file).
std::vector<double> report_numbers(const learn::IngestReport& r) {
  std::vector<double> out = {
      double(r.bytes),         double(r.games_read),    double(r.games_used),
      double(r.games_partial), double(r.games_skipped), double(r.games_filtered),
      double(r.issue_count),   double(r.rows),          double(r.plies_replayed)};
  for (std::uint64_t v : r.skipped_by_reason) out.push_back(double(v));
  for (std::uint64_t v : r.partial_by_reason) out.push_back(double(v));
  for (std::uint64_t v : r.filter_tally.counts) out.push_back(double(v));
  for (std::uint64_t v : r.rows_by_outcome.by_outcome) out.push_back(double(v));
  return out;
}

learn::IngestReport report_from_numbers(const std::vector<double>& n) {
  learn::IngestReport r;
  std::size_t i = 0;
  auto next = [&]() { return i < n.size() ? static_cast<std::uint64_t>(n[i++]) : 0; };
  r.bytes = next();
  r.games_read = next();
  r.games_used = next();
  r.games_partial = next();
  r.games_skipped = next();
  r.games_filtered = next();
  r.issue_count = next();
  r.rows = next();
  r.plies_replayed = next();
  for (std::uint64_t& v : r.skipped_by_reason) v = next();
  for (std::uint64_t& v : r.partial_by_reason) v = next();
  for (std::uint64_t& v : r.filter_tally.counts) v = next();
  for (std::uint64_t& v : r.rows_by_outcome.by_outcome) v = next();
  return r;
}

// Copies a vector into a new JavaScript typed array (not a view: wasm memory may move).
template <typename T>
val typed_copy(const char* type, const std::vector<T>& values) {
  return val::global(type).new_(emscripten::typed_memory_view(values.size(), values.data()));
}

// 64-bit keys as pairs of 32-bit words (low first); counts as three doubles each.
void append_key(std::vector<std::uint32_t>& words, std::uint64_t key) {
  words.push_back(static_cast<std::uint32_t>(key));
  words.push_back(static_cast<std::uint32_t>(key >> 32));
}
void append_counts(std::vector<double>& out, const learn::OutcomeCounts& counts) {
  for (std::uint64_t c : counts.by_outcome) out.push_back(double(c));
}
std::uint64_t key_at(const std::vector<std::uint32_t>& words, std::size_t i) {
  return std::uint64_t{words[2 * i]} | (std::uint64_t{words[2 * i + 1]} << 32);
}
learn::OutcomeCounts counts_at(const std::vector<double>& counts, std::size_t i) {
  learn::OutcomeCounts c;
  for (int k = 0; k < learn::kOutcomeCount; ++k) {
    const std::size_t at = 3 * i + static_cast<std::size_t>(k);
    c.by_outcome[k] = at < counts.size() ? static_cast<std::uint64_t>(counts[at]) : 0;
  }
  return c;
}

val part_object(const Part& part) {
  std::vector<std::uint32_t> keys, pair_a, pair_b;
  std::vector<double> counts, pair_counts;
  for (std::size_t i = 0; i < part.keys.size(); ++i) {
    append_key(keys, part.keys[i]);
    append_counts(counts, part.counts[i]);
  }
  for (std::size_t i = 0; i < part.pair_a.size(); ++i) {
    append_key(pair_a, part.pair_a[i]);
    append_key(pair_b, part.pair_b[i]);
    append_counts(pair_counts, part.pair_counts[i]);
  }
  val out = val::object();
  out.set("keys", typed_copy("Uint32Array", keys));
  out.set("counts", typed_copy("Float64Array", counts));
  out.set("pairA", typed_copy("Uint32Array", pair_a));
  out.set("pairB", typed_copy("Uint32Array", pair_b));
  out.set("pairCounts", typed_copy("Float64Array", pair_counts));
  std::vector<double> games;
  append_counts(games, part.pair_games);
  append_counts(games, part.pair_rated_games);
  out.set("pairGames", typed_copy("Float64Array", games));
  out.set("report", typed_copy("Float64Array", report_numbers(part.games)));
  val issues = val::array();
  for (std::size_t i = 0; i < part.games.issues.size(); ++i) {
    const learn::GameIssue& issue = part.games.issues[i];
    val o = val::object();
    o.set("game", val(double(issue.game)));
    o.set("line", val(double(issue.line)));
    o.set("status", val(static_cast<int>(issue.status)));
    o.set("reason", val(static_cast<int>(issue.reason)));
    o.set("detail", val(issue.detail));
    o.set("rowsKept", val(issue.rows_kept));
    issues.set(i, o);
  }
  out.set("issues", issues);
  out.set("rows", typed_copy("Int8Array", part.rows));
  out.set("rowsTruncated", val(part.rows_truncated));
  return out;
}

Part part_from_object(const val& o) {
  Part part;
  const auto keys = emscripten::convertJSArrayToNumberVector<std::uint32_t>(o["keys"]);
  const auto counts = emscripten::convertJSArrayToNumberVector<double>(o["counts"]);
  for (std::size_t i = 0; 2 * i + 1 < keys.size(); ++i) {
    part.keys.push_back(key_at(keys, i));
    part.counts.push_back(counts_at(counts, i));
  }
  const auto pair_a = emscripten::convertJSArrayToNumberVector<std::uint32_t>(o["pairA"]);
  const auto pair_b = emscripten::convertJSArrayToNumberVector<std::uint32_t>(o["pairB"]);
  const auto pair_counts = emscripten::convertJSArrayToNumberVector<double>(o["pairCounts"]);
  for (std::size_t i = 0; 2 * i + 1 < pair_a.size() && 2 * i + 1 < pair_b.size(); ++i) {
    part.pair_a.push_back(key_at(pair_a, i));
    part.pair_b.push_back(key_at(pair_b, i));
    part.pair_counts.push_back(counts_at(pair_counts, i));
  }
  const auto games = emscripten::convertJSArrayToNumberVector<double>(o["pairGames"]);
  part.pair_games = counts_at(games, 0);
  part.pair_rated_games = counts_at(games, 1);
  part.games = report_from_numbers(emscripten::convertJSArrayToNumberVector<double>(o["report"]));
  const val issues = o["issues"];
  const int n = issues["length"].as<int>();
  for (int i = 0; i < n; ++i) {
    const val x = issues[i];
    learn::GameIssue issue;
    issue.game = static_cast<std::uint64_t>(number(x, "game", 0));
    issue.line = static_cast<std::uint64_t>(number(x, "line", 0));
    issue.status = static_cast<learn::GameStatus>(static_cast<int>(number(x, "status", 2)));
    issue.reason = static_cast<learn::IssueReason>(static_cast<int>(number(x, "reason", 0)));
    issue.detail = text(x, "detail", "");
    issue.rows_kept = static_cast<std::uint32_t>(number(x, "rowsKept", 0));
    part.games.issues.push_back(std::move(issue));
  }
  part.rows = emscripten::convertJSArrayToNumberVector<std::int8_t>(o["rows"]);
  part.rows_truncated = o["rowsTruncated"].isTrue();
  return part;
}

}  // namespace

class JsEngine {
 public:
  ~JsEngine() { std::free(buffer_); }

  // options: {unknown: "draw" | "skip", keepRows: bool, filter, quiet: {plies, checksBreak,
  // distinct, skipFirst}, bootstrap, seed, datasets: "merge" | "per-file" | "per-filter",
  // eachFilter: [text]}. Returns "" or why the read cannot start (a bad filter).
  std::string beginRead(val options) {
    ReadOptions read;
    read.unknown = text(options, "unknown", "draw") == "skip"
                       ? learn::UnknownResultPolicy::kSkip
                       : learn::UnknownResultPolicy::kTreatAsDraw;
    read.keep_rows = !options["keepRows"].isFalse();
    read.hash_files = options["hashFiles"].isTrue();  // off unless asked: hashed at export
    read.keep_rating = options["keepRating"].isTrue();
    read.filter = text(options, "filter", "");
    const val quiet = options["quiet"];
    if (is_object(quiet)) {
      read.quiet.quiet_plies = static_cast<int>(number(quiet, "plies", 2));
      read.quiet.checks_break_quiet = !quiet["checksBreak"].isFalse();
      read.quiet.distinct_per_game = !quiet["distinct"].isFalse();
      read.quiet.skip_first_plies = static_cast<int>(number(quiet, "skipFirst", 0));
    }
    read.bootstrap = static_cast<int>(number(options, "bootstrap", 0));
    read.seed = static_cast<std::uint64_t>(number(options, "seed", 1));
    const std::string datasets = text(options, "datasets", "merge");
    read.datasets = datasets == "per-file"     ? DatasetMode::kPerFile
                    : datasets == "per-filter" ? DatasetMode::kPerFilter
                                               : DatasetMode::kMerge;
    const val each = options["eachFilter"];
    if (each.isArray()) {
      const int n = each["length"].as<int>();
      for (int i = 0; i < n; ++i) {
        if (each[i].isString()) read.each_filter.push_back(each[i].as<std::string>());
      }
    }
    const std::optional<Error> error = engine_.begin_read(read);
    return error ? error->message : std::string();
  }
  void beginFile(std::string name, double size) { engine_.begin_file(name, size); }

  // A buffer of at least `capacity` bytes for the next chunk, allocated once and grown on demand.
  std::uintptr_t chunkBuffer(int capacity) {
    if (capacity > capacity_) {
      std::free(buffer_);
      buffer_ = static_cast<char*>(std::malloc(static_cast<std::size_t>(capacity)));
      capacity_ = buffer_ ? capacity : 0;
    }
    return reinterpret_cast<std::uintptr_t>(buffer_);
  }
  bool feed(std::uintptr_t pointer, int length) {
    return engine_.feed(reinterpret_cast<const char*>(pointer), static_cast<std::size_t>(length));
  }
  std::string endFile() { return engine_.end_file(); }

  // Parallel reads (web/engine-worker.js): a reader exports its share after endFile; the
  // coordinator imports the shares of one file in order between beginImport and endImport.
  val exportPart() const { return part_object(engine_.export_part()); }
  void beginImport(std::string name) { engine_.begin_import(name); }
  void importPart(val part, double line_offset, double game_offset) {
    engine_.import_part(part_from_object(part), static_cast<std::uint64_t>(line_offset),
                        static_cast<std::uint64_t>(game_offset));
  }
  void endImport(double bytes) { engine_.end_import(static_cast<std::uint64_t>(bytes)); }
  bool endRead() { return engine_.end_read(); }
  void cancelRead() { engine_.cancel_read(); }

  val progress() const {
    const ReadProgress p = engine_.progress();
    val out = val::object();
    out.set("bytes", val(static_cast<double>(p.bytes)));
    out.set("games", val(static_cast<double>(p.games)));
    out.set("used", val(static_cast<double>(p.used)));
    out.set("partial", val(static_cast<double>(p.partial)));
    out.set("skipped", val(static_cast<double>(p.skipped)));
    out.set("rows", val(static_cast<double>(p.rows)));
    return out;
  }

  // The committed dataset's figures (or the last read's when nothing is committed), with the
  // last read's file errors.
  val report() const {
    const learn::DatasetReport& r =
        engine_.report() ? *engine_.report() : engine_.last_read_report();
    val out = val::object();
    auto set = [&out](const char* key, std::uint64_t v) {
      out.set(key, val(static_cast<double>(v)));
    };
    set("games", r.games.games_read);
    set("used", r.games.games_used);
    set("partial", r.games.games_partial);
    set("skipped", r.games.games_skipped);
    set("filtered", r.games.games_filtered);
    val by = val::object();
    for (int i = 1; i < learn::kFilterReasonCount; ++i) {
      const auto reason = static_cast<learn::FilterReason>(i);
      if (r.games.filter_tally.count(reason) == 0) continue;
      by.set(learn::filter_reason_name(reason),
             val(static_cast<double>(r.games.filter_tally.count(reason))));
    }
    out.set("filteredBy", by);
    const std::vector<DatasetSummary> summaries = engine_.dataset_summaries();
    if (summaries.size() > 1) {
      val datasets = val::array();
      for (std::size_t i = 0; i < summaries.size(); ++i) {
        val d = val::object();
        d.set("name", val(summaries[i].name));
        d.set("games", val(static_cast<double>(summaries[i].games)));
        d.set("used", val(static_cast<double>(summaries[i].used)));
        d.set("filtered", val(static_cast<double>(summaries[i].filtered)));
        d.set("rows", val(static_cast<double>(summaries[i].rows)));
        datasets.set(i, d);
      }
      out.set("datasets", datasets);
    }
    set("rows", r.rows);
    set("drawRows", r.games.rows_by_outcome[learn::Outcome::kDraw]);
    set("decisiveRows", r.games.rows_by_outcome[learn::Outcome::kWhiteWin] +
                            r.games.rows_by_outcome[learn::Outcome::kBlackWin]);
    set("whiteWinRows", r.games.rows_by_outcome[learn::Outcome::kWhiteWin]);
    set("blackWinRows", r.games.rows_by_outcome[learn::Outcome::kBlackWin]);
    set("distinctRows", engine_.distinct_rows());
    set("bytes", r.bytes);
    set("plies", r.games.plies_replayed);
    set("skippedTotal", r.games.issue_count);
    set("keptRows", engine_.kept_rows());
    out.set("rowsTruncated", val(engine_.rows_truncated()));
    val files = val::array();
    for (std::size_t i = 0; i < r.files.size(); ++i) files.set(i, val(r.files[i].name));
    out.set("files", files);
    val errors = val::array();
    const auto& last_errors = engine_.last_read_errors();
    for (std::size_t i = 0; i < last_errors.size(); ++i) errors.set(i, val(last_errors[i]));
    out.set("fileErrors", errors);
    val games = val::array();
    const auto& issues = engine_.last_read_issues();
    for (std::size_t i = 0; i < issues.size(); ++i) games.set(i, issue_object(issues[i]));
    out.set("skippedGames", games);
    return out;
  }

  // The article's first chart: rows per 1-3-3-5-9 balance and the fitted α.
  val balance() const {
    const std::vector<learn::BalanceBin> bins = engine_.balance_bins();
    val out = val::object();
    val list = val::array();
    for (std::size_t i = 0; i < bins.size(); ++i) {
      val bin = val::object();
      bin.set("dm", val(bins[i].balance));
      bin.set("white", val(static_cast<double>(bins[i].counts[learn::Outcome::kWhiteWin])));
      bin.set("draws", val(static_cast<double>(bins[i].counts[learn::Outcome::kDraw])));
      bin.set("black", val(static_cast<double>(bins[i].counts[learn::Outcome::kBlackWin])));
      list.set(i, bin);
    }
    out.set("bins", list);
    const Expected<learn::BalanceFit> fit = learn::fit_balance_alpha(bins);
    out.set("fitted", val(fit.ok()));
    out.set("alpha", val(fit.ok() ? fit->alpha : 0.0));
    return out;
  }

  // settings: {preset, solver: "gd" | "newton", step, iterations, lambda, draws: "exclude" |
  // "half", model: {outcomes, intercept, bishopPair, phase, eloOffset, sideToMove}}. Returns
  // {planned, solver, reason, snapshot} or {error}.
  val beginFit(val settings) {
    FitSettings s;
    s.preset = text(settings, "preset", "article");
    s.newton = text(settings, "solver", "gd") == "newton";
    s.step = number(settings, "step", 1.0);
    s.iterations = static_cast<int>(number(settings, "iterations", 10000));
    s.lambda = number(settings, "lambda", 1e-6);
    s.draws = text(settings, "draws", "exclude") == "half" ? learn::DrawHandling::kHalfPoint
                                                           : learn::DrawHandling::kLeaveOut;
    const val model = settings["model"];
    if (is_object(model)) {
      // "draws-out" is the default: then `draws` decides (the presets set draws: "half").
      const std::string outcomes = text(model, "outcomes", "draws-out");
      if (outcomes != "draws-out") s.outcomes = learn::parse_outcome_model(outcomes);
      s.intercept = model["intercept"].isTrue();
      s.bishop_pair = model["bishopPair"].isTrue();
      s.phase = model["phase"].isTrue();
      s.elo_offset = model["eloOffset"].isTrue();
      s.side_to_move = model["sideToMove"].isTrue();
    }
    val out = val::object();
    const Expected<int> planned = engine_.begin_fit(s);
    if (!planned.ok()) {
      out.set("error", val(planned.error().message));
      return out;
    }
    out.set("planned", val(*planned));
    out.set("solver", val(std::string(engine_.fit_uses_newton() ? "newton" : "gd")));
    if (!engine_.fit_reason().empty()) out.set("reason", val(engine_.fit_reason()));
    out.set("snapshot", snapshot_object(*engine_.last_snapshot()));
    return out;
  }
  val step(int n) { return snapshot_object(engine_.step(n)); }
  // The other datasets' states after the last step (gradient descent; empty otherwise).
  val otherSnapshots() {
    val out = val::array();
    const std::vector<Snapshot> snapshots = engine_.other_snapshots();
    for (std::size_t i = 0; i < snapshots.size(); ++i) out.set(i, snapshot_object(snapshots[i]));
    return out;
  }
  bool fitFinished() const { return engine_.fit_finished(); }

  std::string matChunk(double from_row, int max_rows) const {
    return engine_.mat_chunk(static_cast<std::size_t>(from_row),
                             static_cast<std::size_t>(max_rows));
  }
  double keptRows() const { return static_cast<double>(engine_.kept_rows()); }
  std::string valuesCsv() const { return engine_.values_csv(); }
  std::string resultJson() const { return engine_.result_json(); }
  std::string fitsJson() const { return engine_.fits_json(); }
  std::string provenanceJson() const { return engine_.provenance_json(); }
  std::string codeHeader() const { return engine_.code_header(); }
  std::string statusLine() const { return engine_.status_line(); }
  // Files read in parallel have no digest yet: the worker hashes them at export time.
  val missingDigests() const {
    val out = val::array();
    int n = 0;
    const auto& digests = engine_.digests();
    for (std::size_t i = 0; i < digests.size(); ++i) {
      if (digests[i].sha256.empty()) out.set(n++, val(static_cast<double>(i)));
    }
    return out;
  }
  void hashBegin() { hash_.reset(); }
  void hashFeed(std::uintptr_t pointer, int length) {
    hash_.update(reinterpret_cast<const char*>(pointer), static_cast<std::size_t>(length));
  }
  void hashEndInto(double index) {
    engine_.set_digest(static_cast<std::size_t>(index), hash_.hex());
  }
  bool hasData() const { return engine_.has_data(); }
  void reset() { engine_.reset(); }

 private:
  Engine engine_;
  Sha256 hash_;
  char* buffer_ = nullptr;
  int capacity_ = 0;
};

EMSCRIPTEN_BINDINGS(materialist_engine) {
  emscripten::class_<JsEngine>("Engine")
      .constructor<>()
      .function("beginRead", &JsEngine::beginRead)
      .function("beginFile", &JsEngine::beginFile)
      .function("chunkBuffer", &JsEngine::chunkBuffer)
      .function("feed", &JsEngine::feed)
      .function("endFile", &JsEngine::endFile)
      .function("exportPart", &JsEngine::exportPart)
      .function("beginImport", &JsEngine::beginImport)
      .function("importPart", &JsEngine::importPart)
      .function("endImport", &JsEngine::endImport)
      .function("endRead", &JsEngine::endRead)
      .function("cancelRead", &JsEngine::cancelRead)
      .function("progress", &JsEngine::progress)
      .function("report", &JsEngine::report)
      .function("balance", &JsEngine::balance)
      .function("beginFit", &JsEngine::beginFit)
      .function("step", &JsEngine::step)
      .function("otherSnapshots", &JsEngine::otherSnapshots)
      .function("fitFinished", &JsEngine::fitFinished)
      .function("matChunk", &JsEngine::matChunk)
      .function("keptRows", &JsEngine::keptRows)
      .function("valuesCsv", &JsEngine::valuesCsv)
      .function("resultJson", &JsEngine::resultJson)
      .function("fitsJson", &JsEngine::fitsJson)
      .function("provenanceJson", &JsEngine::provenanceJson)
      .function("codeHeader", &JsEngine::codeHeader)
      .function("statusLine", &JsEngine::statusLine)
      .function("missingDigests", &JsEngine::missingDigests)
      .function("hashBegin", &JsEngine::hashBegin)
      .function("hashFeed", &JsEngine::hashFeed)
      .function("hashEndInto", &JsEngine::hashEndInto)
      .function("hasData", &JsEngine::hasData)
      .function("reset", &JsEngine::reset);
}

}  // namespace materialist::worker
