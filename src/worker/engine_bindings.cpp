// Embind face of the worker's Engine (web/engine-worker.js drives it; web/PROTOCOL.md). Chunks
// travel through one malloc'ed buffer: JavaScript copies bytes in with HEAPU8.set and calls
// feed(ptr, len), which is about five times faster than passing a std::string per chunk.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "archive/decoder.h"
#include "core/sha256.h"
#include "learn/filter/bands.h"
#include "learn/filter/game_filter.h"
#include "learn/fit/models.h"
#include "learn/read/ingest.h"
#include "protocol/codec.h"
#include "worker/engine.h"

// ---- running out of memory (web/engine-worker.js tells people so) ----
#include <emscripten/em_js.h>
#include <emscripten/heap.h>

#include <new>

// A failed `new` aborts the module with "Aborted(OOM)": the worker recognises it by that word
// (without a handler libc++ calls a bare abort(), indistinguishable from any other).
EM_JS(void, materialist_out_of_memory, (), { abort('OOM'); });

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

// The face's one error style: "" when the engine's step succeeded, else why it did not.
std::string message_of(const std::optional<Error>& error) {
  return error ? error->message : std::string();
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
  out.set("variants", val::array(part.games.filtered_variants));
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
  return part;
}

std::string error_json(const std::string& message) {
  JsonWriter json;
  json.begin_object().field("error", message).end_object();
  return json.take();
}

// The buffer JavaScript copies input into (HEAPU8.set) before a feed: allocated once, grown on
// demand; 0 when an allocation fails.
class InputBuffer {
 public:
  InputBuffer() = default;
  InputBuffer(const InputBuffer&) = delete;
  InputBuffer& operator=(const InputBuffer&) = delete;
  ~InputBuffer() { std::free(data_); }

  std::uintptr_t at_least(int capacity) {
    if (capacity > capacity_) {
      std::free(data_);
      data_ = static_cast<char*>(std::malloc(static_cast<std::size_t>(capacity)));
      capacity_ = data_ ? capacity : 0;
    }
    return reinterpret_cast<std::uintptr_t>(data_);
  }

 private:
  char* data_ = nullptr;
  int capacity_ = 0;
};

}  // namespace

class JsEngine {
 public:
  // ---- out of memory, live estimates of parallel reads ----
  JsEngine() { std::set_new_handler(&materialist_out_of_memory); }
  // The heap's size now and the most it may grow to, in bytes.
  double heapBytes() const { return static_cast<double>(emscripten_get_heap_size()); }
  double heapLimitBytes() const { return static_cast<double>(emscripten_get_heap_max()); }
  // A reader's live share (no rows, no issues), and the estimate message of everything read so
  // far with the readers' live shares `parts` (an array of exportLivePart() objects).
  val exportLivePart() const { return part_object(engine_.export_live_part()); }
  std::string estimateWith(val parts, std::string settings) const {
    std::vector<Part> shares;
    const int n = parts["length"].as<int>();
    for (int i = 0; i < n; ++i) shares.push_back(part_from_object(parts[i]));
    Expected<FitSettings> fit = protocol::decode<FitSettings>(settings);
    return protocol::message(engine_.estimate_with(shares, fit ? *fit : FitSettings{}));
  }
  // A decoded file's entry and the file itself, after their parts (Engine::end_decoded).
  void endDecodedEntry(std::string entry, double bytes) {
    engine_.end_decoded_entry(entry, static_cast<std::uint64_t>(bytes));
  }
  std::string endDecoded(double bytes, int entries, std::string problem, bool zip) {
    return engine_.end_decoded(static_cast<std::uint64_t>(bytes), static_cast<std::size_t>(entries),
                               problem, zip);
  }

  // options: ReadOptions as JSON (protocol/codec.h). Returns "" or why the read cannot start
  // (options that do not decode, a bad filter).
  std::string beginRead(std::string options) {
    Expected<ReadOptions> read = protocol::decode<ReadOptions>(options);
    if (!read) return "read options: " + read.error().message;
    return message_of(engine_.begin_read(*read));
  }
  void beginFile(std::string name, double size) { engine_.begin_file(name, size); }
  // A statistics file's `size` bytes at `pointer` (chunkBuffer): "" or why it cannot be read.
  std::string addStats(std::string name, std::uintptr_t pointer, int size) {
    return message_of(engine_.add_stats(name, reinterpret_cast<const char*>(pointer),
                                        static_cast<std::size_t>(size)));
  }
  // Merges the statistics added into the pending data: "" or why they do not merge.
  std::string endStats() { return message_of(engine_.end_stats()); }
  // Their data settings, as read options (JSON): what the page shows they were made with.
  std::string statsOptions() const { return protocol::encode(engine_.stats_options()); }

