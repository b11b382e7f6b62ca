// Push-style streaming PGN parser with visitor callbacks.
//
//   struct Counter : pgn::Visitor {
//     int moves = 0;
//     pgn::Action move(std::string_view, pgn::Location) override { ++moves; return {}; }
//   } counter;
//   pgn::Parser parser(counter);
//   while (read a chunk) parser.feed(chunk.data(), chunk.size());  // any chunk size, 1 byte up
//   parser.finish();                                                // ends a truncated last game
//
// The events are the same whatever the chunking. Views handed to callbacks are valid only during
// the callback. Errors never stop the stream: they are collected per game and delivered in
// GameEnd, and the parser resynchronises at the next game. Memory is bounded by ParserOptions
// whatever the input (huge lines, endless comments, deep nesting, binary junk).
//
// Games: a game starts at a '[' or at the first movetext byte (no tag section needed), and ends
// at a result token, at a '[' met in movetext (a new game, result or not), or at finish().
// begin_moves() comes at the blank line after the tags or at the first movetext byte. move()
// sees the main line only, SAN as written minus annotations ("e4!?" → "e4", "Bb5+-" → "Bb5",
// "0-0" → "O-O", "Z0" → "--"); variations are parsed and skipped. A bare "..." is reported
// through missing_move() and is not a ply ("12. ..." with Black to move is just a move number).
// After a syntax error, an overlong token or too deep nesting, no more moves of that game are
// reported; the game still ends normally, with its errors in GameEnd. A comment whose '}' is
// lost ends at a line starting with a tag ('[Name "'), so it cannot swallow the games after it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace materialist::pgn {

struct Location {
  std::uint64_t line = 0;    // 1-based
  std::uint64_t offset = 0;  // 0-based byte offset in the stream
};

enum class Action : std::uint8_t { kContinue, kSkipGame };  // kSkipGame: no more move() this game

struct GameError {
  ErrorCode code = ErrorCode::kOk;  // kSyntax or kLimit
  std::string message;              // ASCII, one line
  Location location;
};

struct GameEnd {
  std::string_view result;  // "1-0", "0-1", "1/2-1/2", "*" or "" (a static string, never the input)
  Location start;           // where begin_game() was reported
  Location end;             // the result token, the next game's '[', or the end of input
  std::uint32_t plies = 0;  // main-line moves seen (at most max_plies)
  std::uint32_t missing_moves = 0;  // bare "..." reported through missing_move()
  bool truncated = false;           // the input ended inside this game (finish() ended it)
  bool ply_limit_reached = false;   // moves beyond max_plies were skipped
  bool skipped = false;             // the visitor returned kSkipGame
  std::vector<GameError> errors;    // the first max_errors_kept errors, in order
  std::uint32_t error_count = 0;    // all errors, kept or not
  bool ok() const { return error_count == 0; }
};

struct ParserOptions {
  bool comments = false;                      // report {brace} comments of the main line
  std::uint32_t max_token_length = 256;       // longer movetext tokens and tag names are errors
  std::uint32_t max_tag_value_length = 4096;  // longer values are truncated (and an error)
  std::uint32_t max_comment_length = 4096;    // bytes of a comment handed to comment()
  std::uint32_t max_variation_depth = 64;     // deeper nesting is an error
  std::uint32_t max_plies = 2000;             // main-line moves per game; the rest are skipped
  std::uint32_t max_tags = 256;               // tags per game; the rest are dropped (an error)
  std::uint32_t max_errors_kept = 16;         // GameEnd::errors keeps this many
  std::uint64_t max_games = 0;                // stop after this many games have ended (0: no limit)
};

class Visitor {
 public:
  virtual ~Visitor() = default;
  virtual void begin_game(Location /*start*/) {}
  virtual void tag(std::string_view /*name*/, std::string_view /*value*/) {}  // value unescaped
  virtual Action begin_moves() { return Action::kContinue; }  // after the tag section
  virtual Action move(std::string_view /*san*/, Location /*where*/) { return Action::kContinue; }
  virtual void missing_move(Location /*where*/) {}  // a bare "..." where a move should be
  virtual void comment(std::string_view /*text*/, Location /*where*/) {}  // if options.comments
  virtual void end_game(const GameEnd& /*end*/) {}
};

class Parser {
 public:
  explicit Parser(Visitor& visitor, ParserOptions options = {});

  // Parses the next bytes of the stream; a token may straddle two calls.
  void feed(const char* data, std::size_t size);
  // Ends the stream: reports a game still open as truncated, then resets for a new stream.
  void finish();

  std::uint64_t games() const { return games_; }  // games ended so far
  std::uint64_t bytes() const { return bytes_; }  // bytes fed so far, over all streams
  // Line breaks read in the stream (CR, LF and CRLF one each), stopped or not; after finish(),
  // those of the stream it ended, until the next stream's first byte.
  std::uint64_t line_breaks() const { return stream_ended_ ? ended_line_breaks_ : line_ - 1; }
  // Ends the stream at the next game end (of the game being read, else of the next game): no
  // later byte is parsed and no later game begun (a "first N MB" limit that cuts no game).
  void stop_after_game();
  // True once stopped: by stop_after_game or by max_games.
  bool stopped() const { return stopped_; }

