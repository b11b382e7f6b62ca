// Statistics files (.mstats, docs/MSTATS.md): the sufficient statistics of reading some PGN
// files, or byte ranges of one, so that reads made apart (other processes, other machines) merge
// by addition into exactly what one read of everything gives: the histogram, the game pairs of the
// clustered errors, the bootstrap replicates, the data report.
//
//   StatsFile stats;
//   stats.settings = stats_settings(split_options);          // what decides which rows count
//   stats.entries.push_back(entry_of(split.merged(), ...));  // one per input or range
//   std::string bytes = encode_stats(stats);
//   Expected<StatsFile> back = decode_stats(bytes);          // checksum, version, truncation
//   Expected<Statistics> all = merge_stats(files, names);    // any order, the same result
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.h"
#include "learn/read/dataset.h"
#include "learn/read/dataset_split.h"
#include "learn/stats/bootstrap_histograms.h"
#include "learn/stats/game_pairs.h"
#include "learn/stats/histogram.h"

namespace materialist::learn {

// The format's version (docs/MSTATS.md); a reader refuses any other.
// Version 1: the result target. Version 2: the evaluation target (setting "target" = "eval"),
// whose report, histogram and pairs carry the evaluations' counts, target sums and moments
// (docs/MSTATS.md); a result file is still written, and read, as version 1.
inline constexpr std::uint32_t kStatsVersion = 1;
inline constexpr std::uint32_t kStatsEvalVersion = 2;
// The first 8 bytes of every statistics file.
inline constexpr std::string_view kStatsMagic = "MSTATS\r\n";

// A dataset's sufficient statistics: what a fit, its clustered errors and its bootstrap read.
struct Statistics {
  Histogram histogram;
  GamePairs pairs;
  std::unique_ptr<BootstrapHistograms> bootstrap;  // null when not asked
  DatasetReport report;
};

// One input read: a whole file (every entry of an archive), or a byte range of a plain PGN file.
struct StatsEntry {
  std::string name;              // as named on the command line (the report's file name)
  std::uint64_t file_index = 0;  // its place in the collection: the merge's order, game ids
  std::uint64_t size = 0;        // the file's bytes
  std::string sha256;            // of the bytes read (a range: of the range's bytes)
  bool is_range = false;
  std::uint64_t start = 0, end = 0;  // the bytes read, [start, end), cut at game starts
  // A range: its line breaks (as pgn::Parser counts them), whether a sequential read would
  // begin a game at its end (learn::PartReader::end_before_game_start), and its sniffed bytes
  // (of the file's first kBinarySniffBytes). Its report holds only `games`, numbered from
  // the range's start; merge_stats shifts them.
  std::uint64_t lines = 0;
  bool stands_alone = true;
  std::uint64_t sniffed_bytes = 0, sniffed_binary = 0;
  Statistics stats;
};

using StatsSettings = std::vector<std::pair<std::string, std::string>>;

struct StatsFile {
  StatsSettings settings;  // name → value, in a fixed order
  std::vector<StatsEntry> entries;
};

// The settings that decide which rows count and what is kept, as text (stable names: the
// merge's messages name them): the ingest's quiet filter and unknown results, the filter, the
// key fields, the rating bins, the parser's limits, the bootstrap and its seed.
StatsSettings stats_settings(const SplitOptions& options);
// The read the settings were written for, as far as a ReadRequest holds it (stats_settings'
// inverse): unknown results, the quiet filter, the filter, the key fields, the bootstrap and its
// seed as written (0 when no bootstrap), the target. The rating bins and the parser's limits are
// the product's own.
ReadRequest read_request_of(const StatsSettings& settings);
// A setting's value ("" when the file has none), and the key fields the settings say are kept.
std::string setting_of(const StatsSettings& settings, std::string_view name);
KeyFields key_fields_of(const StatsSettings& settings);
// The target the statistics were read for (setting "target"; absent: the result).
Target target_of(const StatsSettings& settings);

// The first setting whose values differ ("", "" when none): its name and both values.
struct SettingDifference {
  std::string name, a, b;
};
std::optional<SettingDifference> first_difference(const StatsSettings& a, const StatsSettings& b);

// The statistics of a finished builder (one input read whole).
Statistics statistics_of(const DatasetBuilder& builder);

std::string encode_stats(const StatsFile& stats);
// kSyntax with what is wrong: not a statistics file, another version, truncated, a checksum
// that does not match (corrupt), or a body that does not parse.
Expected<StatsFile> decode_stats(std::string_view bytes);

// Every entry of `files` (named by `names`, for messages) merged: settings must be equal (else
// kInvalidArgument naming the setting); the entries are put in (file index, name, start) order, so
// any order of files gives the same result; a file's ranges must tile it from 0 to its size, each
// but the last standing alone, and no input may appear twice.
Expected<Statistics> merge_stats(const std::vector<StatsFile>& files,
                                 const std::vector<std::string>& names);

// The checks of merge_stats that hold for any part of a collection: equal settings, no input
// twice, no overlapping ranges (gaps are allowed: the other ranges may come later).
Expected<bool> check_stats(const std::vector<StatsFile>& files,
                           const std::vector<std::string>& names);

// True when the name ends with .mstats (any case).
bool is_stats_name(const std::string& name);

}  // namespace materialist::learn
