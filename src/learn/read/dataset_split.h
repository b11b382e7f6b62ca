// One read of the input files into the datasets a comparison needs: the merged dataset and, by
// mode, one named subset per file or one per filter. The CLI and the browser worker read this
// way, so "one dataset per file / per filter" is written once.
//
//   SplitOptions options;
//   options.ingest = ingest;                  // games filtered by `options.filter` (parsed)
//   options.filter = "elo=1500-";
//   options.mode = SplitMode::kPerFilter;
//   options.each_filter = {"tc=bullet", "tc=blitz"};   // each layered on the base filter
//   options.key_fields = KeyFields::for_model(model);
//   Expected<DatasetSplit> split = DatasetSplit::create(options);
//   split->begin_file("games.pgn"); split->feed(chunk, size); ...; split->end_file();
//   split->merged().histogram();   for (const NamedSubset& s : split->subsets()) fit(s.builder)
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "learn/read/dataset.h"
#include "learn/read/dataset_part.h"
#include "learn/read/ingest.h"
#include "learn/stats/game_pairs.h"

namespace materialist::learn {

enum class SplitMode : std::uint8_t {
  kMerge,      // one dataset of every file
  kPerFile,    // and one per file, named by it
  kPerFilter,  // and one per filter text, named by it, over every file
};
inline constexpr std::array kSplitModeNames = {"merge", "per-file", "per-filter"};
static_assert(kSplitModeNames.size() == static_cast<std::size_t>(SplitMode::kPerFilter) + 1);
const char* split_mode_name(SplitMode mode);  // "merge", "per-file", "per-filter"
std::optional<SplitMode> parse_split_mode(std::string_view name);

struct SplitOptions {
  IngestOptions ingest;  // every dataset's; ingest.games is the base filter, parsed
  std::string filter;    // the base filter's text (kPerFilter: each text is layered on it)
  SplitMode mode = SplitMode::kMerge;
  std::vector<std::string> each_filter;  // kPerFilter: one subset per text
  KeyFields key_fields;                  // what every dataset's game pairs and bootstrap keep
  // Poisson-bootstrap replicates over games: in every named subset, and in the merged dataset
  // in kMerge mode (0: none).
  int bootstrap = 0;
  std::uint64_t seed = 1;
  // Issues a named subset lists (the merged dataset lists ingest.max_reported_issues).
  std::size_t subset_max_issues = 0;
  // Also read into the merged dataset; off when only the subsets are wanted (the CLI's compare:
  // a pass less). In kMerge mode it is always on.
  bool keep_merged = true;
  // Stop after this many games over all files (0: read everything). A reader stops feeding
  // once limit_reached(); a "first N MB" limit is the reader's: it calls stop_after_game().
  std::uint64_t max_games = 0;
  // The first file's index in a larger collection read elsewhere too (materialist stats
  // --file-index): the bootstrap's game ids are (index << 40) + the game's number, so files read
  // apart draw the weights a read of the whole collection would.
  std::uint64_t first_file_index = 0;
};

// A read as the CLI's flags or the page's settings describe it: the one place that turns it into
// the ingest's and the split's options (cli/commands.cpp and worker/engine_read.cpp both call it).
struct ReadRequest {
  UnknownResultPolicy unknown = UnknownResultPolicy::kSkip;
  QuietFilterOptions quiet;
  std::string filter;                   // compact game-filter text (learn/filter/game_filter.h)
  const char* filter_label = "filter";  // names the filter in a parse error ("--filter")
  Target target = Target::kResult;
  SplitMode mode = SplitMode::kMerge;
  std::vector<std::string> each_filter;
  KeyFields keep;  // what the models to be fitted read
  int bootstrap = 0;
  std::uint64_t seed = 1;
  std::uint64_t max_games = 0;
  std::uint64_t first_file_index = 0;
  std::size_t max_reported_issues = IngestOptions{}.max_reported_issues;
  std::size_t subset_max_issues = 0;
  bool keep_merged = true;
  bool keep_boards = false;  // IngestOptions::keep_boards
};
// The ingest's options alone (the filter parsed: kInvalidArgument naming filter_label).
Expected<IngestOptions> ingest_options_for(const ReadRequest& request);
Expected<SplitOptions> split_options_for(const ReadRequest& request);

struct NamedSubset {
  std::string name;  // the file's name or the filter text
  std::unique_ptr<DatasetBuilder> builder;
};

class DatasetSplit {
 public:
  // Errors (kSyntax) when a filter text does not parse, naming it: "tc=bulet: bad value ...".
  static Expected<DatasetSplit> create(SplitOptions options);

