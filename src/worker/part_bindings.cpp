// A reader's share (worker::Part) as a JavaScript object of typed arrays, and back
// (worker/part_bindings.h).
#include "worker/part_bindings.h"

#include <cstdint>
#include <string>
#include <vector>

#include "learn/read/ingest.h"

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

// The squares model's kept positions as their bytes (both ends are this module: the same layout),
// and the tally's counts as doubles.
val squares_bytes(const std::vector<learn::SquaresRow>& rows) {
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(rows.data());
  return val::global("Uint8Array")
      .new_(emscripten::typed_memory_view(rows.size() * sizeof(learn::SquaresRow), bytes));
}
std::vector<learn::SquaresRow> squares_rows_from(const val& bytes) {
  const std::size_t length = bytes["length"].as<std::size_t>();
  std::vector<learn::SquaresRow> rows(length / sizeof(learn::SquaresRow));
  auto* into = reinterpret_cast<std::uint8_t*>(rows.data());
  // One copy by the typed array's set (not element by element through val).
  val(emscripten::typed_memory_view(rows.size() * sizeof(learn::SquaresRow), into))
      .call<void>("set", bytes.call<val>("subarray", 0, rows.size() * sizeof(learn::SquaresRow)));
  return rows;
}
std::vector<double> tally_numbers(const learn::SquaresTally& t) {
  return {double(t.offered),        double(t.without_board),  double(t.draws_left_out),
          double(t.held_out_games), double(t.training_games), double(t.threshold),
          t.sampled ? 1.0 : 0.0};
}
learn::SquaresTally tally_from(const std::vector<double>& n) {
  learn::SquaresTally t;
  if (n.size() < 7) return t;
  t.offered = static_cast<std::uint64_t>(n[0]);
  t.without_board = static_cast<std::uint64_t>(n[1]);
  t.draws_left_out = static_cast<std::uint64_t>(n[2]);
  t.held_out_games = static_cast<std::uint64_t>(n[3]);
  t.training_games = static_cast<std::uint64_t>(n[4]);
  t.threshold = static_cast<std::uint64_t>(n[5]);
  t.sampled = n[6] != 0;
  return t;
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

}  // namespace

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
  // The counts the coordinator shows and offsets by, by name (the report array is for the way
  // back, part_from_object).
  val tally = val::object();
  tally.set("games", val(double(part.games.games_read)));
  tally.set("used", val(double(part.games.games_used)));
  tally.set("partial", val(double(part.games.games_partial)));
  tally.set("skipped", val(double(part.games.games_skipped)));
  tally.set("rows", val(double(part.games.rows)));
  out.set("tally", tally);
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
  out.set("variants", val::array(part.games.filtered_variants));
  if (part.has_squares) {
    out.set("squaresRows", squares_bytes(part.squares_rows));
    out.set("squaresTally", typed_copy("Float64Array", tally_numbers(part.squares_tally)));
  }
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
  if (o["variants"].isArray()) {
    part.games.filtered_variants = emscripten::vecFromJSArray<std::string>(o["variants"]);
  }
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
  if (!o["squaresRows"].isUndefined()) {
    part.has_squares = true;
    part.squares_rows = squares_rows_from(o["squaresRows"]);
    part.squares_tally =
        tally_from(emscripten::convertJSArrayToNumberVector<double>(o["squaresTally"]));
  }
  return part;
}

}  // namespace materialist::worker
