// --lichess NAME / --chesscom NAME: a player's games as inputs. lichess's export of a user's
// games is one address (its filters in the query); chess.com's monthly archives are listed
// first, then read newest month first. The addresses' bases come from the environment
// (MATERIALIST_LICHESS_URL, MATERIALIST_CHESSCOM_URL: tests point them at a local stand-in).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "cli/options.h"
#include "core/error.h"

namespace materialist::cli {

inline constexpr const char* kLichessBase = "https://lichess.org";
inline constexpr const char* kChesscomBase = "https://api.chess.com";

// The environment variable's value when set and not empty, else `fallback`; no trailing '/'.
std::string service_base(const char* variable, const char* fallback);

// lichess's export of options.lichess's games with the speed, rated, days and max-games.
Expected<std::string> lichess_export_url(const std::string& base, const CliOptions& options);

// The months' PGN addresses ("<month>/pgn") of chess.com's archive list (JSON), newest first,
// within the months of `since` and `until` (YYYY-MM-DD, either empty). An empty list is
// kUnknownUser (chess.com lists no archive for a player without games).
Expected<std::vector<std::string>> chesscom_month_urls(std::string_view archives_json,
                                                       const std::string& user,
                                                       const std::string& since,
                                                       const std::string& until);

// The options with the player's addresses added to the inputs (chess.com's list is fetched)
// and, unless --both-sides, the filter turned to the player's side (player=NAME;pov=1).
Expected<CliOptions> with_player_inputs(CliOptions options);

}  // namespace materialist::cli
