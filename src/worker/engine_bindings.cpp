// Embind face of the worker's Engine (web/engine-worker.js drives it; web/PROTOCOL.md): each
// method decodes its arguments, calls the engine's part and encodes the answer (protocol/codec.h;
// errors as their message, "" when none; a file's end as {code, message, inPart}). Chunks travel
// through one buffer (worker/input_buffer.h), readers' shares as typed arrays
// (worker/part_bindings.h), the ChunkDecoder has its own face (worker/chunk_decoder_bindings.h).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "archive/decoder.h"
#include "core/json.h"
#include "core/sha256.h"
#include "learn/filter/bands.h"
#include "learn/filter/game_filter.h"
#include "learn/fit/models.h"
#include "learn/read/ingest.h"
#include "protocol/codec.h"
#include "worker/chunk_decoder_bindings.h"
#include "worker/engine.h"
#include "worker/input_buffer.h"
#include "worker/part_bindings.h"

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

// Every fallible call answers JSON text, and its error is one shape, decoded in one place
// (web/engine-reply.js): {"type": "error", "code": "syntax", "message": "fit settings: ..."}.
// A call with nothing to return on success answers {}.
std::string error_reply(const Error& error) {
  JsonWriter json;
  json.begin_object()
      .field("type", "error")
      .field("code", error_code_name(error.code))
      .field("message", error.message)
      .end_object();
  return json.take();
}
std::string reply(const std::optional<Error>& error) {
  return error ? error_reply(*error) : std::string("{}");
}
// Settings as JSON decoded, or why not, the message naming what they were ("fit settings: ...").
template <typename Settings>
Expected<Settings> decode_named(const std::string& text, const char* what) {
  Expected<Settings> decoded = protocol::decode<Settings>(text);
  if (!decoded) return make_error(decoded.error().code, what + (": " + decoded.error().message));
  return decoded;
}

// A file's end as JavaScript takes it: null when it was read whole, else {code, message, inPart}
// (inPart: the games before the problem are in the data).
val file_end(const std::optional<FileError>& end) {
  if (!end) return val::null();
  val out = val::object();
  out.set("code", std::string(error_code_name(end->error.code)));
  out.set("message", end->error.message);
  out.set("inPart", end->read_in_part);
  return out;
}

}  // namespace

class JsEngine {
 public:
  // ---- out of memory, live estimates of parallel reads ----
  JsEngine() { std::set_new_handler(&materialist_out_of_memory); }
  // The heap's size now and the most it may grow to, in bytes.
  double heapBytes() const { return static_cast<double>(emscripten_get_heap_size()); }
  double heapLimitBytes() const { return static_cast<double>(emscripten_get_heap_max()); }
  // A reader's live share (no issues; withSquares: a sample of its kept positions), and the
  // estimate message of everything read so
  // far with the readers' live shares `parts` (an array of exportLivePart() objects).
  val exportLivePart(bool withSquares) const {
    return part_object(engine_.export_live_part(withSquares));
  }
  std::string estimateWith(val parts, std::string settings) const {
    std::vector<Part> shares;
    const int n = parts["length"].as<int>();
    for (int i = 0; i < n; ++i) shares.push_back(part_from_object(parts[i]));
    const Expected<FitSettings> fit = decode_named<FitSettings>(settings, "fit settings");
    if (!fit) return error_reply(fit.error());
    return protocol::message(engine_.estimate_with(shares, *fit));
  }
  // A decoded file's entry and the file itself, after their parts (Engine::end_decoded).
  void endDecodedEntry(std::string entry, double bytes) {
    engine_.end_decoded_entry(entry, static_cast<std::uint64_t>(bytes));
  }
  val endDecoded(double bytes, int entries, const JsChunkDecoder& decoder) {
    return file_end(engine_.end_decoded(static_cast<std::uint64_t>(bytes),
                                        static_cast<std::size_t>(entries),
                                        decoder.decoder().problem(), decoder.decoder().zip()));
  }

