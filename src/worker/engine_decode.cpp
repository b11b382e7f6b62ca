// Parallel reads beyond plain byte ranges (web/parallel-read.js): live estimates while readers
// work, and the import of compressed files a worker::ChunkDecoder cut at game starts.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "learn/filter/game_filter.h"
#include "worker/engine.h"

namespace materialist::worker {

// ---- live estimates of parallel reads ----

Part Engine::export_live_part(bool with_squares) const {
  if (!pending_ || pending_->ended) return Part{};
  const learn::DatasetBuilder& merged = pending_->split->merged();
  Part part = part_of(merged.live_histogram(), *merged.pairs(), merged.live_report().games);
  part.games.issues.clear();  // an estimate needs counts, not the list
  if (with_squares && pending_->squares) {
    const learn::SquaresData sample = pending_->squares->sample(kLiveSquaresRows);
    part.has_squares = true;
    part.squares_rows = sample.rows();
    part.squares_tally = sample.tally();
  }
  return part;
}

std::string Engine::fit_squares_live(const std::vector<Part>& parts, const FitSettings& settings) {
  if (!pending_ || pending_->ended || !pending_->squares) return {};
  // Read or imported here, and the readers' samples: one sample, as absorb keeps it.
  learn::SquaresData data = pending_->squares->sample(kLiveSquaresRows);
  for (const Part& part : parts) {
    if (part.has_squares) data.absorb(part.squares_rows, part.squares_tally);
  }
  return squares_.fit_live(data, pending_->options.target, settings);
}

protocol::Estimate Engine::estimate_with(const std::vector<Part>& parts,
                                         const FitSettings& settings) const {
  if (!pending_ || pending_->ended || !pending_->split->subsets().empty()) {
    return estimate(settings);
  }
  // Read here (live), imported (ended files and the one being imported), and the readers' shares.
  const learn::DatasetBuilder& merged = pending_->split->merged();
  learn::Histogram histogram = merged.live_histogram();
  histogram.merge(pending_->histogram);
  learn::GamePairs pairs = *merged.pairs();
  pairs.merge(pending_->pairs);
  pairs.merge(import_.pairs());
  learn::DatasetReport report = merged.live_report();
  learn::merge_ingest_reports(report.games, pending_->report.games, 0);
  learn::merge_ingest_reports(report.games, import_.report(), 0);
  report.rows += pending_->report.rows + import_.report().rows;
  report.bytes += pending_->report.bytes;
  for (const Part& part : parts) {
    for (std::size_t i = 0; i < part.keys.size(); ++i) {
      histogram.add(learn::RowKey::unpack(part.keys[i]), part.counts[i]);
    }
    for (std::size_t i = 0; i < part.pair_a.size(); ++i) {
      pairs.add(part.pair_a[i], part.pair_b[i], part.pair_counts[i]);
    }
    pairs.add_games(part.pair_games, part.pair_rated_games);
    learn::merge_ingest_reports(report.games, part.games, 0);
    report.rows += part.games.rows;
  }

  protocol::Estimate out;
  out.games = report.games.games_read;
  out.rows = report.rows;
  out.bytes = static_cast<double>(report.bytes);
  if (histogram.totals().total() == 0) return out;
  const std::size_t files = pending_->report.files.size() + report.files.size();
  const std::string name = files == 0 ? (import_.name().empty() ? file_.name() : import_.name())
                                      : std::string("all files");
  const FitTarget target{name, &histogram, &pairs, nullptr, &report};
  const Expected<learn::ModelFit> fit =
      learn::fit_model(histogram, settings.model_options(pending_->options.target), &pairs);
  out.fits.push_back(Exporter::describe(target, fit ? &*fit : nullptr, nullptr, "",
                                        fit ? std::string() : fit.error().message,
                                        learn::player_view(pending_->options.filter)));
  return out;
}

// ---- files decoded by a ChunkDecoder, imported in order ----

void Engine::end_decoded_entry(const std::string& entry, std::uint64_t bytes) {
  if (pending_) import_.end_entry(*pending_, entry, bytes);
}

std::optional<FileError> Engine::end_decoded(std::uint64_t bytes, std::size_t entries,
                                             std::optional<Error> problem, bool zip) {
  if (!pending_) return std::nullopt;
  const std::vector<learn::FileReport>& files = pending_->report.files;
  const std::optional<FileError> error =
      source_file_error(std::move(problem), bytes, import_.name(), zip, files,
                        files.size() - std::min(entries, files.size()));
  if (error) pending_->file_errors.push_back(import_.name() + ": " + error->error.message);
  pending_->digests.push_back({import_.name(), bytes, ""});
  return error;
}

}  // namespace materialist::worker
