// Played games as PGN that `materialist fit` reads back: the sets' names as players, their
// values in WhiteValues / BlackValues tags, one Round per game pair, the book's start (a FEN tag
// when it is not the standard position), each engine move's search score as a lichess-style
// [%eval] comment from White's side, and the end's reason in the Termination tag and a last
// comment.
#pragma once

#include <string>
#include <string_view>

#include "play/game.h"

namespace materialist::play {

struct PgnHeader {
  std::string event = "Materialist match";
  std::string round;  // "12": the game pair's number
};

std::string game_pgn(const GameRecord& game, const PgnHeader& header);

// "1-0", "0-1", "1/2-1/2".
const char* result_text(learn::Outcome outcome);

// The [%eval] text of a score the mover gave after its move: pawns from White's side
// ("0.35", "-1.20") or a mate ("#3" White mates in 3, "#-2" Black mates in 2); "" after a move
// that mated.
std::string eval_annotation(int mover_score, chess::Color mover);

}  // namespace materialist::play
