// Statistics files in the browser (docs/MSTATS.md): dropped or linked .mstats files become the
// current data at once, with the data settings they were made with, and are fitted as a read is.
#include "worker/engine.h"

namespace materialist::worker {

namespace {

// The read options a statistics file's settings stand for (learn::read_request_of).
ReadOptions read_options_of(const learn::StatsSettings& settings) {
  const learn::ReadRequest request = learn::read_request_of(settings);
  ReadOptions options;
  options.unknown = request.unknown;
  options.filter = request.filter;
  options.quiet = request.quiet;
  options.bootstrap = request.bootstrap;
  options.seed = request.seed == 0 ? 1 : request.seed;  // the page's seeds start at 1
  options.keep = request.keep;
  options.target = request.target;  // version 2 files: the evaluation target
  return options;
}

}  // namespace

std::optional<Error> Engine::add_stats(const std::string& name, const char* data,
                                       std::size_t size) {
  auto file = learn::decode_stats(std::string_view(data, size));
  if (!file) {
    stats_files_.clear();  // the files added with it are not merged without it
    stats_names_.clear();
    return Error{file.error().code, name + ": " + file.error().message};
  }
  stats_files_.push_back(std::move(*file));
  stats_names_.push_back(name);
  return std::nullopt;
}

std::optional<Error> Engine::end_stats() {
  std::vector<learn::StatsFile> files = std::move(stats_files_);
  std::vector<std::string> names = std::move(stats_names_);
  stats_files_.clear();
  stats_names_.clear();
  auto merged = learn::merge_stats(files, names);
  if (!merged) return merged.error();
  const ReadOptions options = read_options_of(files.front().settings);
  if (std::optional<Error> refused = begin_read(options)) return refused;
  stats_options_ = options;
  Dataset& data = *pending_;
  data.histogram = std::move(merged->histogram);
  data.pairs = std::move(merged->pairs);
  data.bootstrap = std::move(merged->bootstrap);
  data.report = std::move(merged->report);
  for (const learn::StatsFile& file : files) {
    for (const learn::StatsEntry& entry : file.entries) {
      data.digests.push_back({entry.name, entry.end - entry.start, entry.sha256});
    }
  }
  const std::string source =
      names.size() == 1 ? names.front() : std::to_string(names.size()) + " statistics files";
  data.stats_source = source;
  for (const learn::GameIssue& issue : data.report.games.issues) {
    if (data.issues.size() >= kMaxListedIssues) break;
    data.issues.push_back({source, issue});
  }
  for (const learn::FileReport& file : data.report.files) {
    if (!file.error.empty()) data.file_errors.push_back(file.name + ": " + file.error);
  }
  data.ended = true;
  return std::nullopt;
}

}  // namespace materialist::worker
