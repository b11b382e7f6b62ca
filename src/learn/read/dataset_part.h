// A dataset's share of a stretch of one PGN file parsed on its own: the stretches are chunks cut
// before game starts (pgn/game_chunker.h), so several threads (the CLI's -j) or workers (the
// browser's parallel read) can parse one file, and DatasetSplit::add_parts merges the shares in
// file order into exactly what a sequential read gives: the histogram, the game pairs and the
// bootstrap replicates add up; the reports' issues get the file's line and game numbers.
//
//   // Any thread, per chunk (the targets: DatasetSplit::part_targets(file_index)):
//   PartReader reader(targets, chunk.offset);
//   const bool stands_alone = read_chunk(reader, chunk);
//   // ... once the games of the file's earlier chunks are known (their readers' games()):
//   reader.set_game_offset(games_before);                // the bootstrap's game ids
//   std::vector<DatasetPart> parts = reader.take_parts();
//   // One thread, in file order, between split.begin_file(name) and split.end_file():
//   split.add_parts(std::move(parts), lines_before, games_before);
//   // lines_before: the line_breaks of the file's earlier parts (FilePartsMerger adds them up).
//
// A stretch that does not stand alone (end_before_game_start() false, or a chunk cut without a
// game start after it) has no valid parts: read the file from that chunk on with one continuing
// PartReader (set_game_offset before feeding, set_row_sinks to pass the rows on as they come).
//
// The game pairs are the one share that is large (thousands per stretch) and in no order: a
// thread may keep its readers' pairs in a PartScratch instead, one table per dataset for the
// whole read, added to the datasets once at the end (DatasetSplit::add_kept_pairs). The pairs
// of a stretch whose parts were not used are then taken out again (FilePartsMerger does).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "learn/read/ingest.h"
#include "learn/stats/bootstrap_histograms.h"
#include "learn/stats/game_pairs.h"
#include "learn/stats/histogram.h"
#include "pgn/game_chunker.h"

namespace materialist::learn {

// What one dataset makes of a stretch (DatasetSplit::part_targets: one per dataset).
struct PartTarget {
  IngestOptions ingest;
  KeyFields key_fields;  // of the game pairs and the bootstrap
  int bootstrap = 0;     // Poisson-bootstrap replicates (0: none)
  std::uint64_t seed = 1;
  std::uint64_t game_id_base = 0;  // the dataset's game ids: (its files before this one) << 40
  bool keep_rows = false;          // the dataset has a row sink: keep every row, in order
  // Which dataset the share goes to, the same number for every file read into it
  // (DatasetSplit::part_targets): where a PartScratch keeps its pairs.
  std::size_t dataset = 0;
};

// One dataset's share of a stretch. Issue lines and game numbers, and row game numbers, count
// from the stretch's start (1-based): DatasetBuilder::add_part shifts them.
struct DatasetPart {
  Histogram histogram;
  GamePairs pairs;
  std::unique_ptr<BootstrapHistograms> bootstrap;  // game ids already the file's
  IngestReport games;
  std::vector<Row> rows;  // with keep_rows
  std::uint64_t bytes = 0;
  std::uint64_t line_breaks = 0;     // in the stretch: the next stretch's line offset grows by it
  std::uint64_t sniffed_bytes = 0;   // of the file's first kBinarySniffBytes (dataset.h)
  std::uint64_t sniffed_binary = 0;  // control bytes among them
};

// Where one thread's PartReaders keep their game pairs, stretch after stretch, instead of handing
// them out in their parts (which then hold none): one table per dataset (PartTarget::dataset) that
// grows once, where a table per stretch grew, was cleared and was merged again. The
// pairs' counts add up in any order, so the datasets get the same pairs.
struct PartScratch {
  std::vector<GamePairs> pairs;  // by PartTarget::dataset
};

class PartReader {
 public:
  // `file_offset`: where the stretch starts in the (decoded) file. `scratch`, when given, keeps
  // the pairs; it must outlive the reader and serve no other reader meanwhile.
  PartReader(const std::vector<PartTarget>& targets, std::uint64_t file_offset,
             PartScratch* scratch = nullptr);
  ~PartReader();
  PartReader(const PartReader&) = delete;
  PartReader& operator=(const PartReader&) = delete;

  // The stretch's next bytes (any chunking).
  void feed(const char* data, std::size_t size);
  // The stretch ends just before a pgn::kGameStart line: its last game ends as that line would
  // end it. True when every parser begins a game exactly there, as a sequential read does; false
  // when one would not (a '{' comment left open among the tags swallows the line): the stretch
  // does not stand alone.
  bool end_before_game_start();
  // The stretch ends with the file: an open game ends as truncated.
  void finish();

  // Games ended in the stretch (the same for every target).
  std::uint64_t games() const;
  // The file's games before the stretch: the bootstrap's game ids. Before feed(), rows and
  // replicates are passed on as each game ends (a continuing read); after, take_parts() uses it.
  void set_game_offset(std::uint64_t games_before);
  // After set_game_offset and before feed(): target i's rows go to sinks[i] as their games end,
  // with the file's game numbers, instead of into the parts (an empty sink: nowhere).
  // Whether take_parts() needs set_game_offset() first: bootstrap replicates are drawn by game id.
  // Without them the parts count games from the stretch's start and the merge shifts them.
  bool needs_game_offset() const;
  void set_row_sinks(std::vector<RowSink> sinks);
  // After finish() or end_before_game_start() and set_game_offset(): one part per target.
  std::vector<DatasetPart> take_parts();

 private:
  struct Target;

  std::vector<std::unique_ptr<Target>> targets_;
  std::uint64_t file_offset_;
  std::uint64_t bytes_ = 0;
  std::uint64_t sniffed_bytes_ = 0;
  std::uint64_t sniffed_binary_ = 0;
};

// Feeds the chunk (pgn::GameChunk) to the reader and ends it as its place in the file says: true
// when it stands alone (its parts are valid).
bool read_chunk(PartReader& reader, const pgn::GameChunk& chunk);

}  // namespace materialist::learn