  // options: ReadOptions as JSON (protocol/codec.h). Returns {} or why the read cannot start
  // (options that do not decode, a bad filter).
  std::string beginRead(std::string options) {
    const Expected<ReadOptions> read = decode_named<ReadOptions>(options, "read options");
    if (!read) return error_reply(read.error());
    return reply(engine_.begin_read(*read));
  }
  void beginFile(std::string name, double size) { engine_.begin_file(name, size); }
  // A parallel reader's byte range of `name`, cut at game starts (Engine::begin_range).
  void beginRange(std::string name, bool fileStart) { engine_.begin_range(name, fileStart); }
  // A statistics file's `size` bytes at `pointer` (chunkBuffer): {} or why it cannot be read.
  std::string addStats(std::string name, std::uintptr_t pointer, int size) {
    return reply(engine_.add_stats(name, reinterpret_cast<const char*>(pointer),
                                   static_cast<std::size_t>(size)));
  }
  // Merges the statistics added into the pending data: {} or why they do not merge.
  std::string endStats() { return reply(engine_.end_stats()); }
  // Their data settings, as read options (JSON): what the page shows they were made with.
  std::string statsOptions() const { return protocol::encode(engine_.stats_options()); }

  // A buffer of at least `capacity` bytes for the next chunk, allocated once and grown on demand.
  std::uintptr_t chunkBuffer(int capacity) { return input_.at_least(capacity); }
  bool feed(std::uintptr_t pointer, int length) {
    return engine_.feed(reinterpret_cast<const char*>(pointer), static_cast<std::size_t>(length));
  }
  val endFile() { return file_end(engine_.end_file()); }

  // Parallel reads (web/engine-worker.js): a reader exports its share after endFile; the
  // coordinator imports the shares of one file in order between beginImport and endImport.
  val exportPart() const { return part_object(engine_.export_part()); }
  double lineBreaks() const { return double(engine_.line_breaks()); }
  void beginImport(std::string name) { engine_.begin_import(name); }
  void importPart(val part, double line_offset, double game_offset) {
    engine_.import_part(part_from_object(part), static_cast<std::uint64_t>(line_offset),
                        static_cast<std::uint64_t>(game_offset));
  }
  val endImport(double bytes) {
    return file_end(engine_.end_import(static_cast<std::uint64_t>(bytes)));
  }
  bool endRead() { return engine_.end_read(); }
  void cancelRead() { engine_.cancel_read(); }

  // JSON of protocol::Progress, protocol::DataReport and protocol::Balance.
  std::string progress() const { return protocol::encode(engine_.progress()); }
  std::string report() const { return protocol::encode(engine_.data_report()); }
  std::string balance() const { return protocol::message(engine_.balance()); }

  // settings: FitSettings as JSON. Returns the fit-begin message, or the error.
  std::string beginFit(std::string settings) {
    const Expected<FitSettings> fit = decode_named<FitSettings>(settings, "fit settings");
    if (!fit) return error_reply(fit.error());
    const Expected<int> planned = engine_.begin_fit(*fit);
    if (!planned.ok()) return error_reply(planned.error());
    return protocol::message(engine_.exports().fit_begin());
  }
  // The snapshot messages: the current state, the next one, the other datasets' states.
  std::string snapshot() const {
    return protocol::message(engine_.fit_session().last.value_or(Snapshot{}));
  }
  std::string step(int n) { return protocol::message(engine_.step(n)); }
  std::string otherSnapshots() const {
    JsonWriter json;
    json.begin_array();
    for (const Snapshot& s : engine_.fit_session().other_snapshots()) protocol::write(json, s);
    json.end_array();
    return json.take();
  }
  bool fitFinished() const { return engine_.fit_session().finished; }

