// `materialist match`: plays value sets against each other and prints the statistics engine
// testers use (see --help); `materialist analyse`: the engine's view of one position;
// `materialist book`: a PGN file's openings in the bundled book's form; `materialist selfplay`:
// learn, play, learn again.
#pragma once

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "play/match.h"

namespace materialist::cli {

int run_match(const std::vector<std::string>& args, std::FILE* out, std::FILE* err);
int run_analyse(const std::vector<std::string>& args, std::FILE* out, std::FILE* err);
int run_book(const std::vector<std::string>& args, std::FILE* out, std::FILE* err);
int run_selfplay(const std::vector<std::string>& args, std::FILE* out, std::FILE* err);
// `materialist uci`: reads UCI commands from `in` until quit or its end.
int run_uci(const std::vector<std::string>& args, std::FILE* in, std::FILE* out, std::FILE* err);

// Plays the match's tasks on `threads` threads (1: this one) until it finishes; `on_pair` runs
// after each result is taken, under the match's lock.
void play_match(play::Match& match, int threads, const std::function<void()>& on_pair);

}  // namespace materialist::cli