 private:
  enum class State : std::uint8_t {
    kBom,              // the first bytes, looking for a UTF-8 byte-order mark
    kBetweenGames,     // blanks, comments and escape lines before a game
    kTagSection,       // between tags: another '[' or the first movetext byte
    kTagName,          // after '[': the name
    kTagBeforeValue,   // after the name: the opening quote
    kTagValue,         // inside the quoted value
    kTagEscape,        // after a backslash in the value
    kTagAfterValue,    // after the closing quote: the ']'
    kMoves,            // movetext: tokens, variations, comments
    kToken,            // a movetext token that straddles two chunks
    kComment,          // inside {...} that straddles chunks (or resynchronising)
    kCommentTagProbe,  // after a '[' starting a line in a comment: a tag, so no '}'?
    kRestOfLine,       // a ';' comment, a '%' escape line, or the rest of a bad tag line
  };

  // State handlers: each consumes bytes while its state lasts and returns where it stopped.
  const char* on_bom(const char* p, const char* end);
  const char* on_between_games(const char* p, const char* end);
  const char* on_tag_section(const char* p, const char* end);
  const char* on_tag_name(const char* p, const char* end);
  const char* on_tag_before_value(const char* p, const char* end);
  const char* on_tag_value(const char* p, const char* end);
  const char* on_tag_escape(const char* p, const char* end);
  const char* on_tag_after_value(const char* p, const char* end);
  const char* on_moves(const char* p, const char* end);
  const char* on_token(const char* p, const char* end);
  const char* on_comment(const char* p, const char* end);
  const char* on_comment_resynchronising(const char* p, const char* end);
  const char* on_comment_tag_probe(const char* p, const char* end);
  const char* on_rest_of_line(const char* p, const char* end);

  // Events.
  void begin_game(Location start);
  void begin_moves();
  void end_game(std::string_view result, Location where, bool truncated);
  void start_next_game(Location where);
  const char* one_line_comment(const char* brace, const char* end);
  const char* deliver_one_line_comment(const char* brace, const char* end);
  const char* open_comment(const char* brace, const char* end);
  void append_comment(const char* data, std::size_t size);
  const char* tag_in_comment(const char* quote);
  const char* skip_rest_of_line(const char* p);
  const char* tag_line_error(const char* p, const char* message);
  const char* read_whole_tag(const char* bracket, const char* end);
  void deliver_tag();
  void deliver_tag(std::string_view name, std::string_view value);
  void append_tag_value(const char* data, std::size_t size);
  bool process_common_token(std::string_view token, std::uint64_t offset, std::uint8_t traits);
  const char* skip_move_number(const char* p, const char* end);
  void process_token(std::string_view token, std::uint64_t offset);
  void process_buffered_token();
  void token_too_long(std::uint64_t offset);
  void open_variation(const char* paren);
  void close_variation(const char* paren);
  void play_move(std::string_view san, Location where);
  void report_missing_move(Location where);
  void add_error(ErrorCode code, std::string message, Location where);
  void fail(ErrorCode code, std::string message, Location where);
  void limit_error(Location where, const char* before, std::uint32_t limit, const char* after,
                   bool breaks_game);

  // Positions and lines.
  std::uint64_t offset_at(const char* p) const {
    return chunk_offset_ + static_cast<std::uint64_t>(p - chunk_begin_);
  }
  Location location_at(const char* p) const { return {line_, offset_at(p)}; }
  bool at_line_start(const char* p) const { return offset_at(p) == line_start_; }
  void newline(const char* p);
  void count_lines(const char* begin, const char* end);
  bool reporting() const { return in_game_ && !failed_ && !skipping_ && depth_ == 0; }

  Visitor& visitor_;
  ParserOptions options_;

  State state_ = State::kBom;
  State return_state_ = State::kBetweenGames;  // where kComment and kRestOfLine go back to
  const char* chunk_begin_ = nullptr;
  std::uint64_t chunk_offset_ = 0;  // stream offset of chunk_begin_
  char last_byte_ = '\n';           // the byte before chunk_begin_
  std::uint64_t line_ = 1;
  bool stream_ended_ = false;            // by finish(), and no byte of the next one yet
  std::uint64_t ended_line_breaks_ = 0;  // of the stream finish() ended
  std::uint64_t line_start_ = 0;         // stream offset where the current line begins
  std::uint8_t bom_matched_ = 0;

  // The current game.
  bool in_game_ = false;
  bool failed_ = false;    // after a syntax error: skip to the next game, report nothing
  bool skipping_ = false;  // the visitor asked for no more moves
  bool after_move_number_ = false;
  bool token_overflow_ = false;
  bool tag_name_overflow_ = false;
  bool tag_value_overflow_ = false;
  bool comment_wanted_ = false;
  std::uint32_t depth_ = 0;
  std::uint32_t plies_ = 0;
  std::uint32_t missing_moves_ = 0;
  std::uint32_t tags_ = 0;
  std::uint32_t last_move_number_ = 0;
  std::uint64_t last_tag_line_ = 0;
  std::uint64_t token_start_ = 0;  // stream offset of a token straddling chunks
  Location tag_start_;             // the '[' of the tag being read
  Location comment_start_;
  Location probe_start_;  // the '[' that may start a tag inside a comment
  bool probe_after_name_ = false;
  std::string token_;     // a token straddling chunks (reused, at most max_token_length)
  std::string tag_name_;  // reused buffers, bounded by the options
  std::string tag_value_;
  std::string comment_;
  GameEnd game_end_;

  std::uint64_t games_ = 0;
  bool stopped_ = false;
  std::uint64_t bytes_ = 0;
};

// Parses a whole text (a thin wrapper over feed() and finish()); returns the number of games.
std::uint64_t parse_all(std::string_view text, Visitor& visitor, ParserOptions options = {});

}  // namespace materialist::pgn