  // A buffer of at least `capacity` bytes for the next chunk, allocated once and grown on demand.
  std::uintptr_t chunkBuffer(int capacity) { return input_.at_least(capacity); }
  bool feed(std::uintptr_t pointer, int length) {
    return engine_.feed(reinterpret_cast<const char*>(pointer), static_cast<std::size_t>(length));
  }
  std::string endFile() { return engine_.end_file(); }

  // Parallel reads (web/engine-worker.js): a reader exports its share after endFile; the
  // coordinator imports the shares of one file in order between beginImport and endImport.
  val exportPart() const { return part_object(engine_.export_part()); }
  double lineBreaks() const { return double(engine_.line_breaks()); }
  void beginImport(std::string name) { engine_.begin_import(name); }
  void importPart(val part, double line_offset, double game_offset) {
    engine_.import_part(part_from_object(part), static_cast<std::uint64_t>(line_offset),
                        static_cast<std::uint64_t>(game_offset));
  }
  std::string endImport(double bytes) {
    return engine_.end_import(static_cast<std::uint64_t>(bytes));
  }
  bool endRead() { return engine_.end_read(); }
  void cancelRead() { engine_.cancel_read(); }

  // JSON of protocol::Progress, protocol::DataReport and protocol::Balance.
  std::string progress() const { return protocol::encode(engine_.progress()); }
  std::string report() const { return protocol::encode(engine_.data_report()); }
  std::string balance() const { return protocol::message(engine_.balance()); }

  // settings: FitSettings as JSON. Returns the fit-begin message, or {"error": why}.
  std::string beginFit(std::string settings) {
    Expected<FitSettings> fit = protocol::decode<FitSettings>(settings);
    if (!fit) return error_json("fit settings: " + fit.error().message);
    const Expected<int> planned = engine_.begin_fit(*fit);
    if (!planned.ok()) return error_json(planned.error().message);
    return protocol::message(engine_.fit_begin());
  }
  // The snapshot messages: the current state, the next one, the other datasets' states.
  std::string snapshot() const {
    return protocol::message(engine_.last_snapshot().value_or(Snapshot{}));
  }
  std::string step(int n) { return protocol::message(engine_.step(n)); }
  std::string otherSnapshots() const {
    JsonWriter json;
    json.begin_array();
    for (const Snapshot& s : engine_.other_snapshots()) protocol::write(json, s);
    json.end_array();
    return json.take();
  }
  bool fitFinished() const { return engine_.fit_finished(); }

  std::string takeMatText() { return engine_.take_mat_text(); }
  bool limitReached() const { return engine_.limit_reached(); }
  std::string valuesCsv() const { return engine_.values_csv(); }
  std::string resultJson() const { return engine_.result_json(); }
  // The fit-done message.
  std::string fitDone() const { return protocol::message(engine_.fit_done()); }
  std::string provenanceJson() const { return engine_.provenance_json(); }
  // The target-compare message: both targets on the annotated positions, fitted with
  // `settings` (FitSettings JSON).
  std::string compareTargets(std::string settings) const {
    Expected<FitSettings> fit = protocol::decode<FitSettings>(settings);
    return protocol::message(engine_.compare_targets(fit ? *fit : FitSettings{}));
  }
  std::string codeHeader() const { return engine_.code_header(); }
  std::string statusLine() const { return engine_.status_line(); }
  // A share link's "compare=SPEC" over the base filter: the per-filter texts as a JSON array,
  // or {"error": why}.
  std::string bandFilters(std::string spec, std::string filter) const {
    const Expected<std::vector<std::string>> filters = learn::band_filters(spec, filter);
    if (!filters) return error_json("compare=" + spec + ": " + filters.error().message);
    JsonWriter json;
    json.begin_array();
    for (const std::string& f : *filters) json.value(f);
    json.end_array();
    return json.take();
  }
  // "pawn", "elo" or "logodds": the unit of the status line and the exports (others: pawn).
  void setUnits(std::string units) {
    engine_.set_units(protocol::parse_units(units).value_or(protocol::Units::kPawn));
  }
  // True when the bytes at `pointer` (a file's first ones) are not plain text: a compressed file
  // or an archive (src/archive decides), which one reader reads in order.
  bool compressed(std::uintptr_t pointer, int length) const {
    const archive::Format format = archive::sniff_format(
        std::string_view(reinterpret_cast<const char*>(pointer), static_cast<std::size_t>(length)));
    return format != archive::Format::kPlain && format != archive::Format::kUnknown;
  }
  // The estimate message of the data read so far, fitted with `settings` (FitSettings JSON).
  std::string estimate(std::string settings) const {
    Expected<FitSettings> fit = protocol::decode<FitSettings>(settings);
    return protocol::message(engine_.estimate(fit ? *fit : FitSettings{}));
  }
  // Files without a digest (the browser reads without hashing): hashed at export time.
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
  InputBuffer input_;
};

