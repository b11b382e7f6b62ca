// Fuzz properties of the text formats: the game filter, the share link's settings and `.mat`
// import (fuzz_checks.h).
#include <cmath>
#include <string>

#include "fuzz_checks.h"
#include "learn/filter/game_filter.h"
#include "learn/stats/histogram.h"
#include "learn/stats/mat_io.h"
#include "learn/vocabulary/eval_target.h"
#include "protocol/codec.h"

namespace materialist::fuzz {

namespace {

std::string mat_summary(const learn::MatReadReport& r) {
  std::string text = "bytes=" + std::to_string(r.bytes) + " lines=" + std::to_string(r.lines) +
                     " rows=" + std::to_string(r.rows) + " bad=" + std::to_string(r.bad_lines);
  for (const learn::MatBadLine& bad : r.first_bad_lines)
    text += " [" + std::to_string(bad.line) + " " + bad.reason + "]";
  return text;
}

}  // namespace

// Input: a filter text; after a newline, a second filter layered on it (combine_game_filters).
Failure check_filter_text(std::string_view input) {
  const std::size_t newline = input.find('\n');
  const std::string_view text = input.substr(0, newline);
  const Expected<learn::GameFilterOptions> options = learn::parse_game_filter(text);
  if (learn::player_view(text) != (options && learn::player_view(*options)))
    return std::string("player_view of the text and of its options differ");
  if (options) {
    const std::string formatted = learn::format_game_filter(*options);
    const Expected<learn::GameFilterOptions> again = learn::parse_game_filter(formatted);
    if (!again) return "'" + formatted + "' does not parse: " + again.error().message;
    if (!(*again == *options)) return "'" + formatted + "' parses to other options";
    if (learn::format_game_filter(*again) != formatted)
      return "'" + formatted + "' formats back differently";
  }
  if (newline != std::string_view::npos) {
    const std::string_view layer = input.substr(newline + 1);
    const std::string combined = learn::combine_game_filters(text, layer);
    // Two filters that parse combine into one that parses.
    if (options && learn::parse_game_filter(layer) && !learn::parse_game_filter(combined))
      return "combined '" + combined + "' does not parse";
  }
  return std::nullopt;
}

Failure check_settings(std::string_view input) {
  const Expected<protocol::Settings> settings = protocol::decode<protocol::Settings>(input);
  if (!settings) return std::nullopt;
  const std::string json = protocol::encode(*settings);
  const Expected<protocol::Settings> again = protocol::decode<protocol::Settings>(json);
  if (!again) return "'" + json + "' does not decode: " + again.error().message;
  const std::string json_again = protocol::encode(*again);
  if (json_again != json) return "'" + json + "' re-encodes as '" + json_again + "'";
  // The settings message carries the same settings.
  const Expected<JsonValue> message = parse_json(protocol::message(*settings));
  if (!message || protocol::message_type(*message) != "settings")
    return std::string("the settings message does not parse or has another type");
  return std::nullopt;
}

Failure check_mat_import(std::string_view input) {
  learn::Histogram whole_rows;
  learn::MatReader whole(whole_rows, 8);
  whole.feed(input.data(), input.size());
  whole.finish();
  learn::Histogram chunked_rows;
  learn::MatReader chunked(chunked_rows, 8);
  Chunking chunking(input);
  feed_in_chunks(input, chunking,
                 [&](const char* data, std::size_t size) { chunked.feed(data, size); });
  chunked.finish();

  const learn::MatReadReport& r = whole.report();
  if (mat_summary(r) != mat_summary(chunked.report()))
    return "whole '" + mat_summary(r) + "' vs chunked '" + mat_summary(chunked.report()) + "'";
  if (!(whole_rows == chunked_rows)) return std::string("histograms differ");
  if (r.rows + r.bad_lines > r.lines) return "rows + bad lines > lines: " + mat_summary(r);
  if (r.rows != whole_rows.totals().total()) return "rows != histogram rows: " + mat_summary(r);
  if (r.bytes != input.size()) return "bytes != input size: " + mat_summary(r);
  return std::nullopt;
}

Failure check_eval_comment(std::string_view input) {
  const learn::EvalReading r = learn::read_eval_comment(input);
  std::size_t commands = 0;
  for (std::size_t at = input.find("[%eval"); at != std::string_view::npos;
       at = input.find("[%eval", at + 1)) {
    ++commands;
  }
  if (static_cast<std::size_t>(r.malformed) > commands)
    return std::string("more malformed [%eval] than commands");
  if ((r.status == learn::EvalStatus::kNone) !=
      (commands == 0 || (r.malformed == 0 && r.status != learn::EvalStatus::kValid)))
    return std::string("status kNone with [%eval] commands read");
  if (r.status == learn::EvalStatus::kMalformed && r.malformed == 0)
    return std::string("malformed without a malformed command");
  if (r.status == learn::EvalStatus::kValid) {
    if (!(r.score >= 0.0 && r.score <= 1.0)) return "score " + std::to_string(r.score);
    if (r.mate != 0 && r.score != (r.mate > 0 ? 1.0 : 0.0)) return std::string("a mate's score");
    if (r.mate == 0 && !(std::fabs(r.centipawns) < 1e8)) return std::string("centipawns");
    // Other commands around it do not change what is read.
    const learn::EvalReading wrapped =
        learn::read_eval_comment("[%clk 0:01:00] " + std::string(input) + " [%emt 0:00:01]");
    if (wrapped.status != r.status || wrapped.score != r.score || wrapped.mate != r.mate)
      return std::string("a [%clk] before and [%emt] after change the reading");
    if (learn::target_units(r.score) > learn::kTargetOne) return std::string("target units");
  }
  return std::nullopt;
}

}  // namespace materialist::fuzz
