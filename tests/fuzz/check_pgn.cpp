// The PGN parser's and the ingest's fuzz properties (fuzz_checks.h).
#include <string>
#include <vector>

#include "fuzz_checks.h"
#include "learn/read/ingest.h"
#include "pgn/parser.h"
#include "pgn/recorder.h"

namespace materialist::fuzz {

namespace {

std::uint64_t hash_of(std::string_view input) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : input) h = (h ^ c) * 1099511628211ull;
  return h;
}

// Small limits half the time, so the limit paths (token length, nesting, plies, tags, errors
// kept) are reached by short inputs too.
pgn::ParserOptions parser_options(std::uint64_t hash) {
  pgn::ParserOptions options;
  options.comments = (hash & 1) != 0;
  if ((hash & 2) != 0) {
    options.max_token_length = 8;
    options.max_tag_value_length = 8;
    options.max_comment_length = 8;
    options.max_variation_depth = 3;
    options.max_plies = 6;
    options.max_tags = 3;
    options.max_errors_kept = 2;
  }
  return options;
}

std::string first_difference(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  for (std::size_t i = 0; i < a.size() || i < b.size(); ++i) {
    const std::string x = i < a.size() ? a[i] : "<none>";
    const std::string y = i < b.size() ? b[i] : "<none>";
    if (x != y) return "event " + std::to_string(i) + ": whole '" + x + "', chunked '" + y + "'";
  }
  return {};
}

// The report's figures as text, for comparing two reads and naming what differs.
std::string summary(const learn::IngestReport& r) {
  std::string text =
      "bytes=" + std::to_string(r.bytes) + " read=" + std::to_string(r.games_read) +
      " used=" + std::to_string(r.games_used) + " partial=" + std::to_string(r.games_partial) +
      " skipped=" + std::to_string(r.games_skipped) +
      " filtered=" + std::to_string(r.games_filtered) + " issues=" + std::to_string(r.issue_count) +
      " rows=" + std::to_string(r.rows) + " plies=" + std::to_string(r.plies_replayed);
  for (const learn::GameIssue& issue : r.issues) {
    text += " [" + std::to_string(issue.game) + ":" + std::to_string(issue.line) + " " +
            learn::game_status_name(issue.status) + " " + learn::issue_reason_name(issue.reason) +
            " " + issue.detail + " kept=" + std::to_string(issue.rows_kept) + "]";
  }
  return text;
}

}  // namespace

Chunking::Chunking(std::string_view input) : state_(hash_of(input)) {}

std::size_t Chunking::next(std::size_t remaining) {
  // splitmix64
  state_ += 0x9e3779b97f4a7c15ull;
  std::uint64_t z = state_;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  const std::size_t size = (z & 7) == 0 ? 1 + (z >> 8) % 4096 : 1 + (z >> 8) % 16;
  return size < remaining ? size : remaining;
}

Failure check_pgn_chunking(std::string_view input) {
  const pgn::ParserOptions options = parser_options(hash_of(input));
  pgn::testing::Recorder whole;
  pgn::Parser whole_parser(whole, options);
  whole_parser.feed(input.data(), input.size());
  whole_parser.finish();

  pgn::testing::Recorder chunked;
  pgn::Parser chunked_parser(chunked, options);
  Chunking chunking(input);
  feed_in_chunks(input, chunking,
                 [&](const char* data, std::size_t size) { chunked_parser.feed(data, size); });
  chunked_parser.finish();

  if (whole.events != chunked.events) return first_difference(whole.events, chunked.events);
  if (whole_parser.games() != whole.games()) return std::string("games() differs from end_game");
  for (const pgn::GameEnd& end : whole.ends) {
    if (end.errors.size() > options.max_errors_kept || end.errors.size() > end.error_count)
      return std::string("more errors kept than allowed or counted");
    if (end.plies > options.max_plies) return std::string("more plies than max_plies");
    if (end.start.offset > end.end.offset || end.end.offset > input.size())
      return std::string("a game's locations are out of order or past the input");
  }
  return std::nullopt;
}

