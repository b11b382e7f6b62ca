#include "learn/read/mstats.h"

#include <algorithm>
#include <cassert>
#include <cstdlib>
#include <map>
#include <tuple>

#include "core/text.h"

namespace materialist::learn {

namespace {

std::string key_fields_text(const KeyFields& f) {
  std::string text;
  const auto add = [&text](bool kept, const char* name) {
    if (!kept) return;
    if (!text.empty()) text += ',';
    text += name;
  };
  add(f.bishop_pair, "bishop-pair");
  add(f.phase, "phase");
  add(f.side_to_move, "side-to-move");
  add(f.rating, "rating");
  add(f.counts, "counts");
  return text.empty() ? "none" : text;
}

std::unique_ptr<BootstrapHistograms> copy_of(const BootstrapHistograms* bootstrap) {
  if (bootstrap == nullptr) return nullptr;
  auto copy = std::make_unique<BootstrapHistograms>(bootstrap->replicate_count(), bootstrap->seed(),
                                                    bootstrap->fields());
  if (bootstrap->has_targets()) copy->enable_targets();
  // The same seed, count and fields by construction: the merge cannot refuse.
  [[maybe_unused]] const Expected<bool> merged = copy->merge(*bootstrap);
  assert(merged.ok());
  return copy;
}

// Adds `from` to `into` as DatasetBuilder::end_file adds a file: counts sum, issues and files
// follow in order. Fails (adding nothing) when their bootstrap replicates differ in count, seed
// or fields: a file whose replicates are not those its settings name.
[[nodiscard]] Expected<bool> add_statistics(Statistics& into, const Statistics& from,
                                            std::size_t max_issues) {
  if (into.bootstrap && from.bootstrap) {
    if (auto merged = into.bootstrap->merge(*from.bootstrap); !merged) return merged.error();
  }
  into.histogram.merge(from.histogram);
  into.pairs.merge(from.pairs);
  DatasetReport& a = into.report;
  const DatasetReport& b = from.report;
  merge_ingest_reports(a.games, b.games, max_issues);
  a.mat.bytes += b.mat.bytes;
  a.mat.lines += b.mat.lines;
  a.mat.rows += b.mat.rows;
  a.mat.bad_lines += b.mat.bad_lines;
  for (const MatBadLine& bad : b.mat.first_bad_lines) {
    if (a.mat.first_bad_lines.size() >= max_issues) break;
    a.mat.first_bad_lines.push_back(bad);
  }
  a.files.insert(a.files.end(), b.files.begin(), b.files.end());
  a.bytes += b.bytes;
  a.rows += b.rows;
  a.stopped_at_limit = a.stopped_at_limit || b.stopped_at_limit;
  return true;
}

struct Located {
  const StatsEntry* entry;
  const std::string* source;  // the statistics file's name
};

Error refused(const std::string& message) {
  return make_error(ErrorCode::kInvalidArgument, message);
}

std::string range_text(const StatsEntry& e) {
  return std::to_string(e.start) + ":" + std::to_string(e.end);
}

// A file's ranges (in start order): the same file, no overlap; with `complete`, they tile it from
// byte 0 to its end, each but the last standing alone (as a merge needs them).
std::optional<Error> check_ranges(const std::vector<Located>& ranges, bool complete) {
  const StatsEntry& first = *ranges.front().entry;
  std::uint64_t at = 0;
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    const StatsEntry& e = *ranges[i].entry;
    const std::string where =
        first.name + " (" + *ranges[i].source + ", range " + range_text(e) + ")";
    if (e.size != first.size) return refused(where + ": the file's size differs between ranges");
    if (i > 0 && e.start < at) {
      return refused(where + ": overlaps the range before it, which ends at " + std::to_string(at));
    }
    if (complete && e.start > at) {
      return refused(where + ": bytes " + std::to_string(at) + ":" + std::to_string(e.start) +
                     " of the file are in no range");
    }
    if (complete && i + 1 < ranges.size() && !e.stands_alone) {
      return refused(where +
                     ": ends where a sequential read would go on inside a game (an open '{' "
                     "comment): cut the file elsewhere");
    }
    at = e.end;
  }
  if (complete && at != first.size) {
    return refused(first.name + ": bytes " + std::to_string(at) + ":" + std::to_string(first.size) +
                   " of the file are in no range");
  }
  return std::nullopt;
}

// A file's ranges (in start order, checked) as one file, as a parallel read's parts are merged.
Statistics join_ranges(const std::vector<Located>& ranges, const IngestOptions& ingest,
                       const KeyFields& fields, int bootstrap, std::uint64_t seed) {
  const StatsEntry& first = *ranges.front().entry;
  DatasetBuilder builder(ingest);
  builder.set_key_fields(fields);
  if (bootstrap > 0) builder.enable_bootstrap(bootstrap, seed);
  builder.begin_file(first.name);
  std::uint64_t lines = 0, games = 0;
  for (const Located& located : ranges) {
    const StatsEntry& e = *located.entry;
    DatasetPart part;
    part.histogram = e.stats.histogram;
    part.pairs = e.stats.pairs;
    part.bootstrap = copy_of(e.stats.bootstrap.get());
    part.games = e.stats.report.games;
    part.bytes = e.end - e.start;
    part.sniffed_bytes = e.sniffed_bytes;
    part.sniffed_binary = e.sniffed_binary;
    builder.add_part(std::move(part), lines, games);
    lines += e.lines;
    games += e.stats.report.games.games_read;
  }
  builder.end_file();
  return statistics_of(builder);
}

}  // namespace

