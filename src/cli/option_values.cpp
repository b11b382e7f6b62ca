#include "cli/option_values.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "cli/argument_error.h"
#include "core/enum_names.h"
#include "core/text.h"
#include "learn/vocabulary/eval_target.h"

namespace materialist::cli {

namespace {

// KEY=N pairs, each key one of `keys`, handed to `set`.
template <typename Set>
std::optional<Error> read_key_numbers(std::string_view text,
                                      std::initializer_list<std::string_view> keys, Set set) {
  for (const std::string_view part : split_commas(text)) {
    const std::size_t equals = part.find('=');
    const std::string_view key = trim(part.substr(0, equals));
    const auto number = equals == std::string_view::npos
                            ? std::nullopt
                            : parse_int(trim(part.substr(equals + 1)), 0, 1000000);
    if (!number) return bad_argument("expects KEY=N, comma-separated, got " + quoted(text));
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
      std::string names;
      for (const std::string_view name : keys)
        names += (names.empty() ? "" : ", ") + std::string(name);
      return bad_argument("unknown key " + quoted(key) + " (" + names + ")");
    }
    set(key, *number);
  }
  return std::nullopt;
}

}  // namespace

std::vector<std::string_view> split_commas(std::string_view text) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t at = text.find(',', start);
    parts.push_back(text.substr(start, at == std::string_view::npos ? at : at - start));
    if (at == std::string_view::npos) return parts;
    start = at + 1;
  }
}

Expected<play::SprtSettings> parse_sprt_text(std::string_view text) {
  const auto parts = split_commas(text);
  if (parts.size() != 2 && parts.size() != 4) {
    return bad_argument("expects ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA, got " + quoted(text));
  }
  std::vector<double> numbers;
  for (const std::string_view part : parts) {
    const auto number = parse_real(part);
    if (!number) return bad_argument(quoted(part) + " in " + quoted(text) + " is not a number");
    numbers.push_back(*number);
  }
  play::SprtSettings sprt;
  sprt.elo0 = numbers[0];
  sprt.elo1 = numbers[1];
  if (numbers.size() == 4) {
    sprt.alpha = numbers[2];
    sprt.beta = numbers[3];
  }
  return sprt;
}

Expected<play::Adjudication> parse_draw_rule(std::string_view text, play::Adjudication rules) {
  const auto error = read_key_numbers(text, {"movenumber", "movecount", "score"},
                                      [&](std::string_view key, int value) {
                                        (key == "movenumber"  ? rules.draw_move_number
                                         : key == "movecount" ? rules.draw_move_count
                                                              : rules.draw_score) = value;
                                      });
  if (error) return *error;
  rules.draw = true;
  return rules;
}

Expected<play::Adjudication> parse_resign_rule(std::string_view text, play::Adjudication rules) {
  const auto error =
      read_key_numbers(text, {"movecount", "score"}, [&](std::string_view key, int value) {
        (key == "movecount" ? rules.resign_move_count : rules.resign_score) = value;
      });
  if (error) return *error;
  rules.resign = true;
  return rules;
}

Expected<std::vector<std::uint64_t>> parse_counts(std::string_view text, std::size_t n) {
  const auto parts = split_commas(text);
  if (parts.size() != n) {
    return bad_argument("expects " + std::to_string(n) + " comma-separated counts, got " +
                        quoted(text));
  }
  std::vector<std::uint64_t> counts;
  for (const std::string_view part : parts) {
    const auto value = parse_integer(trim(part), 0, static_cast<std::int64_t>(play::kMaxGames));
    if (!value) return bad_argument("expects whole numbers from 0 to 2^52, got " + quoted(text));
    counts.push_back(static_cast<std::uint64_t>(*value));
  }
  return counts;
}

Expected<ByteRange> parse_byte_range(std::string_view text) {
  const std::size_t colon = text.find(':');
  const auto start = parse_integer(text.substr(0, colon), 0);
  std::optional<std::int64_t> end;
  if (colon != std::string_view::npos) end = parse_integer(text.substr(colon + 1), 0);
  if (!start || !end || *start >= *end) {
    return bad_argument("expects START:END, byte offsets with START < END, got " + quoted(text));
  }
  return ByteRange{static_cast<std::uint64_t>(*start), static_cast<std::uint64_t>(*end)};
}

Expected<std::vector<std::string>> parse_target_pair(std::string_view text) {
  std::vector<std::string> names;
  for (const std::string_view part : split_commas(text)) {
    if (!value_named<int>(learn::kTargetNames, part)) {
      return bad_argument("expects " + listed(learn::kTargetNames) + ", comma-separated, got " +
                          quoted(text));
    }
    if (std::find(names.begin(), names.end(), part) != names.end()) {
      return bad_argument(std::string(part) + " twice");
    }
    names.emplace_back(part);
  }
  if (names.size() != 2) return bad_argument("needs both targets: result,eval (or eval,result)");
  return names;
}

}  // namespace materialist::cli
