// The structured values of text options ("ELO0,ELO1", "movecount=3,score=600", "START:END"):
// one parser each, used by the option table to refuse a bad value while parsing (cli/arguments.h)
// and by the commands to read a value that was accepted. Messages name no option: the argument
// layer puts the option's name in front ("--sprt: ...").
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "play/game.h"
#include "play/match_stats.h"

namespace materialist::cli {

// stats --range START:END: the bytes asked for (each end moved to the next game start).
struct ByteRange {
  std::uint64_t start = 0;
  std::uint64_t end = 0;
};

// Comma-separated parts, empty ones kept ("a,,b" is three parts).
std::vector<std::string_view> split_commas(std::string_view text);

// "ELO0,ELO1" or "ELO0,ELO1,ALPHA,BETA" (not validated against the bounds' kind: --logistic may
// still change it; see play::validate_sprt).
[[nodiscard]] Expected<play::SprtSettings> parse_sprt_text(std::string_view text);

// "movenumber=40,movecount=8,score=10" (draw) or "movecount=3,score=600" (resign) over `rules`.
[[nodiscard]] Expected<play::Adjudication> parse_draw_rule(std::string_view text,
                                                           play::Adjudication rules);
[[nodiscard]] Expected<play::Adjudication> parse_resign_rule(std::string_view text,
                                                             play::Adjudication rules);

// Exactly `n` comma-separated game counts, each from 0 to play::kMaxGames.
[[nodiscard]] Expected<std::vector<std::uint64_t>> parse_counts(std::string_view text,
                                                                std::size_t n);

// "START:END", byte offsets with START < END.
[[nodiscard]] Expected<ByteRange> parse_byte_range(std::string_view text);

// "result,eval" or "eval,result": both targets, each once, in the order given.
[[nodiscard]] Expected<std::vector<std::string>> parse_target_pair(std::string_view text);

}  // namespace materialist::cli
