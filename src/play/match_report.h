// A match's reports, shared by the CLI (`materialist match --json`, `--pgn`) and the canvas app's
// play-test exports, so that both give the same statistics for the same seed and settings.
#pragma once

#include <cstddef>
#include <string>

#include "core/json.h"
#include "play/match.h"

namespace materialist::play {

// The match's statistics as one JSON object (no newline): sets, schedule, pairsPerPairing,
// limits, materialOnly, adjudication, seed, book {source, openings}, gamesPlayed, nodes,
// seconds, terminations, and for one pairing its first/second, estimate fields
// (write_estimate_fields, with the SPRT) and `verdict` {kind, text} (pairing_verdict), for
// several `matches` (each with its verdict) and `ratings`. `cancelled`: the match was stopped
// before its end (the verdicts say so).
std::string match_json(const Match& match, std::size_t book_size, const std::string& book_source,
                       double seconds, bool cancelled = false);

// Writes limits, materialOnly and adjudication into an open object.
void write_limits_json(JsonWriter& json, const GameSettings& game);

// The match's kept games as PGN, in task order: one Round per game pair.
std::string match_pgn(const Match& match);

// The bundled book's description in match_json.
inline constexpr const char* kDefaultBookSource = "bundled sample (OpenRating.pgn, 8 plies)";

}  // namespace materialist::play
