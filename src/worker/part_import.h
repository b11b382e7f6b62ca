// Parallel reads' shares (worker/engine.h): a reader's share in plain arrays, and the import of
// one file's shares, in file order, into the pending dataset, so that the result is a sequential
// read's.
//
//   PartImport import;
//   import.begin("big.pgn", data.pairs.fields());
//   import.add(data, part, line_offset, game_offset);  // each share, in file order
//   std::optional<Error> error = import.end_file(data, bytes);  // kNoGames, or nullopt
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "learn/read/dataset.h"
#include "learn/read/ingest.h"
#include "learn/stats/game_pairs.h"
#include "learn/stats/histogram.h"
#include "worker/engine_dataset.h"

namespace materialist::worker {

// A reader's share of a parallel read: everything its dataset holds, in plain arrays, so it can
// travel between Web Workers and be merged by the coordinating engine (histograms add up).
struct Part {
  std::vector<std::uint64_t> keys;           // packed RowKeys
  std::vector<learn::OutcomeCounts> counts;  // one per key
  // The game-clustered statistics (learn/stats/game_pairs.h): pairs of packed keys and their
  // counts.
  std::vector<std::uint64_t> pair_a, pair_b;
  std::vector<learn::OutcomeCounts> pair_counts;
  learn::OutcomeCounts pair_games, pair_rated_games;  // games by outcome (the clusters)
  learn::IngestReport games;
  std::vector<std::string> file_errors;
  // A read that keeps boards: the positions the reader kept for the squares model.
  bool has_squares = false;
  std::vector<learn::SquaresRow> squares_rows;
  learn::SquaresTally squares_tally;
};

// A share of a read in plain arrays: the histogram, the game pairs and the games' report.
Part part_of(const learn::Histogram& histogram, const learn::GamePairs& pairs,
             const learn::IngestReport& games);

class PartImport {
 public:
  // The file whose shares come next, into a dataset whose pairs keep `fields`.
  void begin(const std::string& file_name, const learn::KeyFields& fields);
  // A share: its rows into the dataset's histogram; its pairs and counts kept for the file; its
  // issues listed with their line and game numbers shifted by what came before in the file.
  void add(Dataset& data, const Part& part, std::uint64_t line_offset, std::uint64_t game_offset);
  // Ends the file (`bytes` long): its report, digest and error into the dataset (no games, no
  // usable game, as a sequential read judges the whole file; its file errors list it as "name: no
  // games found: ..."). Returns the error, or nullopt.
  std::optional<Error> end_file(Dataset& data, std::uint64_t bytes);
  // Ends an entry of a decoded file (`bytes` decompressed): its report, without a digest or a
  // listed error (the source file's end says those).
  void end_entry(Dataset& data, const std::string& entry, std::uint64_t bytes);

  // The file being imported, and what its shares added so far (the live estimates read them).
  const std::string& name() const { return name_; }
  const learn::IngestReport& report() const { return report_; }
  const learn::GamePairs& pairs() const { return pairs_; }

 private:
  // The file's report from its shares' counts (no games, no usable game: its error), its games
  // and pairs merged into the dataset; the counts start again.
  learn::FileReport close(Dataset& data, const std::string& name, std::uint64_t bytes);

  std::string name_;
  learn::IngestReport report_;
  learn::GamePairs pairs_;
};

}  // namespace materialist::worker
