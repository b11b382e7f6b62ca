#include "cli/stats_command.h"

#include <cerrno>
#include <cstring>
#include <memory>

#include "cli/file_closer.h"
#include "cli/input.h"
#include "cli/range_read.h"
#include "cli/read_files.h"
#include "core/sha256.h"
#include "learn/stats/key_fields.h"

namespace materialist::cli {

namespace {

Expected<std::string> read_whole(const std::string& path) {
  std::string bytes;
  auto read = stream_file(path, [&bytes](const char* data, std::size_t size) {
    bytes.append(data, size);
    return true;
  });
  if (!read) return read.error();
  return bytes;
}

Expected<learn::StatsFile> read_stats_file(const std::string& path) {
  auto bytes = read_whole(path);
  if (!bytes) return bytes.error();
  auto stats = learn::decode_stats(*bytes);
  if (!stats) return make_error(stats.error().code, path + ": " + stats.error().message);
  return stats;
}

// One input read whole (any format read_files reads) into an entry.
Expected<learn::StatsEntry> read_whole_input(const std::string& path,
                                             const learn::SplitOptions& options,
                                             const CliOptions& cli) {
  auto split = learn::DatasetSplit::create(options);
  if (!split) return split.error();
  ReadSettings settings;
  settings.jobs = cli.jobs;
  settings.chunk_bytes = cli.chunk_bytes;
  // The size and hash of the bytes this read used: read once (a download is not asked twice).
  Sha256 hash;
  std::uint64_t size = 0;
  settings.on_stored_bytes = [&](const char* data, std::size_t n) {
    hash.update(data, n);
    size += n;
  };
  if (const auto failure = read_files({path}, *split, settings)) {
    return make_error(ErrorCode::kIo, failure->message);
  }
  learn::StatsEntry entry;
  entry.name = path;
  entry.file_index = options.first_file_index;
  entry.size = size;
  entry.sha256 = hash.hex();
  entry.end = entry.size;
  entry.stats = learn::statistics_of(split->merged());
  return entry;
}

int fail(std::FILE* err, const Failure& failure) {
  std::fprintf(err, "materialist: %s\n", failure.message.c_str());
  return failure.status();
}

}  // namespace

bool has_stats_inputs(const std::vector<std::string>& files) {
  for (const std::string& file : files) {
    if (learn::is_stats_name(file)) return true;
  }
  return false;
}

namespace {

// Why the options cannot make statistics, or "".
std::string stats_options_problem(const CliOptions& options, const learn::SplitOptions& split) {
  if (options.output.empty()) return "stats needs -o FILE.mstats";
  if (options.max_games != 0 || options.max_megabytes > 0) {
    return "stats reads whole files or --range: --max-games and --max-mb do not apply";
  }
  if (options.range && options.files.size() != 1) return "--range reads one file";
  if (options.range && options.range->start > 0 && split.bootstrap > 0) {
    return "--bootstrap with --range needs the range to start at 0: the bootstrap numbers games "
           "from the file's start, which a range starting later cannot know";
  }
  return "";
}

// One statistics file per input (a .mstats input as it is, made with these settings).
std::optional<Failure> read_inputs(const CliOptions& options, const learn::SplitOptions& split,
                                   const learn::StatsSettings& settings,
                                   std::vector<learn::StatsFile>& inputs) {
  std::uint64_t index = options.file_index;
  for (const std::string& path : options.files) {
    if (path == "-") {
      return bad_options("stats reads files, not standard input (their size and sha-256 are kept)");
    }
    if (learn::is_stats_name(path)) {
      auto stats = read_stats_file(path);
      if (!stats) {
        const bool unreadable = stats.error().code == ErrorCode::kIo;
        return Failure{unreadable ? FailureCode::kUnreadableFile : FailureCode::kCorruptStats,
                       stats.error().message};
      }
      if (const auto d = learn::first_difference(stats->settings, settings)) {
        return Failure{FailureCode::kIncompatibleStats, path + " was made with " + d->name + " '" +
                                                            d->a + "', these options give '" +
                                                            d->b +
                                                            "': give the options it was made with"};
      }
      inputs.push_back(std::move(*stats));
      continue;
    }
    learn::SplitOptions one = split;
    one.first_file_index = index++;
    Expected<learn::StatsEntry> entry = make_error(ErrorCode::kOk, "");
    if (options.range) {
      auto made = learn::DatasetSplit::create(one);
      if (!made) return bad_options(made.error().message);
      entry = read_range(path, *options.range, *made);
    } else {
      entry = read_whole_input(path, one, options);
    }
    if (!entry) {
      return Failure{input_failure_code(entry.error().code), entry.error().message};
    }
    learn::StatsFile& read = inputs.emplace_back();
    read.settings = settings;
    read.entries.push_back(std::move(*entry));
  }
  return std::nullopt;
}

// Writes the file whole; false (errno says why) when it could not.
bool write_file(const std::string& path, const std::string& bytes) {
  std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "wb"));
  if (!file) return false;
  const bool written = std::fwrite(bytes.data(), 1, bytes.size(), file.get()) == bytes.size();
  return std::fclose(file.release()) == 0 && written;
}

