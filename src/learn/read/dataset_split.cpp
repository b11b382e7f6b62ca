#include "learn/read/dataset_split.h"

#include <utility>

#include "core/enum_names.h"
#include "learn/filter/game_filter.h"

namespace materialist::learn {

const char* split_mode_name(SplitMode mode) {
  return name_of(kSplitModeNames, mode);
}

std::optional<SplitMode> parse_split_mode(std::string_view name) {
  return value_named<SplitMode>(kSplitModeNames, name);
}

std::unique_ptr<DatasetBuilder> DatasetSplit::make_builder(IngestOptions ingest,
                                                           bool bootstrap) const {
  auto builder = std::make_unique<DatasetBuilder>(std::move(ingest));
  builder->set_key_fields(options_.key_fields);
  builder->set_first_file_index(options_.first_file_index);
  if (bootstrap && options_.bootstrap > 0) {
    builder->enable_bootstrap(options_.bootstrap, options_.seed);
  }
  return builder;
}

Expected<IngestOptions> ingest_options_for(const ReadRequest& request) {
  IngestOptions ingest = request.unknown == UnknownResultPolicy::kTreatAsDraw
                             ? IngestOptions::article()
                             : IngestOptions::defaults();
  ingest.quiet = request.quiet;
  ingest.target = request.target;
  ingest.max_reported_issues = request.max_reported_issues;
  ingest.keep_boards = request.keep_boards;
  auto filter = parse_game_filter(request.filter);
  if (!filter) {
    return make_error(filter.error().code,
                      std::string(request.filter_label) + ": " + filter.error().message);
  }
  ingest.games = *filter;
  return ingest;
}

Expected<SplitOptions> split_options_for(const ReadRequest& request) {
  auto ingest = ingest_options_for(request);
  if (!ingest) return ingest.error();
  SplitOptions split;
  split.ingest = std::move(*ingest);
  split.filter = request.filter;
  split.mode = request.mode;
  split.each_filter = request.each_filter;
  split.key_fields = request.keep;
  split.bootstrap = request.bootstrap;
  split.seed = request.seed;
  split.subset_max_issues = request.subset_max_issues;
  split.keep_merged = request.keep_merged || request.mode == SplitMode::kMerge;
  split.max_games = request.max_games;
  split.first_file_index = request.first_file_index;
  return split;
}

Expected<DatasetSplit> DatasetSplit::create(SplitOptions options) {
  DatasetSplit split(std::move(options));
  const SplitOptions& o = split.options_;
  split.merged_ = split.make_builder(o.ingest, o.mode == SplitMode::kMerge);
  if (o.mode == SplitMode::kPerFilter) {
    for (const std::string& each : o.each_filter) {
      const auto games = parse_game_filter(combine_game_filters(o.filter, each));
      if (!games) return make_error(games.error().code, each + ": " + games.error().message);
      IngestOptions ingest = o.ingest;
      ingest.games = *games;
      ingest.max_reported_issues = o.subset_max_issues;
      split.filter_ingest_.push_back(ingest);
      split.subsets_.push_back({each, split.make_builder(std::move(ingest), true)});
    }
  }
  return split;
}

std::vector<DatasetBuilder*> DatasetSplit::readers() {
  std::vector<DatasetBuilder*> builders;
  if (has_merged()) builders.push_back(merged_.get());
  if (options_.mode == SplitMode::kPerFile) {
    if (!subsets_.empty()) builders.push_back(subsets_.back().builder.get());
  } else {
    for (NamedSubset& subset : subsets_) builders.push_back(subset.builder.get());
  }
  return builders;
}

void DatasetSplit::begin_file(const std::string& name) {
  if (options_.mode == SplitMode::kPerFile) {
    IngestOptions ingest = options_.ingest;
    ingest.max_reported_issues = options_.subset_max_issues;
    subsets_.push_back({name, make_builder(std::move(ingest), true)});
  }
  const std::uint64_t left =
      options_.max_games == 0
          ? 0
          : options_.max_games - std::min(options_.max_games, games_in_ended_files_);
  past_limit_ = options_.max_games != 0 && left == 0;  // begun anyway: its bytes are ignored
  for (DatasetBuilder* builder : readers()) builder->begin_file(name, left);
}

void DatasetSplit::stop_after_game() {
  for (DatasetBuilder* builder : readers()) builder->stop_after_game();
}

bool DatasetSplit::limit_reached() const {
  if (stopped_ || (options_.max_games != 0 && games_in_ended_files_ >= options_.max_games)) {
    return true;
  }
  const DatasetBuilder* first = first_reader();
  return first != nullptr && first->stopped();
}

const DatasetBuilder* DatasetSplit::first_reader() const {
  if (has_merged()) return merged_.get();
  if (subsets_.empty()) return nullptr;
  return options_.mode == SplitMode::kPerFile ? subsets_.back().builder.get()
                                              : subsets_.front().builder.get();
}

void DatasetSplit::feed(const char* data, std::size_t size) {
  if (past_limit_) return;
  for (DatasetBuilder* builder : readers()) builder->feed(data, size);
}

void DatasetSplit::end_file() {
  if (limit_reached()) stopped_ = true;
  for (DatasetBuilder* builder : readers()) builder->end_file();
  const DatasetBuilder* first = first_reader();
  if (first != nullptr && !first->report().files.empty()) {
    games_in_ended_files_ += first->report().files.back().games;
  }
}

std::vector<PartTarget> DatasetSplit::part_targets(std::size_t file_index) const {
  const auto target = [this](const IngestOptions& ingest, bool bootstrap,
                             std::uint64_t files_before, std::size_t dataset) {
    PartTarget t;
    t.dataset = dataset;
    t.ingest = ingest;
    t.key_fields = options_.key_fields;
    t.bootstrap = bootstrap ? options_.bootstrap : 0;
    t.seed = options_.seed;
    t.game_id_base = files_before << 40;  // as DatasetBuilder numbers its games
    return t;
  };
  const auto index = static_cast<std::uint64_t>(file_index) + options_.first_file_index;
  std::vector<PartTarget> targets;  // readers()' order
  if (has_merged()) {
    targets.push_back(target(options_.ingest, options_.mode == SplitMode::kMerge, index, 0));
    targets.back().keep_rows = merged_->has_row_sink();
  }
  if (options_.mode == SplitMode::kPerFile) {
    IngestOptions ingest = options_.ingest;
    ingest.max_reported_issues = options_.subset_max_issues;
    // The file's own dataset, begun with it.
    targets.push_back(target(ingest, true, options_.first_file_index, 1 + file_index));
  } else {
    for (std::size_t k = 0; k < filter_ingest_.size(); ++k) {
      targets.push_back(target(filter_ingest_[k], true, index, 1 + k));
    }
  }
  return targets;
}

void DatasetSplit::add_parts(std::vector<DatasetPart> parts, std::uint64_t line_offset,
                             std::uint64_t game_offset) {
  const std::vector<DatasetBuilder*> builders = readers();
  for (std::size_t i = 0; i < builders.size() && i < parts.size(); ++i) {
    builders[i]->add_part(std::move(parts[i]), line_offset, game_offset);
  }
}

DatasetBuilder* DatasetSplit::dataset(std::size_t id) {
  if (id == 0) return has_merged() ? merged_.get() : nullptr;
  return id - 1 < subsets_.size() ? subsets_[id - 1].builder.get() : nullptr;
}

void DatasetSplit::add_kept_pairs(const PartScratch& scratch) {
  for (std::size_t id = 0; id < scratch.pairs.size(); ++id) {
    if (DatasetBuilder* builder = dataset(id); builder && !scratch.pairs[id].empty()) {
      builder->add_pairs(scratch.pairs[id]);
    }
  }
}

void DatasetSplit::subtract_kept_pairs(const PartScratch& scratch) {
  for (std::size_t id = 0; id < scratch.pairs.size(); ++id) {
    if (DatasetBuilder* builder = dataset(id); builder && !scratch.pairs[id].empty()) {
      builder->subtract_pairs(scratch.pairs[id]);
    }
  }
}

std::vector<RowSink> DatasetSplit::row_sinks() {
  std::vector<RowSink> sinks;
  for (const DatasetBuilder* builder : readers()) sinks.push_back(builder->row_sink());
  return sinks;
}

DatasetReport DatasetSplit::live_report() const {
  if (has_merged() || subsets_.empty()) return merged_->live_report();
  return subsets_.back().builder->live_report();
}

}  // namespace materialist::learn
