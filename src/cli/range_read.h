// One byte range of a plain PGN file read on its own (stats --range), so that a file can be split
// across processes or machines: each end of the range asked for moves to the next game start
// (pgn::GameChunker's: `[Event "` after an empty line, or the file's first byte), so ranges
// START:MID and MID:END made apart meet at the same game start and tile the file.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

#include "cli/options.h"
#include "core/error.h"
#include "learn/read/dataset_split.h"
#include "learn/read/mstats.h"

namespace materialist::cli {

// The first game start at or after `from` in the open file (its size when there is none).
Expected<std::uint64_t> next_game_start(std::FILE* file, std::uint64_t from, std::uint64_t size);

// The range's statistics entry (learn::StatsEntry: is_range, the bytes read, their lines and
// sha-256). The file must be plain text (kInvalidArgument for a compressed one), kIo when it
// cannot be read. `split` gives the part targets (its first_file_index is the file's).
Expected<learn::StatsEntry> read_range(const std::string& path, ByteRange range,
                                       const learn::DatasetSplit& split);

}  // namespace materialist::cli
