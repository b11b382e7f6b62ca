#include "pgn/parser.h"

#include <algorithm>
#include <cstring>

#include "pgn/token.h"

namespace materialist::pgn {
namespace {

// A token quoted in an error message: at most 24 bytes, non-printable and non-ASCII as '?'.
std::string quoted(std::string_view token) {
  std::string text = "'";
  for (char c : token.substr(0, 24)) {
    const auto byte = static_cast<unsigned char>(c);
    text.push_back(byte >= 0x20 && byte < 0x7f ? c : '?');
  }
  if (token.size() > 24) text += "...";
  return text + "'";
}

// Control bytes never occur in PGN text: a token holding one is binary data (a JPEG, say).
bool looks_binary(std::string_view token) {
  for (char c : token) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) return true;
  }
  return false;
}

bool is_newline(char c) {
  return c == '\n' || c == '\r';
}

}  // namespace

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
  if (size == 0) return;
  chunk_begin_ = data;
  const char* p = data;
  const char* const end = data + size;
  while (p < end) {
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
      case State::kRestOfLine:
        p = on_rest_of_line(p, end);
        break;
    }
  }
  chunk_offset_ += size;
  last_byte_ = end[-1];
}

void Parser::finish() {
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
// [SECTION] Between games and the tag section
// ---------------------------------------------------------------------------------------------

const char* Parser::on_bom(const char* p, const char* end) {
  static constexpr char kBom[] = "\xEF\xBB\xBF";
  while (p < end && bom_matched_ < 3) {
    if (*p != kBom[bom_matched_]) {
      state_ = State::kBetweenGames;
      if (bom_matched_ == 0) return p;
      // A lone 0xEF (0xBB) is no PGN: report it as a broken game and resynchronise.
      begin_game({1, 0});
      begin_moves();
      fail(ErrorCode::kSyntax, "truncated byte-order mark", {1, 0});
      state_ = State::kMoves;
      return p;
    }
    ++bom_matched_;
    ++p;
  }
  if (bom_matched_ == 3) {
    state_ = State::kBetweenGames;
    line_start_ = 3;
  }
  return p;
}

const char* Parser::on_between_games(const char* p, const char* end) {
  while (p < end) {
    switch (char_class(*p)) {
      case CharClass::kBlank:
      case CharClass::kCloseBrace:
        ++p;
        continue;
      case CharClass::kLineFeed:
      case CharClass::kCarriageReturn:
        newline(p);
        ++p;
        continue;
      case CharClass::kOpenBrace:
        return open_comment(p, end);
      case CharClass::kSemicolon:
        return skip_rest_of_line(p + 1);
      case CharClass::kOpenBracket:
        begin_game(location_at(p));
        state_ = State::kTagSection;
        return p;
      default:
        if (*p == '%' && at_line_start(p)) return skip_rest_of_line(p + 1);
        begin_game(location_at(p));  // movetext without a tag section
        begin_moves();
        return p;
    }
  }
  return p;
}

const char* Parser::on_tag_section(const char* p, const char* end) {
  while (p < end) {
    switch (char_class(*p)) {
      case CharClass::kBlank:
        ++p;
        continue;
      case CharClass::kLineFeed:
      case CharClass::kCarriageReturn:
        newline(p);
        ++p;
        if (line_ - last_tag_line_ >= 2) {  // a blank line ends the tag section
          begin_moves();
          return p;
        }
        continue;
      case CharClass::kOpenBrace:
        return open_comment(p, end);
      case CharClass::kSemicolon:
        return skip_rest_of_line(p + 1);
      case CharClass::kOpenBracket:
        tag_start_ = location_at(p);
        tag_name_.clear();
        tag_name_overflow_ = false;
        state_ = State::kTagName;
        return p + 1;
      default:
        if (*p == '%' && at_line_start(p)) return skip_rest_of_line(p + 1);
        begin_moves();
        return p;
    }
  }
  return p;
}

const char* Parser::on_tag_name(const char* p, const char* end) {
  for (; p < end; ++p) {
    const char c = *p;
    if (c == '"' || c == ' ' || c == '\t') {
      if (tag_name_.empty()) {
        if (c == '"') return tag_line_error(p, "tag without a name");
        continue;
      }
      if (tag_name_overflow_) return tag_line_error(p, "tag name too long");
      tag_value_.clear();
      tag_value_overflow_ = false;
      state_ = c == '"' ? State::kTagValue : State::kTagBeforeValue;
      return p + 1;
    }
    if (c == ']' || c == '[' || is_newline(c)) return tag_line_error(p, "malformed tag");
    if (tag_name_.size() < options_.max_token_length) {
      tag_name_.push_back(c);
    } else {
      tag_name_overflow_ = true;
    }
  }
  return p;
}

const char* Parser::on_tag_before_value(const char* p, const char* end) {
  while (p < end && (*p == ' ' || *p == '\t')) ++p;
  if (p == end) return p;
  if (*p != '"') return tag_line_error(p, "tag value without quotes");
  state_ = State::kTagValue;
  return p + 1;
}

const char* Parser::on_tag_value(const char* p, const char* end) {
  const char* q = p;
  while (q < end && *q != '"' && *q != '\\' && !is_newline(*q)) ++q;
  append_tag_value(p, static_cast<std::size_t>(q - p));
  if (q == end) return q;
  if (*q == '"') {
    state_ = State::kTagAfterValue;
    return q + 1;
  }
  if (*q == '\\') {
    state_ = State::kTagEscape;
    return q + 1;
  }
  add_error(ErrorCode::kSyntax, "unterminated tag value", location_at(q));
  deliver_tag();
  state_ = State::kTagSection;
  return q;
}

const char* Parser::on_tag_escape(const char* p, const char*) {
  state_ = State::kTagValue;
  if (*p == '"' || *p == '\\') {
    append_tag_value(p, 1);
    return p + 1;
  }
  append_tag_value("\\", 1);  // not an escape: keep the backslash
  return p;
}

const char* Parser::on_tag_after_value(const char* p, const char* end) {
  while (p < end && (*p == ' ' || *p == '\t')) ++p;
  if (p == end) return p;
  deliver_tag();
  if (*p == ']') {
    state_ = State::kTagSection;
    return p + 1;
  }
  if (is_newline(*p)) {  // a missing ']' at the end of the line is tolerated
    state_ = State::kTagSection;
    return p;
  }
  add_error(ErrorCode::kSyntax, "expected ']' after the tag value", location_at(p));
  state_ = State::kTagSection;
  return skip_rest_of_line(p);
}

const char* Parser::tag_line_error(const char* p, const char* message) {
  fail(ErrorCode::kSyntax, message, location_at(p));
  state_ = State::kTagSection;
  return skip_rest_of_line(p);
}

void Parser::append_tag_value(const char* data, std::size_t size) {
  const std::size_t room = options_.max_tag_value_length - tag_value_.size();
  if (size > room) {
    if (!tag_value_overflow_) {
      limit_error(tag_start_, "tag value longer than ", options_.max_tag_value_length,
                  " bytes, truncated", false);
    }
    tag_value_overflow_ = true;
    size = room;
  }
  tag_value_.append(data, size);
}

void Parser::deliver_tag() {
  last_tag_line_ = line_;
  if (tags_ >= options_.max_tags) {
    if (tags_ == options_.max_tags) {
      limit_error(tag_start_, "more than ", options_.max_tags, " tags, the rest dropped", false);
    }
    ++tags_;
    return;
  }
  ++tags_;
  visitor_.tag(tag_name_, tag_value_);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Comments and skipped lines
// ---------------------------------------------------------------------------------------------

const char* Parser::open_comment(const char* brace, const char* end) {
  comment_start_ = location_at(brace);
  comment_wanted_ = options_.comments && reporting();
  const char* p = brace + 1;
  if (comment_wanted_) {  // fast path: the whole comment is in this chunk, hand out a view
    const auto* close = static_cast<const char*>(std::memchr(p, '}', static_cast<size_t>(end - p)));
    if (close != nullptr) {
      count_lines(p, close);
      const auto size =
          std::min<std::size_t>(static_cast<std::size_t>(close - p), options_.max_comment_length);
      visitor_.comment(std::string_view(p, size), comment_start_);
      return close + 1;
    }
  }
  comment_.clear();
  return_state_ = state_;
  state_ = State::kComment;
  return p;
}

const char* Parser::on_comment(const char* p, const char* end) {
  if (failed_ && in_game_) return on_comment_resynchronising(p, end);
  const auto* close = static_cast<const char*>(std::memchr(p, '}', static_cast<size_t>(end - p)));
  const char* stop = close != nullptr ? close : end;
  count_lines(p, stop);
  if (comment_wanted_) {
    const std::size_t room = options_.max_comment_length - comment_.size();
    comment_.append(p, std::min(room, static_cast<std::size_t>(stop - p)));
  }
  if (close == nullptr) return end;
  if (comment_wanted_) visitor_.comment(comment_, comment_start_);
  state_ = return_state_;
  return close + 1;
}

// In a game already broken (binary junk, say) a '{' may never be closed: a '[' at the start of
// a line ends the comment too, so that the next game is found.
const char* Parser::on_comment_resynchronising(const char* p, const char* end) {
  for (; p < end; ++p) {
    const char c = *p;
    if (c == '}') {
      state_ = return_state_;
      return p + 1;
    }
    if (c == '[' && at_line_start(p)) {
      state_ = return_state_;
      return p;
    }
    if (is_newline(c)) newline(p);
  }
  return p;
}

const char* Parser::skip_rest_of_line(const char* p) {
  if (state_ != State::kRestOfLine) return_state_ = state_;
  state_ = State::kRestOfLine;
  return p;
}

const char* Parser::on_rest_of_line(const char* p, const char* end) {
  while (p < end && !is_newline(*p)) ++p;
  if (p < end) state_ = return_state_;  // the line break itself is the next state's
  return p;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Movetext
// ---------------------------------------------------------------------------------------------

// Handles the two commonest tokens, a plain SAN move and a move number "12.", and returns
// false for anything else. Kept small so that it inlines into on_moves().
inline bool Parser::process_common_token(std::string_view token, std::uint64_t offset) {
  if (depth_ > 0 || failed_) return false;
  const char first = token[0];
  if (is_san_start(first) && first != 'Z') {
    for (std::size_t i = 1; i < token.size(); ++i)
      if (is_annotation_char(token[i])) return false;
    after_move_number_ = false;
    play_move(token, {line_, offset});
    return true;
  }
  if (!is_digit(first) || token.back() != '.') return false;
  std::size_t i = 1;
  std::uint32_t number = static_cast<std::uint32_t>(first - '0');
  while (is_digit(token[i]) && number < 100'000'000)  // stops at the final '.' at the latest
    number = number * 10 + static_cast<std::uint32_t>(token[i++] - '0');
  while (i < token.size() && token[i] == '.') ++i;
  if (i != token.size()) return false;
  after_move_number_ = true;
  last_move_number_ = number;
  return true;
}

const char* Parser::on_moves(const char* p, const char* end) {
  while (p < end) {
    const CharClass first = char_class(*p);
    if (first == CharClass::kBlank) {  // the most common byte first
      ++p;
      continue;
    }
    if (first != CharClass::kTokenChar) {
      switch (first) {
        case CharClass::kLineFeed:
        case CharClass::kCarriageReturn:
          newline(p);
          ++p;
          continue;
        case CharClass::kOpenBrace:
          return open_comment(p, end);
        case CharClass::kSemicolon:
          return skip_rest_of_line(p + 1);
        case CharClass::kOpenParen:
          open_variation(p);
          ++p;
          continue;
        case CharClass::kCloseParen:
          close_variation(p);
          ++p;
          continue;
        case CharClass::kOpenBracket:
          // A tag ends the game, result or not; in a broken game only at the start of a line.
          if (failed_ && !at_line_start(p)) {
            ++p;
            continue;
          }
          start_next_game(p);
          return p;
        default:  // a stray '}'
          ++p;
          continue;
      }
    }
    if (*p == '%' && at_line_start(p)) return skip_rest_of_line(p + 1);
    const char* q = p + 1;
    while (q < end && char_class(*q) == CharClass::kTokenChar) ++q;
    if (q == end) {  // the token may go on in the next chunk
      token_.clear();
      token_overflow_ = false;
      token_start_ = offset_at(p);
      state_ = State::kToken;
      return on_token(p, end);
    }
    const auto size = static_cast<std::size_t>(q - p);
    if (size > options_.max_token_length) {
      token_too_long(offset_at(p));
    } else {
      const std::string_view token(p, size);
      if (!process_common_token(token, offset_at(p))) process_token(token, offset_at(p));
    }
    p = q;
    if (state_ != State::kMoves) return p;
  }
  return p;
}

const char* Parser::on_token(const char* p, const char* end) {
  const char* q = p;
  while (q < end && char_class(*q) == CharClass::kTokenChar) ++q;
  const auto size = static_cast<std::size_t>(q - p);
  if (token_.size() + size > options_.max_token_length) {
    token_overflow_ = true;  // keep skipping, stop buffering
  } else {
    token_.append(p, size);
  }
  if (q == end) return q;
  state_ = State::kMoves;
  process_buffered_token();
  return q;
}

void Parser::process_buffered_token() {
  if (token_overflow_) {
    token_too_long(token_start_);
  } else {
    process_token(token_, token_start_);
  }
}

void Parser::token_too_long(std::uint64_t offset) {
  const Location where{line_, offset};
  if (depth_ == 0 && !failed_) {
    limit_error(where, "token longer than ", options_.max_token_length, " bytes", true);
  }
}

// A token never spans lines, so its line is the current one.
void Parser::process_token(std::string_view token, std::uint64_t offset) {
  if (depth_ > 0) return;  // variations are skipped
  const Location where{line_, offset};
  while (!token.empty()) {
    const TokenPiece piece = next_token_piece(token);
    const std::string_view piece_text = token;
    token.remove_prefix(piece.length);
    if (failed_ && piece.kind != TokenKind::kResult) return;  // only a result matters now
    switch (piece.kind) {
      case TokenKind::kResult:
        end_game(piece.text, where, false);
        state_ = State::kBetweenGames;
        return;
      case TokenKind::kMoveNumber:
        last_move_number_ = piece.number;
        after_move_number_ = true;
        continue;
      case TokenKind::kMove:
        play_move(piece.text, where);
        break;
      case TokenKind::kMissingMove: {
        // "12. ..." with Black to move is a move-number style ("12... Nf3"), not a gap. Only
        // moves count for the side to move: a gap does not pass the turn (OpenRating.pgn writes
        // "70. Rf4 ... {Black forfeits on time} Bg7", Bg7 being Black's move).
        const bool black_number =
            after_move_number_ && plies_ % 2 == 1 && last_move_number_ == plies_ / 2 + 1;
        if (!black_number) report_missing_move(where);
        break;
      }
      case TokenKind::kNag:
      case TokenKind::kGlyph:
        break;
      case TokenKind::kInvalid:
        fail(ErrorCode::kSyntax,
             (looks_binary(piece_text) ? "binary data, not PGN text: " : "unexpected token ") +
                 quoted(piece_text),
             where);
        return;
    }
    after_move_number_ = false;
  }
}

void Parser::play_move(std::string_view san, Location where) {
  if (plies_ >= options_.max_plies) {
    if (!game_end_.ply_limit_reached) {
      game_end_.ply_limit_reached = true;
      limit_error(where, "more than ", options_.max_plies, " plies, the rest skipped", false);
    }
    return;
  }
  ++plies_;
  if (!skipping_ && visitor_.move(san, where) == Action::kSkipGame) {
    skipping_ = true;
    game_end_.skipped = true;
  }
}

void Parser::report_missing_move(Location where) {
  ++missing_moves_;
  if (!skipping_) visitor_.missing_move(where);
}

void Parser::open_variation(const char* paren) {
  ++depth_;
  if (depth_ > options_.max_variation_depth && !failed_) {
    limit_error(location_at(paren), "variations nested deeper than ", options_.max_variation_depth,
                "", true);
  }
}

void Parser::close_variation(const char* paren) {
  if (depth_ > 0) {
    --depth_;
  } else if (!failed_) {
    add_error(ErrorCode::kSyntax, "')' without '('", location_at(paren));
  }
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Game events
// ---------------------------------------------------------------------------------------------

void Parser::begin_game(Location start) {
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
}

void Parser::start_next_game(const char* bracket) {
  const Location where = location_at(bracket);
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
