// Parallel reads beyond plain byte ranges (web/parallel-read.js): live estimates while readers
// work, and (ChunkDecoder) compressed files decoded here and cut at game starts for the readers.
#include <algorithm>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "archive/decoder.h"
#include "learn/filter/game_filter.h"
#include "pgn/game_chunker.h"
#include "worker/engine.h"

namespace materialist::worker {

// ---- live estimates of parallel reads ----

Part Engine::export_live_part() const {
  if (!pending_ || pending_->ended) return Part{};
  const learn::DatasetBuilder& merged = pending_->split->merged();
  Part part = part_of(merged.live_histogram(), *merged.pairs(), merged.live_report().games);
  part.games.issues.clear();  // an estimate needs counts, not the list
  return part;
}

protocol::Estimate Engine::estimate_with(const std::vector<Part>& parts,
                                         const FitSettings& settings) const {
  if (!pending_ || pending_->ended || !pending_->split->subsets().empty()) {
    return estimate(settings);
  }
  // Read here (live), imported (ended files and the one being imported), and the readers' shares.
  const learn::DatasetBuilder& merged = pending_->split->merged();
  learn::Histogram histogram = merged.live_histogram();
  histogram.merge(pending_->histogram);
  learn::GamePairs pairs = *merged.pairs();
  pairs.merge(pending_->pairs);
  pairs.merge(import_.pairs());
  learn::DatasetReport report = merged.live_report();
  learn::merge_ingest_reports(report.games, pending_->report.games, 0);
  learn::merge_ingest_reports(report.games, import_.report(), 0);
  report.rows += pending_->report.rows + import_.report().rows;
  report.bytes += pending_->report.bytes;
  for (const Part& part : parts) {
    for (std::size_t i = 0; i < part.keys.size(); ++i) {
      histogram.add(learn::RowKey::unpack(part.keys[i]), part.counts[i]);
    }
    for (std::size_t i = 0; i < part.pair_a.size(); ++i) {
      pairs.add(part.pair_a[i], part.pair_b[i], part.pair_counts[i]);
    }
    pairs.add_games(part.pair_games, part.pair_rated_games);
    learn::merge_ingest_reports(report.games, part.games, 0);
    report.rows += part.games.rows;
  }

  protocol::Estimate out;
  out.games = report.games.games_read;
  out.rows = report.rows;
  out.bytes = static_cast<double>(report.bytes);
  if (histogram.totals().total() == 0) return out;
  const std::size_t files = pending_->report.files.size() + report.files.size();
  const std::string name = files == 0 ? (import_.name().empty() ? file_.name() : import_.name())
                                      : std::string("all files");
  const FitTarget target{name, &histogram, &pairs, nullptr, &report};
  const Expected<learn::ModelFit> fit =
      learn::fit_model(histogram, settings.model_options(pending_->options.target), &pairs);
  out.fits.push_back(Exporter::describe(target, fit ? &*fit : nullptr, nullptr, "",
                                        fit ? std::string() : fit.error().message,
                                        learn::player_view(pending_->options.filter)));
  return out;
}

// ---- files decoded by a ChunkDecoder, imported in order ----

void Engine::end_decoded_entry(const std::string& entry, std::uint64_t bytes) {
  if (pending_) import_.end_entry(*pending_, entry, bytes);
}

std::string Engine::end_decoded(std::uint64_t bytes, std::size_t entries,
                                const std::string& problem, bool zip) {
  if (!pending_) return "";
  // As end_file composes it: the decoder's problem, else each entry's ("a.pgn: ..." in a zip).
  const std::vector<learn::FileReport>& files = pending_->report.files;
  std::string error = problem;
  if (error.empty() && bytes == 0) error = "the file is empty";
  if (error.empty()) {
    for (std::size_t i = files.size() - std::min(entries, files.size()); i < files.size(); ++i) {
      if (files[i].error.empty()) continue;
      const std::string entry =
          zip ? files[i].name.substr(std::min(files[i].name.size(), import_.name().size() + 1)) +
                    ": "
              : "";
      error += (error.empty() ? "" : "; ") + entry + files[i].error;
    }
  }
  if (!error.empty()) {
    std::uint64_t games = 0, rows = 0;
    for (std::size_t i = files.size() - std::min(entries, files.size()); i < files.size(); ++i) {
      games += files[i].games;
      rows += files[i].rows;
    }
    error = with_games_kept(error, games, rows);
    pending_->file_errors.push_back(import_.name() + ": " + error);
  }
  pending_->digests.push_back({import_.name(), bytes, ""});
  return error;
}

// ---- compressed files decoded here, cut at game starts ----

namespace {
constexpr std::size_t kMaxListedSkipped = 100;  // as learn::ArchiveReader lists them
}  // namespace

// The decoder's sink: each entry through its own chunker into the queue of ready pieces.
struct ChunkDecoder::State final : archive::Sink {
  State(std::string file_name, std::size_t target)
      : name(std::move(file_name)), target_bytes(target) {}