// The data options must be those the statistics were made with (the bootstrap and the key
// fields are checked apart), and the target, which a result file does not name, the same.
std::string settings_mismatch(const std::vector<learn::StatsFile>& stats,
                              const std::vector<std::string>& files,
                              const learn::SplitOptions& split) {
  const learn::StatsSettings wanted = learn::stats_settings(split);
  for (std::size_t i = 0; i < stats.size(); ++i) {
    for (const auto& [name, value] : wanted) {
      if (name == "key-fields" || name == "bootstrap" || name == "seed") continue;
      for (const auto& [their_name, their_value] : stats[i].settings) {
        if (their_name != name || their_value == value) continue;
        return files[i] + " was made with " + name + " '" + their_value +
               "', these options give '" + value +
               "': give the options it was made with (or make it again)";
      }
    }
  }
  for (std::size_t i = 0; i < stats.size(); ++i) {
    const learn::Target theirs = learn::target_of(stats[i].settings);
    if (theirs != split.ingest.target) {
      return files[i] + " was made for the " + learn::target_name(theirs) +
             " target, these options fit the " + learn::target_name(split.ingest.target) +
             " target: give --target " + learn::target_name(theirs) + " (or make it again)";
    }
  }
  return "";
}

// What the merged statistics lack for this model and bootstrap, or "".
std::string merged_lacks(const learn::Statistics& merged, const learn::SplitOptions& split,
                         const learn::ModelOptions& model) {
  const std::string missing = merged.pairs.fields().missing_for(model);
  if (!missing.empty()) {
    return "the statistics do not keep " + missing +
           ", which this model reads: make them with the model's options";
  }
  if (split.bootstrap > 0 &&
      (!merged.bootstrap || merged.bootstrap->replicate_count() != split.bootstrap ||
       merged.bootstrap->seed() != split.seed)) {
    return "--bootstrap " + std::to_string(split.bootstrap) + " --seed " +
           std::to_string(split.seed) +
           " needs statistics made with the same replicates and seed (stats --bootstrap " +
           std::to_string(split.bootstrap) + ")";
  }
  return "";
}

}  // namespace

int run_stats(const CliOptions& options, const learn::SplitOptions& split, std::FILE* err) {
  if (const std::string problem = stats_options_problem(options, split); !problem.empty()) {
    return fail(err, bad_options(problem));
  }
  // The inputs checked together as a merge checks them (settings, a file twice, overlapping
  // ranges: gaps may be filled later), then written as one.
  const learn::StatsSettings settings = learn::stats_settings(split);
  std::vector<learn::StatsFile> inputs;
  if (auto failure = read_inputs(options, split, settings, inputs)) {
    return fail(err, *failure);
  }
  if (auto valid = learn::check_stats(inputs, options.files); !valid) {
    return fail(err, Failure{FailureCode::kIncompatibleStats, valid.error().message});
  }
  learn::StatsFile stats;
  stats.settings = settings;
  for (learn::StatsFile& input : inputs) {
    for (learn::StatsEntry& entry : input.entries) stats.entries.push_back(std::move(entry));
  }
  const std::string bytes = learn::encode_stats(stats);
  if (!write_file(options.output, bytes)) {
    return fail(err, Failure{FailureCode::kUnwritableFile,
                             "cannot write " + options.output + ": " + std::strerror(errno)});
  }
  if (options.progress) {
    std::uint64_t games = 0, rows = 0;
    for (const learn::StatsEntry& entry : stats.entries) {
      games += entry.stats.report.games.games_read;
      rows += entry.stats.histogram.totals().total();
    }
    std::fprintf(err, "Wrote %s: %zu input%s, %llu games, %llu rows, %zu bytes\n",
                 options.output.c_str(), stats.entries.size(), stats.entries.size() == 1 ? "" : "s",
                 static_cast<unsigned long long>(games), static_cast<unsigned long long>(rows),
                 bytes.size());
  }
  return 0;
}

LoadedStats load_stats(const std::vector<std::string>& files, const learn::SplitOptions& split,
                       const learn::ModelOptions& model) {
  LoadedStats loaded;
  std::vector<learn::StatsFile> stats;
  for (const std::string& path : files) {
    if (!learn::is_stats_name(path)) {
      loaded.failure = bad_options(path +
                                   ": .mstats inputs are merged alone: make statistics "
                                   "of the other files first (materialist stats)");
      return loaded;
    }
    auto file = read_stats_file(path);
    if (!file) {
      const bool unreadable = file.error().code == ErrorCode::kIo;
      loaded.failure =
          Failure{unreadable ? FailureCode::kUnreadableFile : FailureCode::kCorruptStats,
                  file.error().message};
      return loaded;
    }
    stats.push_back(std::move(*file));
  }
  if (std::string mismatch = settings_mismatch(stats, files, split); !mismatch.empty()) {
    loaded.failure = Failure{FailureCode::kIncompatibleStats, std::move(mismatch)};
    return loaded;
  }
  if (split.bootstrap == 0) {  // the replicates are not read: as if made without them
    for (learn::StatsFile& file : stats) {
      for (auto& [name, value] : file.settings) {
        if (name == "bootstrap" || name == "seed") value = "0";
      }
      for (learn::StatsEntry& entry : file.entries) entry.stats.bootstrap.reset();
    }
  }
  auto merged = learn::merge_stats(stats, files);
  if (!merged) {
    loaded.failure = Failure{FailureCode::kIncompatibleStats, merged.error().message};
    return loaded;
  }
  if (std::string lacks = merged_lacks(*merged, split, model); !lacks.empty()) {
    loaded.failure = Failure{FailureCode::kIncompatibleStats, std::move(lacks)};
    return loaded;
  }
  loaded.stats = std::move(*merged);
  return loaded;
}

}  // namespace materialist::cli