Failure check_ingest(std::string_view input) {
  const std::uint64_t hash = hash_of(input);
  learn::IngestOptions options =
      (hash & 4) != 0 ? learn::IngestOptions::article() : learn::IngestOptions::defaults();
  options.parser = parser_options(hash);
  options.stop_at_missing_move = (hash & 8) != 0;
  options.max_reported_issues = 64;

  learn::Ingestor whole(options);
  whole.feed(input.data(), input.size());
  whole.finish();
  learn::Ingestor chunked(options);
  Chunking chunking(input);
  feed_in_chunks(input, chunking,
                 [&](const char* data, std::size_t size) { chunked.feed(data, size); });
  chunked.finish();

  const learn::IngestReport& r = whole.report();
  if (summary(r) != summary(chunked.report()))
    return "whole '" + summary(r) + "' vs chunked '" + summary(chunked.report()) + "'";
  if (!(whole.histogram() == chunked.histogram())) return std::string("histograms differ");
  if (r.games_read != r.games_used + r.games_partial + r.games_skipped + r.games_filtered)
    return "games read != used + partial + skipped + filtered: " + summary(r);
  if (r.issue_count != r.games_partial + r.games_skipped)
    return "issues != partial + skipped: " + summary(r);
  std::uint64_t skipped = 0, partial = 0;
  for (int i = 0; i < learn::kIssueReasonCount; ++i) {
    skipped += r.skipped_by_reason[i];
    partial += r.partial_by_reason[i];
  }
  if (skipped != r.games_skipped || partial != r.games_partial)
    return "reasons do not add up to skipped and partial games: " + summary(r);
  std::uint64_t filtered = 0;
  for (std::uint64_t count : r.filter_tally.counts) filtered += count;
  if (filtered != r.games_filtered + r.filter_tally.kept() ||
      r.filter_tally.removed() != r.games_filtered)
    return "filter tally does not add up: " + summary(r);
  if (r.issues.size() != std::min<std::uint64_t>(r.issue_count, options.max_reported_issues))
    return "issues listed != min(issue_count, max_reported_issues): " + summary(r);
  for (const learn::GameIssue& issue : r.issues) {
    if (issue.status == learn::GameStatus::kPartial && issue.rows_kept == 0)
      return "a partial game kept no rows: " + summary(r);
    if (issue.status == learn::GameStatus::kSkipped && issue.rows_kept != 0)
      return "a skipped game kept rows: " + summary(r);
    if (issue.game == 0 || issue.game > r.games_read)
      return "an issue's game number: " + summary(r);
  }
  if (r.rows != r.rows_by_outcome.total() || r.rows != whole.histogram().totals().total())
    return "rows do not add up: " + summary(r);
  return std::nullopt;
}

Failure check_ingest_eval(std::string_view input) {
  const std::uint64_t hash = hash_of(input);
  learn::IngestOptions options =
      (hash & 4) != 0 ? learn::IngestOptions::article() : learn::IngestOptions::defaults();
  options.parser = parser_options(hash);
  options.max_reported_issues = 64;
  learn::Ingestor result(options);
  result.feed(input.data(), input.size());
  result.finish();
  options.target = learn::Target::kEval;
  learn::Ingestor whole(options);
  whole.feed(input.data(), input.size());
  whole.finish();
  learn::Ingestor chunked(options);
  Chunking chunking(input);
  feed_in_chunks(input, chunking,
                 [&](const char* data, std::size_t size) { chunked.feed(data, size); });
  chunked.finish();

  const learn::IngestReport& r = whole.report();
  const learn::IngestReport& c = chunked.report();
  const auto evals = [](const learn::IngestReport& x) {
    return summary(x) + " without=" + std::to_string(x.rows_without_eval) +
           " games+=" + std::to_string(x.games_with_evals) +
           " games-=" + std::to_string(x.games_without_evals) +
           " malformed=" + std::to_string(x.malformed_evals);
  };
  if (evals(r) != evals(c)) return "whole '" + evals(r) + "' vs chunked '" + evals(c) + "'";
  if (!(whole.histogram() == chunked.histogram())) return std::string("histograms differ");
  if (!whole.histogram().has_targets()) return std::string("the histogram has no targets");
  // The same games and positions as the result target; the annotated ones are a part of them.
  const learn::IngestReport& all = result.report();
  if (r.games_used != all.games_used || r.games_partial != all.games_partial ||
      r.plies_replayed != all.plies_replayed)
    return "the games differ from the result target's: " + evals(r) + " vs " + summary(all);
  if (r.rows + r.rows_without_eval != all.rows)
    return "annotated + unannotated rows != the result target's rows: " + evals(r);
  if (r.games_with_evals + r.games_without_evals != r.games_used + r.games_partial)
    return "games with and without evaluations != used + partial: " + evals(r);
  if (r.rows != whole.histogram().totals().total()) return "rows do not add up: " + evals(r);
  learn::TargetSum total = 0;
  std::string failure;
  whole.histogram().for_each_target(
      [&](const learn::RowKey& key, const learn::OutcomeCounts& counts, learn::TargetSum target) {
        total += target;
        if (target > static_cast<learn::TargetSum>(counts.total()) * learn::kTargetOne)
          failure = "a key's targets exceed its rows";
        const learn::OutcomeCounts* any = result.histogram().find(key);
        for (int o = 0; o < learn::kOutcomeCount && failure.empty(); ++o) {
          if (counts.by_outcome[o] > (any ? any->by_outcome[o] : 0))
            failure = "an annotated key the result target does not have";
        }
      });
  if (!failure.empty()) return failure;
  if (total != whole.histogram().target_total()) return std::string("target total differs");
  return std::nullopt;
}

}  // namespace materialist::fuzz