  void begin_entry(std::string_view entry) override {
    ++files;
    file = entry.empty() ? name : name + ":" + std::string(entry);
    file_bytes = 0;
    // A stretch of 8 MiB without a game start is cut anyway (the read is then done again in
    // order): the heap holds a few chunks, never a huge one. The readers' parsers count the
    // lines (chunk-done's `lines`): the chunker only cuts.
    chunker.emplace(pgn::GameChunkerOptions{.target_bytes = target_bytes, .max_bytes = 8u << 20});
    DecodedPiece begin;
    begin.kind = DecodedPiece::Kind::kBeginFile;
    begin.file = file;
    ready.push_back(std::move(begin));
  }
  void data(const char* bytes, std::size_t size) override {
    file_bytes += size;
    chunker->feed(bytes, size);
    take_chunks();
  }
  void end_entry() override {
    chunker->finish();
    take_chunks();
    chunker.reset();
    DecodedPiece end;
    end.kind = DecodedPiece::Kind::kEndFile;
    end.file = file;
    end.file_bytes = file_bytes;
    ready.push_back(std::move(end));
  }
  void skipped_entry(std::string_view entry, std::string_view reason) override {
    if (skipped.size() < kMaxListedSkipped) {
      skipped.push_back(std::string(entry) + " (" + std::string(reason) + ")");
    }
  }
  void error(const archive::DecodeError& e) override { failure = e; }

  void take_chunks() {
    while (std::optional<pgn::GameChunk> chunk = chunker->next()) {
      DecodedPiece piece;
      piece.file = file;
      piece.bytes = std::move(chunk->bytes);
      piece.ends_before_game_start = chunk->ends_before_game_start;
      ready.push_back(std::move(piece));
    }
  }

  std::string name;
  std::size_t target_bytes;
  std::string file;  // the entry being decoded
  std::uint64_t file_bytes = 0;
  std::optional<pgn::GameChunker> chunker;  // of the entry being decoded
  std::deque<DecodedPiece> ready;
  std::vector<std::string> skipped;
  std::optional<archive::DecodeError> failure;
  std::uint64_t files = 0;
  archive::Decoder decoder{*this};  // last: it calls back into the members above
};

ChunkDecoder::ChunkDecoder(std::string name, std::size_t target_chunk_bytes)
    : state_(std::make_unique<State>(std::move(name), target_chunk_bytes)) {}

ChunkDecoder::~ChunkDecoder() = default;

bool ChunkDecoder::feed(const char* data, std::size_t size) {
  return state_->decoder.feed(data, size);
}

void ChunkDecoder::finish() {
  state_->decoder.finish();
  if (state_->chunker) state_->end_entry();  // an error inside an entry: its chunks so far count
}

std::optional<DecodedPiece> ChunkDecoder::next() {
  if (state_->ready.empty()) return std::nullopt;
  DecodedPiece piece = std::move(state_->ready.front());
  state_->ready.pop_front();
  return piece;
}

bool ChunkDecoder::zip() const {
  return state_->decoder.format() == archive::Format::kZip;
}

std::string ChunkDecoder::problem() const {
  if (state_->failure) return state_->failure->message;
  if (state_->decoder.finished() && zip() && state_->files == 0) {
    std::string text = "the zip archive holds no .pgn file";
    if (!state_->skipped.empty()) {
      text += " (it holds ";
      for (std::size_t i = 0; i < state_->skipped.size(); ++i) {
        text += (i ? ", " : "") + state_->skipped[i];
      }
      text += ")";
    }
    return text;
  }
  return "";
}

}  // namespace materialist::worker