StatsSettings stats_settings(const SplitOptions& options) {
  const IngestOptions& in = options.ingest;
  const auto flag = [](bool value) { return std::string(value ? "yes" : "no"); };
  StatsSettings settings = {
      {"unknown-results",
       in.unknown_results == UnknownResultPolicy::kTreatAsDraw ? "draw" : "skip"},
      {"quiet-plies", std::to_string(in.quiet.quiet_plies)},
      {"checks-break-quiet", flag(in.quiet.checks_break_quiet)},
      {"distinct-per-game", flag(in.quiet.distinct_per_game)},
      {"skip-plies", std::to_string(in.quiet.skip_first_plies)},
      {"filter", options.filter},
      {"key-fields", key_fields_text(options.key_fields)},
      {"rating-bin-elo", std::to_string(in.rating_bin_elo)},
      {"max-plies", std::to_string(in.parser.max_plies)},
      {"stop-at-missing-move", flag(in.stop_at_missing_move)},
      {"bootstrap", std::to_string(options.bootstrap)},
      {"seed", std::to_string(options.bootstrap > 0 ? options.seed : 0)},
  };
  // Only the evaluation target names itself: a result file's settings (and bytes) are those of
  // before it.
  if (in.target == Target::kEval) settings.emplace_back("target", target_name(in.target));
  return settings;
}

ReadRequest read_request_of(const StatsSettings& settings) {
  const auto value = [&settings](const char* name) { return setting_of(settings, name); };
  ReadRequest request;
  request.unknown = value("unknown-results") == "draw" ? UnknownResultPolicy::kTreatAsDraw
                                                       : UnknownResultPolicy::kSkip;
  request.quiet.quiet_plies = std::atoi(value("quiet-plies").c_str());
  request.quiet.checks_break_quiet = value("checks-break-quiet") == "yes";
  request.quiet.distinct_per_game = value("distinct-per-game") == "yes";
  request.quiet.skip_first_plies = std::atoi(value("skip-plies").c_str());
  request.filter = value("filter");
  request.keep = key_fields_of(settings);
  request.bootstrap = std::atoi(value("bootstrap").c_str());
  request.seed = std::strtoull(value("seed").c_str(), nullptr, 10);
  request.target = target_of(settings);
  return request;
}

Target target_of(const StatsSettings& settings) {
  return setting_of(settings, "target") == target_name(Target::kEval) ? Target::kEval
                                                                      : Target::kResult;
}

std::optional<SettingDifference> first_difference(const StatsSettings& a, const StatsSettings& b) {
  std::map<std::string, std::string> in_b(b.begin(), b.end());
  for (const auto& [name, value] : a) {
    const auto it = in_b.find(name);
    const std::string other = it == in_b.end() ? "(not set)" : it->second;
    if (other != value) return SettingDifference{name, value, other};
  }
  std::map<std::string, std::string> in_a(a.begin(), a.end());
  for (const auto& [name, value] : b) {
    if (!in_a.count(name)) return SettingDifference{name, "(not set)", value};
  }
  return std::nullopt;
}

std::string setting_of(const StatsSettings& settings, std::string_view name) {
  for (const auto& [key, value] : settings) {
    if (key == name) return value;
  }
  return "";
}

KeyFields key_fields_of(const StatsSettings& settings) {
  std::string kept = ",";  // (appended, not "," + ...: GCC 12 warns falsely on that)
  kept += setting_of(settings, "key-fields");
  kept += ',';
  KeyFields fields = KeyFields::none();
  fields.bishop_pair = kept.find(",bishop-pair,") != std::string::npos;
  fields.phase = kept.find(",phase,") != std::string::npos;
  fields.side_to_move = kept.find(",side-to-move,") != std::string::npos;
  fields.rating = kept.find(",rating,") != std::string::npos;
  fields.counts = kept.find(",counts,") != std::string::npos;
  return fields;
}

Statistics statistics_of(const DatasetBuilder& builder) {
  Statistics stats;
  stats.histogram = builder.histogram();
  stats.pairs = *builder.pairs();
  stats.bootstrap = copy_of(builder.bootstrap());
  stats.report = builder.report();
  return stats;
}