// ---- a compressed file decoded here for parallel readers (web/decode-read.js) ----
// ChunkDecoder in JavaScript: compressed bytes in through one buffer, as Engine.feed takes
// them; pieces out one at a time as plain objects, a chunk's text copied into its own
// Uint8Array (its buffer is transferred to a reader).
class JsChunkDecoder {
 public:
  JsChunkDecoder(std::string name, int target_bytes)
      : decoder_(std::move(name), static_cast<std::size_t>(target_bytes)) {}

  std::uintptr_t buffer(int capacity) { return input_.at_least(capacity); }
  bool feed(std::uintptr_t pointer, int length) {
    return decoder_.feed(reinterpret_cast<const char*>(pointer), static_cast<std::size_t>(length));
  }
  void finish() { decoder_.finish(); }
  // {kind: "begin-file" | "chunk" | "end-file", file, bytes, endsBeforeGameStart, fileBytes},
  // or null.
  val next() {
    std::optional<DecodedPiece> piece = decoder_.next();
    if (!piece) return val::null();
    val out = val::object();
    out.set("kind", piece->kind == DecodedPiece::Kind::kBeginFile ? "begin-file"
                    : piece->kind == DecodedPiece::Kind::kEndFile ? "end-file"
                                                                  : "chunk");
    out.set("file", piece->file);
    out.set("bytes", val::global("Uint8Array")
                         .new_(emscripten::typed_memory_view(
                             piece->bytes.size(),
                             reinterpret_cast<const std::uint8_t*>(piece->bytes.data()))));
    out.set("endsBeforeGameStart", val(piece->ends_before_game_start));
    out.set("fileBytes", val(double(piece->file_bytes)));
    return out;
  }
  std::string problem() const { return decoder_.problem(); }
  bool zip() const { return decoder_.zip(); }

 private:
  ChunkDecoder decoder_;
  InputBuffer input_;
};

EMSCRIPTEN_BINDINGS(materialist_chunk_decoder) {
  emscripten::class_<JsChunkDecoder>("ChunkDecoder")
      .constructor<std::string, int>()
      .function("buffer", &JsChunkDecoder::buffer)
      .function("feed", &JsChunkDecoder::feed)
      .function("finish", &JsChunkDecoder::finish)
      .function("next", &JsChunkDecoder::next)
      .function("problem", &JsChunkDecoder::problem)
      .function("zip", &JsChunkDecoder::zip);
}

EMSCRIPTEN_BINDINGS(materialist_engine) {
  emscripten::class_<JsEngine>("Engine")
      .constructor<>()
      .function("beginRead", &JsEngine::beginRead)
      .function("beginFile", &JsEngine::beginFile)
      .function("addStats", &JsEngine::addStats)
      .function("endStats", &JsEngine::endStats)
      .function("statsOptions", &JsEngine::statsOptions)
      .function("chunkBuffer", &JsEngine::chunkBuffer)
      .function("feed", &JsEngine::feed)
      .function("endFile", &JsEngine::endFile)
      .function("exportPart", &JsEngine::exportPart)
      .function("lineBreaks", &JsEngine::lineBreaks)
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
      .function("takeMatText", &JsEngine::takeMatText)
      .function("limitReached", &JsEngine::limitReached)
      .function("valuesCsv", &JsEngine::valuesCsv)
      .function("resultJson", &JsEngine::resultJson)
      .function("fitDone", &JsEngine::fitDone)
      .function("snapshot", &JsEngine::snapshot)
      .function("provenanceJson", &JsEngine::provenanceJson)
      .function("compareTargets", &JsEngine::compareTargets)
      .function("codeHeader", &JsEngine::codeHeader)
      .function("statusLine", &JsEngine::statusLine)
      .function("setUnits", &JsEngine::setUnits)
      .function("bandFilters", &JsEngine::bandFilters)
      .function("compressed", &JsEngine::compressed)
      .function("estimate", &JsEngine::estimate)
      .function("missingDigests", &JsEngine::missingDigests)
      .function("hashBegin", &JsEngine::hashBegin)
      .function("hashFeed", &JsEngine::hashFeed)
      .function("hashEndInto", &JsEngine::hashEndInto)
      .function("hasData", &JsEngine::hasData)
      .function("reset", &JsEngine::reset)
      .function("heapBytes", &JsEngine::heapBytes)
      .function("heapLimitBytes", &JsEngine::heapLimitBytes)
      .function("exportLivePart", &JsEngine::exportLivePart)
      .function("estimateWith", &JsEngine::estimateWith)
      .function("endDecodedEntry", &JsEngine::endDecodedEntry)
      .function("endDecoded", &JsEngine::endDecoded);
}

}  // namespace materialist::worker