  std::string takeMatText() { return engine_.take_mat_text(); }
  bool limitReached() const { return engine_.limit_reached(); }
  std::string valuesCsv() const { return engine_.exports().values_csv(); }
  std::string resultJson() const { return engine_.exports().result_json(); }
  // The fit-done message.
  std::string fitDone() const { return protocol::message(engine_.exports().fit_done()); }
  std::string provenanceJson() const { return engine_.exports().provenance_json(); }
  // The target-compare message: both targets on the annotated positions, fitted with
  // `settings` (FitSettings JSON).
  std::string compareTargets(std::string settings) const {
    const Expected<FitSettings> fit = decode_named<FitSettings>(settings, "fit settings");
    if (!fit) return error_reply(fit.error());
    return protocol::message(engine_.compare_targets(*fit));
  }
  std::string codeHeader() const { return engine_.exports().code_header(); }
  // The squares message: values by square of the current data, fitted with `settings`
  // (FitSettings JSON; settings that do not decode are the error, never defaults).
  std::string fitSquares(std::string settings) {
    const Expected<FitSettings> fit = decode_named<FitSettings>(settings, "fit settings");
    if (!fit) return error_reply(fit.error());
    return engine_.fit_squares(*fit);
  }
  // A live preview of values by square while a read goes on, with the readers' live shares
  // `parts`: a squares message with "live": true, {} (no boards, too few positions yet), or the
  // error of settings that do not decode.
  std::string fitSquaresLive(val parts, std::string settings) {
    const Expected<FitSettings> fit = decode_named<FitSettings>(settings, "fit settings");
    if (!fit) return error_reply(fit.error());
    std::vector<Part> shares;
    const int n = parts["length"].as<int>();
    for (int i = 0; i < n; ++i) shares.push_back(part_from_object(parts[i]));
    std::string preview = engine_.fit_squares_live(shares, *fit);
    return preview.empty() ? "{}" : preview;
  }
  // The last values by square as `name` asks (.csv, .h, .json), "" without a fit.
  std::string squaresExport(std::string name) const { return engine_.squares_export(name); }
  std::string squaresPositions() const { return engine_.squares_positions(); }
  std::string statusLine() const { return engine_.exports().status_line(); }
  // A share link's "compare=SPEC" over the base filter: the per-filter texts as a JSON array,
  // or the error.
  std::string bandFilters(std::string spec, std::string filter) const {
    const Expected<std::vector<std::string>> filters = learn::band_filters(spec, filter);
    if (!filters) {
      return error_reply(
          make_error(filters.error().code, "compare=" + spec + ": " + filters.error().message));
    }
    JsonWriter json;
    json.begin_array();
    for (const std::string& f : *filters) json.value(f);
    json.end_array();
    return json.take();
  }
  // "pawn", "elo" or "logodds": the unit of the status line and the exports. Returns {} or
  // why the units are not known (the units then stay as they were).
  std::string setUnits(std::string units) {
    const std::optional<protocol::Units> parsed = protocol::parse_units(units);
    if (!parsed) {
      return error_reply(make_error(ErrorCode::kInvalidArgument,
                                    "units '" + units + "': not pawn, elo or logodds"));
    }
    engine_.set_units(*parsed);
    return "{}";
  }
  // True when the bytes at `pointer` (a file's first ones) are not plain text: a compressed file
  // or an archive (src/archive decides), which one reader reads in order.
  bool compressed(std::uintptr_t pointer, int length) const {
    const archive::Format format = archive::sniff_format(
        std::string_view(reinterpret_cast<const char*>(pointer), static_cast<std::size_t>(length)));
    return format != archive::Format::kPlain && format != archive::Format::kUnknown;
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

EMSCRIPTEN_BINDINGS(materialist_engine) {
  emscripten::class_<JsEngine>("Engine")
      .constructor<>()
      .function("beginRead", &JsEngine::beginRead)
      .function("beginFile", &JsEngine::beginFile)
      .function("beginRange", &JsEngine::beginRange)
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
      .function("fitSquares", &JsEngine::fitSquares)
      .function("fitSquaresLive", &JsEngine::fitSquaresLive)
      .function("squaresExport", &JsEngine::squaresExport)
      .function("squaresPositions", &JsEngine::squaresPositions)
      .function("statusLine", &JsEngine::statusLine)
      .function("setUnits", &JsEngine::setUnits)
      .function("bandFilters", &JsEngine::bandFilters)
      .function("compressed", &JsEngine::compressed)
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