bool is_stats_name(const std::string& name) {
  return ends_with_ignoring_case(name, ".mstats");
}

namespace {

// The entries of every file in merge order, checked (see merge_stats and check_stats), and the
// groups of entries of one input: [begin, end) of `all`.
struct Checked {
  std::vector<Located> all;
  std::vector<std::pair<std::size_t, std::size_t>> groups;
};

Expected<Checked> checked_entries(const std::vector<StatsFile>& files,
                                  const std::vector<std::string>& names, bool complete) {
  if (files.empty()) return refused("no statistics files");
  const StatsSettings& settings = files.front().settings;
  for (std::size_t i = 1; i < files.size(); ++i) {
    if (const auto d = first_difference(settings, files[i].settings)) {
      return refused(names[0] + " and " + names[i] +
                     " were made with different settings: " + d->name + " is '" + d->a + "' in " +
                     names[0] + " and '" + d->b + "' in " + names[i]);
    }
  }
  const int bootstrap = read_request_of(settings).bootstrap;
  Checked checked;
  std::vector<Located>& all = checked.all;
  for (std::size_t i = 0; i < files.size(); ++i) {
    for (const StatsEntry& entry : files[i].entries) all.push_back({&entry, &names[i]});
  }
  std::sort(all.begin(), all.end(), [](const Located& x, const Located& y) {
    return std::tie(x.entry->file_index, x.entry->name, x.entry->start, x.entry->end) <
           std::tie(y.entry->file_index, y.entry->name, y.entry->start, y.entry->end);
  });
  for (std::size_t i = 0; i < all.size();) {
    const StatsEntry& e = *all[i].entry;
    std::size_t j = i + 1;
    while (j < all.size() && all[j].entry->file_index == e.file_index &&
           all[j].entry->name == e.name)
      ++j;
    if (bootstrap > 0 && i > 0 && all[i - 1].entry->file_index == e.file_index) {
      return refused(all[i - 1].entry->name + " (" + *all[i - 1].source + ") and " + e.name + " (" +
                     *all[i].source + ") have the same file index " + std::to_string(e.file_index) +
                     ": their games would draw the same bootstrap weights (give each input its own "
                     "--file-index)");
    }
    bool any_range = false, any_whole = false;
    for (std::size_t k = i; k < j; ++k) (all[k].entry->is_range ? any_range : any_whole) = true;
    if (any_whole && j - i > 1) {
      return refused(e.name + " is in " + *all[i].source + " and again in " + *all[i + 1].source +
                     ": its games would count twice");
    }
    if (any_range) {
      const std::vector<Located> ranges(all.begin() + static_cast<std::ptrdiff_t>(i),
                                        all.begin() + static_cast<std::ptrdiff_t>(j));
      if (auto error = check_ranges(ranges, complete)) return *error;
    }
    checked.groups.emplace_back(i, j);
    i = j;
  }
  return checked;
}

}  // namespace

Expected<bool> check_stats(const std::vector<StatsFile>& files,
                           const std::vector<std::string>& names) {
  auto checked = checked_entries(files, names, false);
  if (!checked) return checked.error();
  return true;
}

Expected<Statistics> merge_stats(const std::vector<StatsFile>& files,
                                 const std::vector<std::string>& names) {
  auto checked = checked_entries(files, names, true);
  if (!checked) return checked.error();
  const ReadRequest read = read_request_of(files.front().settings);
  const int bootstrap = read.bootstrap;
  const std::uint64_t seed = read.seed;
  const KeyFields fields = read.keep;
  IngestOptions ingest;
  ingest.fields = fields;
  ingest.target = read.target;

  Statistics merged;
  merged.pairs = GamePairs(fields);
  if (ingest.target == Target::kEval) {
    merged.histogram.enable_targets();
    merged.pairs.enable_targets();
  }
  if (bootstrap > 0) {
    merged.bootstrap = std::make_unique<BootstrapHistograms>(bootstrap, seed, fields);
    if (ingest.target == Target::kEval) merged.bootstrap->enable_targets();
  }
  for (const auto& [i, j] : checked->groups) {
    const StatsEntry& e = *checked->all[i].entry;
    if (e.is_range) {
      const std::vector<Located> ranges(checked->all.begin() + static_cast<std::ptrdiff_t>(i),
                                        checked->all.begin() + static_cast<std::ptrdiff_t>(j));
      auto added = add_statistics(merged, join_ranges(ranges, ingest, fields, bootstrap, seed),
                                  ingest.max_reported_issues);
      if (!added) return added.error();
    } else if (auto added = add_statistics(merged, e.stats, ingest.max_reported_issues); !added) {
      return make_error(added.error().code, *checked->all[i].source + ": " + added.error().message);
    }
  }
  return merged;
}

}  // namespace materialist::learn
