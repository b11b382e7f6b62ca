// The rules of the option table's text values (cli/option_table.h): each returns the reason a
// value is refused, or nothing. The argument layer names the option in front of the reason.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace materialist::cli {

std::optional<std::string> check_game_filter(std::string_view value);
std::optional<std::string> check_band_spec(std::string_view value);
std::optional<std::string> check_target_pair(std::string_view value);
std::optional<std::string> check_imbalance_list(std::string_view value);
std::optional<std::string> check_byte_range(std::string_view value);
std::optional<std::string> check_fen(std::string_view value);
std::optional<std::string> check_draw_rule(std::string_view value);
std::optional<std::string> check_resign_rule(std::string_view value);
std::optional<std::string> check_sprt(std::string_view value);
std::optional<std::string> check_penta(std::string_view value);
std::optional<std::string> check_wdl(std::string_view value);
std::optional<std::string> check_pair(std::string_view value);
std::optional<std::string> check_pair_penta(std::string_view value);

}  // namespace materialist::cli
