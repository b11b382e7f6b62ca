// Test helpers for the PGN parser: a visitor that writes every event as one line of text, and a
// driver that feeds a text in chunks of a given size.
#pragma once

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "pgn/parser.h"

namespace materialist::pgn::testing {

// A small deterministic generator (no global state, same numbers on every platform).
struct Lcg {
  std::uint64_t state;
  std::uint32_t next() {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<std::uint32_t>(state >> 33);
  }
  std::size_t below(std::size_t n) { return n == 0 ? 0 : next() % n; }
};

inline std::string where(Location location) {
  return std::to_string(location.line) + ":" + std::to_string(location.offset);
}

// Records events as text ("move e4 3:120"); optionally only counts them, for big inputs.
class Recorder : public Visitor {
 public:
  std::vector<std::string> events;
  std::vector<GameEnd> ends;                       // a copy of every GameEnd
  std::uint64_t digest = 14695981039346656037ull;  // FNV-1a over all event lines
  std::uint64_t moves = 0;
  std::uint64_t missing = 0;
  bool keep_events = true;
  Action begin_moves_action = Action::kContinue;
  std::uint32_t skip_after_moves = 0;  // > 0: return kSkipGame from that move on

  void begin_game(Location start) override {
    moves_this_game_ = 0;
    add("begin " + where(start));
  }
  void tag(std::string_view name, std::string_view value) override {
    add("tag " + std::string(name) + "=" + std::string(value));
  }
  Action begin_moves() override {
    add("moves");
    return begin_moves_action;
  }
  Action move(std::string_view san, Location location) override {
    ++moves;
    ++moves_this_game_;
    add("move " + std::string(san) + " " + where(location));
    return skip_after_moves > 0 && moves_this_game_ >= skip_after_moves ? Action::kSkipGame
                                                                        : Action::kContinue;
  }
  void missing_move(Location location) override {
    ++missing;
    add("missing " + where(location));
  }
  void comment(std::string_view text, Location location) override {
    add("comment " + std::string(text) + " " + where(location));
  }
  void end_game(const GameEnd& end) override {
    ends.push_back(end);
    std::string line =
        "end '" + std::string(end.result) + "' " + where(end.start) + "-" + where(end.end) +
        " plies=" + std::to_string(end.plies) + " missing=" + std::to_string(end.missing_moves) +
        (end.truncated ? " truncated" : "") + (end.ply_limit_reached ? " ply-limit" : "") +
        (end.skipped ? " skipped" : "") + " errors=" + std::to_string(end.error_count);
    for (const GameError& error : end.errors) {
      line += std::string(" [") + error_code_name(error.code) + " " + where(error.location) + " " +
              error.message + "]";
    }
    add(line);
  }

  std::size_t games() const { return ends.size(); }
  // The i-th GameEnd, or an empty one: a failed REQUIRE does not leave the test without
  // exceptions, so tests index through this instead of ends[i].
  const GameEnd& end(std::size_t i) const { return i < ends.size() ? ends[i] : none_; }
  std::string event(std::size_t i) const { return i < events.size() ? events[i] : "<none>"; }

 private:
  void add(std::string line) {
    for (unsigned char c : line) digest = (digest ^ c) * 1099511628211ull;
    digest = (digest ^ '\n') * 1099511628211ull;
    if (keep_events) events.push_back(std::move(line));
  }
  std::uint32_t moves_this_game_ = 0;
  GameEnd none_;
};

inline std::string at(const std::vector<std::string>& lines, std::size_t i) {
  return i < lines.size() ? lines[i] : "<none>";
}

// Feeds text in chunks of chunk_size bytes (0: all at once), then finishes.
inline void feed_in_chunks(Parser& parser, std::string_view text, std::size_t chunk_size) {
  if (chunk_size == 0) chunk_size = text.size();
  for (std::size_t at = 0; at < text.size(); at += chunk_size) {
    parser.feed(text.data() + at, std::min(chunk_size, text.size() - at));
  }
  parser.finish();
}

inline std::vector<std::string> events_of(std::string_view text, ParserOptions options = {},
                                          std::size_t chunk_size = 0) {
  Recorder recorder;
  Parser parser(recorder, options);
  feed_in_chunks(parser, text, chunk_size);
  return recorder.events;
}

inline std::string read_fixture(const std::string& name) {
  std::ifstream in(std::string(MATERIALIST_FIXTURES_DIR) + "/" + name, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace materialist::pgn::testing
