#include "learn/read/dataset_part.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "learn/read/dataset.h"
#include "pgn/game_chunker.h"
#include "pgn/parser.h"

namespace materialist::learn {

// One dataset's reading of the stretch: its own Ingestor (with its own parser), whose rows are
// taken game by game as each game ends.
struct PartReader::Target {
  Target(const PartTarget& target, GamePairs* scratch_pairs)
      : spec(target),
        ingestor(ingest_options(target)),
        pairs(scratch_pairs ? *scratch_pairs : own_pairs) {
    // A scratch's table is the dataset's for the whole read: new, it takes the dataset's fields.
    if (pairs.empty() && !(pairs.fields() == spec.key_fields)) pairs = GamePairs(spec.key_fields);
    if (spec.ingest.target == learn::Target::kEval) pairs.enable_targets();
    if (spec.bootstrap > 0) {
      bootstrap = std::make_unique<BootstrapHistograms>(spec.bootstrap, spec.seed, spec.key_fields);
      if (spec.ingest.target == learn::Target::kEval) bootstrap->enable_targets();
    }
    ingestor.set_row_sink([this](const Row& row) { game_rows.push_back(row); });
    ingestor.set_game_end_hook([this] { flush_game(); });  // the game's rows came, all of them
  }
  Target(const Target&) = delete;  // the Ingestor's callbacks hold `this`
  Target& operator=(const Target&) = delete;

  // As DatasetBuilder keeps them: the rows hold no more key fields than the pairs and bootstrap.
  static IngestOptions ingest_options(const PartTarget& target) {
    IngestOptions options = target.ingest;
    options.fields = target.key_fields;
    return options;
  }

  std::uint64_t game_id(std::uint64_t game) const {
    return spec.game_id_base + game_offset.value_or(0) + game;
  }

  // The ended game's rows: into the pairs, and into the replicates once the game ids are known
  // (else kept for take_parts).
  void flush_game() {
    if (game_rows.empty()) return;
    pairs.add_game(game_rows);
    if (game_offset) {
      if (bootstrap) bootstrap->add_game(game_id(game_rows.front().game), game_rows);
      if (sink) {
        for (Row row : game_rows) {
          row.game += *game_offset;
          sink(row);
        }
      } else if (spec.keep_rows) {
        rows.insert(rows.end(), game_rows.begin(), game_rows.end());
      }
    } else if (bootstrap || spec.keep_rows) {
      rows.insert(rows.end(), game_rows.begin(), game_rows.end());
    }
    game_rows.clear();
  }

  // The replicates of the games whose rows waited for their ids.
  void add_waiting_games() {
    if (!bootstrap || streamed) return;
    std::vector<Row> game;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      game.push_back(rows[i]);
      if (i + 1 == rows.size() || rows[i + 1].game != rows[i].game) {
        bootstrap->add_game(game_id(rows[i].game), game);
        game.clear();
      }
    }
    if (!spec.keep_rows) rows.clear();
  }

  PartTarget spec;
  Ingestor ingestor;
  GamePairs own_pairs;  // without a scratch
  GamePairs& pairs;
  std::unique_ptr<BootstrapHistograms> bootstrap;
  std::vector<Row> game_rows;  // the game being ended
  std::vector<Row> rows;       // kept: for the row sink, or waiting for their game ids
  std::optional<std::uint64_t> game_offset;
  bool streamed = false;  // the game offset was known before the first byte
  RowSink sink;
};

PartReader::PartReader(const std::vector<PartTarget>& targets, std::uint64_t file_offset,
                       PartScratch* scratch)
    : file_offset_(file_offset) {
  if (scratch) {  // sized first: the targets hold references into it
    for (const PartTarget& target : targets) {
      if (scratch->pairs.size() <= target.dataset) scratch->pairs.resize(target.dataset + 1);
    }
  }
  for (const PartTarget& target : targets) {
    targets_.push_back(
        std::make_unique<Target>(target, scratch ? &scratch->pairs[target.dataset] : nullptr));
  }
}

PartReader::~PartReader() = default;

void PartReader::feed(const char* data, std::size_t size) {
  const std::uint64_t at = file_offset_ + bytes_;
  if (at < kBinarySniffBytes) {
    const auto sniffed =
        static_cast<std::size_t>(std::min<std::uint64_t>(size, kBinarySniffBytes - at));
    sniffed_bytes_ += sniffed;
    sniffed_binary_ += control_bytes(data, sniffed);
  }
  bytes_ += size;
  for (auto& target : targets_) target->ingestor.feed(data, size);
}

bool PartReader::end_before_game_start() {
  bool began_there = true;
  for (auto& target : targets_) {
    target->ingestor.feed(pgn::kGameStart.data(), pgn::kGameStart.size());
    // The parser is dropped unfinished: the game begun at the cut is the next stretch's.
    const std::optional<pgn::Location>& start = target->ingestor.last_game_start();
    began_there = began_there && start && start->offset == bytes_;
  }
  return began_there;
}

void PartReader::finish() {
  for (auto& target : targets_) target->ingestor.finish();
}

std::uint64_t PartReader::games() const {
  return targets_.empty() ? 0 : targets_.front()->ingestor.report().games_read;
}

void PartReader::set_game_offset(std::uint64_t games_before) {
  for (auto& target : targets_) {
    target->game_offset = games_before;
    target->streamed = bytes_ == 0;
  }
}

bool PartReader::needs_game_offset() const {
  return std::any_of(targets_.begin(), targets_.end(),
                     [](const auto& target) { return target->bootstrap != nullptr; });
}

void PartReader::set_row_sinks(std::vector<RowSink> sinks) {
  for (std::size_t i = 0; i < targets_.size() && i < sinks.size(); ++i) {
    targets_[i]->sink = std::move(sinks[i]);
  }
}

std::vector<DatasetPart> PartReader::take_parts() {
  std::vector<DatasetPart> parts;
  parts.reserve(targets_.size());
  for (auto& target : targets_) {
    target->add_waiting_games();
    DatasetPart& part = parts.emplace_back();
    part.histogram = target->ingestor.histogram();
    // With a scratch, the pairs stay there (the part has none).
    if (&target->pairs == &target->own_pairs)
      part.pairs = std::move(target->own_pairs);
    else
      part.pairs = GamePairs(target->spec.key_fields);
    if (target->spec.ingest.target == learn::Target::kEval) part.pairs.enable_targets();
    part.bootstrap = std::move(target->bootstrap);
    part.games = target->ingestor.report();
    part.games.bytes = bytes_;  // not the Ingestor's count, which has the probe's game start too
    part.line_breaks = target->ingestor.line_breaks();  // the probe's game start has none
    part.rows = std::move(target->rows);
    part.bytes = bytes_;
    part.sniffed_bytes = sniffed_bytes_;
    part.sniffed_binary = sniffed_binary_;
  }
  return parts;
}

bool read_chunk(PartReader& reader, const pgn::GameChunk& chunk) {
  reader.feed(chunk.bytes.data(), chunk.bytes.size());
  if (chunk.ends_before_game_start) return reader.end_before_game_start();
  reader.finish();
  return chunk.ends_stream;
}

}  // namespace materialist::learn