  // Every builder's, in step: kPerFile starts a new subset at each file.
  void begin_file(const std::string& name);
  void feed(const char* data, std::size_t size);
  void end_file();
  // The current file is read no further than the next game end (of the game being read, or of
  // the next one when none is).
  void stop_after_game();
  // True once a limit ended the read (max_games, or stop_after_game and that game's end): the
  // reader stops feeding and begins no further file.
  bool limit_reached() const;

  // Parallel reads (learn/read/dataset_part.h). What the stretches of the file numbered
  // `file_index` (0-based, every file begun counts, a zip's entries one each) are parsed into: one
  // target per dataset the file is read into, in add_parts' order. It reads only what is fixed from
  // create() on (and whether the merged dataset has a row sink, set before reading), so any
  // thread may call it while another adds parts.
  std::vector<PartTarget> part_targets(std::size_t file_index) const;
  // Instead of feed(), between begin_file and end_file: a stretch's parts (one per target of
  // part_targets), in file order. See DatasetBuilder::add_part.
  void add_parts(std::vector<DatasetPart> parts, std::uint64_t line_offset,
                 std::uint64_t game_offset);
  // After the read: the pairs PartReaders kept in a PartScratch (learn/read/dataset_part.h) into
  // their datasets; then the pairs of the stretches whose parts were not used (gathered by
  // FilePartsMerger in its own scratch) taken out.
  void add_kept_pairs(const PartScratch& scratch);
  void subtract_kept_pairs(const PartScratch& scratch);
  // The current file's datasets' row sinks, in add_parts' order.
  std::vector<RowSink> row_sinks();

  // The dataset of every file (empty when keep_merged is off): set a row sink on it, read its
  // histogram, report, pairs and bootstrap.
  DatasetBuilder& merged() { return *merged_; }
  const DatasetBuilder& merged() const { return *merged_; }
  bool has_merged() const { return options_.keep_merged || options_.mode == SplitMode::kMerge; }
  // kPerFile: one per file begun so far; kPerFilter: one per filter text; kMerge: none.
  const std::vector<NamedSubset>& subsets() const { return subsets_; }
  const SplitOptions& options() const { return options_; }
  // The report so far, for progress: the merged dataset's, or without it the subset being read.
  DatasetReport live_report() const;

 private:
  explicit DatasetSplit(SplitOptions options) : options_(std::move(options)) {}
  std::unique_ptr<DatasetBuilder> make_builder(IngestOptions ingest, bool bootstrap) const;
  // The builders the current file's bytes go to, and the first of them (nullptr: none).
  std::vector<DatasetBuilder*> readers();
  const DatasetBuilder* first_reader() const;
  // PartTarget::dataset's builder: 0 the merged one, 1 + k the k-th subset (nullptr: none).
  DatasetBuilder* dataset(std::size_t id);

  SplitOptions options_;
  std::uint64_t games_in_ended_files_ = 0;    // for max_games over several files
  bool stopped_ = false;                      // a limit ended a file
  bool past_limit_ = false;                   // the current file began after max_games
  std::vector<IngestOptions> filter_ingest_;  // kPerFilter: each subset's, fixed by create()
  std::unique_ptr<DatasetBuilder> merged_;
  std::vector<NamedSubset> subsets_;
};

}  // namespace materialist::learn
