// The merging side of a parallel read of one PGN file: the file's chunks (pgn::GameChunker) come
// in file order, each with the parts a PartReader made of it on its own
// (learn/read/dataset_part.h), and go into the split exactly as a sequential read would put them.
// From the first chunk that does not stand alone on (a cut at max_bytes, or a cut a parser would
// not make: see PartReader::end_before_game_start), it reads the rest of the file itself with one
// continuing PartReader, so the result is the sequential one whatever the cuts.
//
//   split.begin_file(name);
//   FilePartsMerger merger(split, file_index);
//   for (each chunk, in file order)   // parts: nullopt when the chunk did not stand alone
//     merger.add(chunk, std::move(parts));
//   merger.finish();
//   split.end_file();
//
// The parts' bootstrap replicates must have been made with set_game_offset(the file's games
// before the chunk): the sum of games() of the PartReaders of the chunks before it.
//
// When a chunk's reader kept its game pairs in a PartScratch (dataset_part.h), add() is given
// a scratch of the merger's side, `taken_back`: if the chunk's parts are not used, it is read
// again into it, and after the read split.subtract_kept_pairs(taken_back) takes those pairs out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "learn/read/dataset_part.h"
#include "learn/read/dataset_split.h"
#include "pgn/game_chunker.h"

namespace materialist::learn {

class FilePartsMerger {
 public:
  // After split.begin_file() for the file numbered `file_index` (see part_targets).
  FilePartsMerger(DatasetSplit& split, std::size_t file_index);
  ~FilePartsMerger();
  FilePartsMerger(const FilePartsMerger&) = delete;
  FilePartsMerger& operator=(const FilePartsMerger&) = delete;

  // The file's next chunk, with its parts (one per target of part_targets(file_index)) when it
  // stood alone: ended before a game start and end_before_game_start() was true, or ended the
  // file. Otherwise nullopt, and the parts are not needed from here on to the file's end.
  void add(const pgn::GameChunk& chunk, std::optional<std::vector<DatasetPart>> parts,
           PartScratch* taken_back = nullptr);
  // The file's end, before split.end_file().
  void finish();

  // The file's games merged so far (after a chunk that did not stand alone: up to it).
  std::uint64_t games() const { return games_; }
  // Whether it reads the rest of the file itself.
  bool continuing() const { return continuing_ != nullptr; }

 private:
  DatasetSplit& split_;
  std::size_t file_index_;
  std::uint64_t games_ = 0;
  std::uint64_t lines_ = 0;  // the file's line breaks merged so far (counted by the parts' parsers)
  std::unique_ptr<PartReader> continuing_;
  std::uint64_t continuing_lines_ = 0;  // the file's lines before it
};

}  // namespace materialist::learn
