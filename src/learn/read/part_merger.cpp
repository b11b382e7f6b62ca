#include "learn/read/part_merger.h"

#include <utility>

namespace materialist::learn {

FilePartsMerger::FilePartsMerger(DatasetSplit& split, std::size_t file_index)
    : split_(split), file_index_(file_index) {}

FilePartsMerger::~FilePartsMerger() = default;

void FilePartsMerger::add(const pgn::GameChunk& chunk,
                          std::optional<std::vector<DatasetPart>> parts, PartScratch* taken_back) {
  const bool stands_alone = parts && (chunk.ends_before_game_start || chunk.ends_stream);
  if (!continuing_ && stands_alone) {
    const std::uint64_t games = parts->empty() ? 0 : parts->front().games.games_read;
    const std::uint64_t lines = parts->empty() ? 0 : parts->front().line_breaks;
    split_.add_parts(std::move(*parts), lines_, games_);
    games_ += games;
    lines_ += lines;
    return;
  }
  if (taken_back) {
    // Read as its reader read it: the same pairs, to be taken out.
    PartReader again(split_.part_targets(file_index_), chunk.offset, taken_back);
    read_chunk(again, chunk);
  }
  if (!continuing_) {
    // The parser state at this chunk's end is not a fresh one: one parser reads on from here.
    continuing_ = std::make_unique<PartReader>(split_.part_targets(file_index_), chunk.offset);
    continuing_->set_game_offset(games_);
    continuing_->set_row_sinks(split_.row_sinks());
    continuing_lines_ = lines_;
  }
  continuing_->feed(chunk.bytes.data(), chunk.bytes.size());
}

void FilePartsMerger::finish() {
  if (!continuing_) return;
  continuing_->finish();
  split_.add_parts(continuing_->take_parts(), continuing_lines_, games_);
  continuing_.reset();
}

}  // namespace materialist::learn
