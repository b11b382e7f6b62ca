// The parser's stream driver (feed, finish, line counting) and its game events.
#include "pgn/parser.h"

#include <algorithm>

#include "pgn/token.h"

namespace materialist::pgn {

Parser::Parser(Visitor& visitor, ParserOptions options) : visitor_(visitor), options_(options) {
  token_.reserve(options_.max_token_length);
  tag_name_.reserve(options_.max_token_length);
  tag_value_.reserve(options_.max_tag_value_length);
  comment_.reserve(std::min<std::uint32_t>(options_.max_comment_length, 1 << 16));
  game_end_.errors.reserve(options_.max_errors_kept);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] The stream
// ---------------------------------------------------------------------------------------------

void Parser::feed(const char* data, std::size_t size) {
  if (size == 0 || stopped_) return;
  stream_ended_ = false;
  chunk_begin_ = data;
  const char* p = data;
  const char* const end = data + size;
  while (p < end && !stopped_) {
    switch (state_) {
      case State::kBom:
        p = on_bom(p, end);
        break;
      case State::kBetweenGames:
        p = on_between_games(p, end);
        break;
      case State::kTagSection:
        p = on_tag_section(p, end);
        break;
      case State::kTagName:
        p = on_tag_name(p, end);
        break;
      case State::kTagBeforeValue:
        p = on_tag_before_value(p, end);
        break;
      case State::kTagValue:
        p = on_tag_value(p, end);
        break;
      case State::kTagEscape:
        p = on_tag_escape(p, end);
        break;
      case State::kTagAfterValue:
        p = on_tag_after_value(p, end);
        break;
      case State::kMoves:
        p = on_moves(p, end);
        break;
      case State::kToken:
        p = on_token(p, end);
        break;
      case State::kComment:
        p = on_comment(p, end);
        break;
      case State::kCommentTagProbe:
        p = on_comment_tag_probe(p, end);
        break;
      case State::kRestOfLine:
        p = on_rest_of_line(p, end);
        break;
    }
  }
  chunk_offset_ += size;
  bytes_ += size;
  last_byte_ = end[-1];
}

void Parser::finish() {
  if (stopped_) return;
  // Positions now refer to the end of the stream.
  chunk_begin_ = nullptr;
  const Location eof{line_, chunk_offset_};
  switch (state_) {
    case State::kBom:
      if (bom_matched_ > 0) {
        begin_game({1, 0});
        fail(ErrorCode::kSyntax, "truncated byte-order mark", {1, 0});
      }
      break;
    case State::kToken:
      state_ = State::kMoves;
      process_buffered_token();
      break;
    case State::kComment:
    case State::kCommentTagProbe:
      if (in_game_ && !failed_)
        add_error(ErrorCode::kSyntax, "unterminated comment", comment_start_);
      break;
    case State::kTagName:
    case State::kTagBeforeValue:
    case State::kTagValue:
    case State::kTagEscape:
    case State::kTagAfterValue:
      add_error(ErrorCode::kSyntax, "unterminated tag", eof);
      break;
    default:
      break;
  }
  if (in_game_) {
    if (depth_ > 0 && !failed_) add_error(ErrorCode::kSyntax, "unterminated variation", eof);
    end_game({}, eof, true);
  }
  // Ready for a new stream; games() keeps counting.
  stream_ended_ = true;
  ended_line_breaks_ = line_ - 1;
  state_ = State::kBom;
  return_state_ = State::kBetweenGames;
  chunk_offset_ = 0;
  last_byte_ = '\n';
  line_ = 1;
  line_start_ = 0;
  bom_matched_ = 0;
}

std::uint64_t parse_all(std::string_view text, Visitor& visitor, ParserOptions options) {
  Parser parser(visitor, options);
  parser.feed(text.data(), text.size());
  parser.finish();
  return parser.games();
}

void Parser::newline(const char* p) {
  const char previous = p > chunk_begin_ ? p[-1] : last_byte_;
  if (!(*p == '\n' && previous == '\r')) ++line_;  // CRLF is one line break
  line_start_ = offset_at(p) + 1;
}

void Parser::count_lines(const char* begin, const char* end) {
  for (const char* p = begin; p < end; ++p)
    if (is_newline(*p)) newline(p);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Game events
// ---------------------------------------------------------------------------------------------

void Parser::begin_game(Location start) {
  if (stopped_) return;  // the handler goes on; feed's loop ends after it
  in_game_ = true;
  failed_ = false;
  skipping_ = false;
  after_move_number_ = false;
  depth_ = 0;
  plies_ = 0;
  missing_moves_ = 0;
  tags_ = 0;
  last_tag_line_ = start.line;
  game_end_.result = {};
  game_end_.start = start;
  game_end_.end = start;
  game_end_.truncated = false;
  game_end_.ply_limit_reached = false;
  game_end_.skipped = false;
  game_end_.errors.clear();
  game_end_.error_count = 0;
  visitor_.begin_game(start);
}

void Parser::begin_moves() {
  state_ = State::kMoves;
  if (stopped_) return;
  if (visitor_.begin_moves() == Action::kSkipGame) {
    skipping_ = true;
    game_end_.skipped = true;
  }
}

void Parser::end_game(std::string_view result, Location where, bool truncated) {
  game_end_.result = result;
  game_end_.end = where;
  game_end_.plies = plies_;
  game_end_.missing_moves = missing_moves_;
  game_end_.truncated = truncated;
  in_game_ = false;
  ++games_;
  visitor_.end_game(game_end_);
  if (options_.max_games != 0 && games_ >= options_.max_games) stopped_ = true;
}

void Parser::stop_after_game() {
  // Between games, the next game is the last: a decoder's output lags its input, so "between
  // games" may only mean that the text of the bytes read is still to come.
  options_.max_games = games_ + 1;
}

void Parser::start_next_game(Location where) {
  if (depth_ > 0 && !failed_) add_error(ErrorCode::kSyntax, "unterminated variation", where);
  end_game({}, where, false);
  begin_game(where);
  state_ = State::kTagSection;
}

void Parser::add_error(ErrorCode code, std::string message, Location where) {
  ++game_end_.error_count;
  if (game_end_.errors.size() < options_.max_errors_kept)
    game_end_.errors.push_back({code, std::move(message), where});
}

// Out of line, so that the message building stays off the hot paths that call it.
void Parser::limit_error(Location where, const char* before, std::uint32_t limit, const char* after,
                         bool breaks_game) {
  std::string message = before + std::to_string(limit) + after;
  if (breaks_game) {
    fail(ErrorCode::kLimit, std::move(message), where);
  } else {
    add_error(ErrorCode::kLimit, std::move(message), where);
  }
}

void Parser::fail(ErrorCode code, std::string message, Location where) {
  add_error(code, std::move(message), where);
  failed_ = true;
}

}  // namespace materialist::pgn
