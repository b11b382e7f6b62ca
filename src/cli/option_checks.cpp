#include "cli/option_checks.h"

#include "chess/position.h"
#include "cli/option_values.h"
#include "learn/filter/bands.h"
#include "learn/filter/game_filter.h"
#include "learn/vocabulary/imbalance.h"

namespace materialist::cli {

namespace {

// The reason in a parser's error, or nothing when it parsed.
template <typename T>
std::optional<std::string> reason_of(const Expected<T>& parsed) {
  if (parsed) return std::nullopt;
  return parsed.error().message;
}

// A table result: I,J then `counts` counts, each set index below 1000.
std::optional<std::string> check_table_result(std::string_view value, std::size_t counts) {
  const auto parsed = parse_counts(value, counts + 2);
  if (!parsed) return parsed.error().message;
  if ((*parsed)[0] >= 1000 || (*parsed)[1] >= 1000) return "set indices go up to 999";
  return std::nullopt;
}

}  // namespace

std::optional<std::string> check_game_filter(std::string_view value) {
  return reason_of(learn::parse_game_filter(value));
}
std::optional<std::string> check_band_spec(std::string_view value) {
  return reason_of(learn::parse_band_spec(value));
}
std::optional<std::string> check_target_pair(std::string_view value) {
  return reason_of(parse_target_pair(value));
}
std::optional<std::string> check_imbalance_list(std::string_view value) {
  return reason_of(learn::parse_imbalance_list(value));
}
std::optional<std::string> check_byte_range(std::string_view value) {
  return reason_of(parse_byte_range(value));
}
std::optional<std::string> check_fen(std::string_view value) {
  return reason_of(chess::Position::from_fen(std::string(value)));
}
std::optional<std::string> check_draw_rule(std::string_view value) {
  return reason_of(parse_draw_rule(value, {}));
}
std::optional<std::string> check_resign_rule(std::string_view value) {
  return reason_of(parse_resign_rule(value, {}));
}
std::optional<std::string> check_sprt(std::string_view value) {
  return reason_of(parse_sprt_text(value));
}
std::optional<std::string> check_penta(std::string_view value) {
  return reason_of(parse_counts(value, 5));
}
std::optional<std::string> check_wdl(std::string_view value) {
  return reason_of(parse_counts(value, 3));
}
std::optional<std::string> check_pair(std::string_view value) {
  return check_table_result(value, 3);
}
std::optional<std::string> check_pair_penta(std::string_view value) {
  return check_table_result(value, 5);
}

}  // namespace materialist::cli
