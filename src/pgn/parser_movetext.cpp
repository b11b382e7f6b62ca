// The parser's movetext states: tokens, variations, comments and skipped lines.
#include <algorithm>
#include <cstring>

#include "pgn/byte_scan.h"
#include "pgn/parser.h"
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

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] Comments and skipped lines
// ---------------------------------------------------------------------------------------------

namespace {

// Whether a line starts inside [begin, end), which follows a '{' (so begin is no line start).
bool has_line_starting_with_bracket(const char* begin, const char* end) {
  for (const char* p = begin + 1; p < end; ++p)
    if (*p == '[' && is_newline(p[-1])) return true;
  return false;
}

constexpr bool is_tag_name_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || is_digit(c) || c == '_';
}

}  // namespace

const char* Parser::open_comment(const char* brace, const char* end) {
  comment_start_ = location_at(brace);
  comment_wanted_ = options_.comments && reporting();
  const char* p = brace + 1;
  if (comment_wanted_) {  // fast path: the whole comment is in this chunk, hand out a view
    const auto* close = static_cast<const char*>(std::memchr(p, '}', static_cast<size_t>(end - p)));
    if (close != nullptr && !has_line_starting_with_bracket(p, close)) {
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

// A comment that closes on its own line in this chunk, skipped (a clock nobody reads, "{ [%clk
// 0:03:00] }") or handed to the visitor that reads it without leaving the movetext; nullptr sends
// the rest to open_comment. With no line break inside, no '[' can start a line in it, so every
// state would end it at the same '}'.
const char* Parser::one_line_comment(const char* brace, const char* end) {
  if (options_.comments && reporting()) return deliver_one_line_comment(brace, end);
  if (const char* after = skip_clock_comment(brace, end)) return after;
  const char* stop = find_comment_stop(brace + 1, end);
  return stop < end && *stop == '}' ? stop + 1 : nullptr;
}

// lichess writes one after every move, "{ [%eval 0.17] [%clk 0:03:00] }": a view of it is handed
// out. Kept out of line so that the skip above stays as small as the reader of results needs
// (inlined, the delivery slowed that reader by 2 to 3%).
[[gnu::noinline]] const char* Parser::deliver_one_line_comment(const char* brace, const char* end) {
  const char* stop = find_comment_stop(brace + 1, end);
  if (stop == end || *stop != '}') return nullptr;
  const auto size = std::min<std::size_t>(static_cast<std::size_t>(stop - brace - 1),
                                          options_.max_comment_length);
  visitor_.comment(std::string_view(brace + 1, size), location_at(brace));
  return stop + 1;
}

void Parser::append_comment(const char* data, std::size_t size) {
  if (!comment_wanted_) return;
  const std::size_t room = options_.max_comment_length - comment_.size();
  comment_.append(data, std::min(room, size));
}

const char* Parser::on_comment(const char* p, const char* end) {
  if (failed_ && in_game_) return on_comment_resynchronising(p, end);
  const char* const run = p;
  for (; p < end; ++p) {
    const char c = *p;
    if (c == '}') {
      append_comment(run, static_cast<std::size_t>(p - run));
      if (comment_wanted_) visitor_.comment(comment_, comment_start_);
      state_ = return_state_;
      return p + 1;
    }
    if (is_newline(c)) {
      newline(p);
    } else if (c == '[' && at_line_start(p)) {  // perhaps the '}' is missing: is it a tag?
      append_comment(run, static_cast<std::size_t>(p - run));
      append_comment(p, 1);
      probe_start_ = location_at(p);
      probe_after_name_ = false;
      tag_name_.clear();
      state_ = State::kCommentTagProbe;
      return p + 1;
    }
  }
  append_comment(run, static_cast<std::size_t>(p - run));
  return p;
}

// After "{...\n[": a tag ("[Name \"") means the comment was never closed; the tag belongs to
// the next game (or to this game's tag section). Anything else is comment text after all.
const char* Parser::on_comment_tag_probe(const char* p, const char* end) {
  for (; p < end; ++p) {
    const char c = *p;
    if (c == '"' && !tag_name_.empty()) return tag_in_comment(p);
    if (!probe_after_name_ && is_tag_name_char(c) && tag_name_.size() < options_.max_token_length) {
      tag_name_.push_back(c);
    } else if ((c == ' ' || c == '\t') && !tag_name_.empty()) {
      probe_after_name_ = true;
    } else {
      state_ = State::kComment;  // not a tag: this byte is comment text again
      return p;
    }
    append_comment(p, 1);
  }
  return p;
}

const char* Parser::tag_in_comment(const char* quote) {
  if (in_game_ && !failed_) add_error(ErrorCode::kSyntax, "unterminated comment", comment_start_);
  if (!in_game_) {
    begin_game(probe_start_);
  } else if (return_state_ != State::kTagSection) {
    start_next_game(probe_start_);
  }
  tag_start_ = probe_start_;
  last_tag_line_ = line_;
  tag_name_overflow_ = false;
  tag_value_.clear();
  tag_value_overflow_ = false;
  state_ = State::kTagValue;
  return quote + 1;
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

// A complete move number, "12." or "12...", at p: the byte after it (a token's end), else
// nullptr. About a third of all tokens; read here without the token scan and its second look.
inline const char* Parser::skip_move_number(const char* p, const char* end) {
  const char* q = p;
  std::uint32_t number = 0;
  do {
    number = number * 10 + static_cast<std::uint32_t>(*q++ - '0');
  } while (q < end && is_digit(*q) && number < 100'000'000);
  if (q == end || *q != '.') return nullptr;
  do ++q;
  while (q < end && *q == '.');
  if (q == end || (token_traits(*q) & kEndsToken) == 0) return nullptr;
  if (static_cast<std::size_t>(q - p) > options_.max_token_length) return nullptr;
  if (depth_ == 0 && !failed_) {  // in a variation, or after an error, a number means nothing
    after_move_number_ = true;
    last_move_number_ = number;
  }
  return q;
}

// Handles the commonest tokens, a plain SAN move, a move number "12." and a move glued to its
// number "12.Nf3", and returns false for anything else. `traits` are the TokenTraits of every
// byte but the first, or-ed: without kMayAnnotate no annotation can start in the token. Kept
// small so that it inlines into on_moves().
inline bool Parser::process_common_token(std::string_view token, std::uint64_t offset,
                                         std::uint8_t traits) {
  if (depth_ > 0 || failed_) return false;
  const char first = token[0];
  const bool clean = (traits & kMayAnnotate) == 0;
  if ((token_traits(first) & kStartsSanMove) != 0) {
    if (!clean && san_length(token) != token.size()) return false;
    after_move_number_ = false;
    play_move(token, {line_, offset});
    return true;
  }
  if (!is_digit(first)) return false;
  std::size_t i = 1;
  std::uint32_t number = static_cast<std::uint32_t>(first - '0');
  while (i < token.size() && is_digit(token[i]) && number < 100'000'000)
    number = number * 10 + static_cast<std::uint32_t>(token[i++] - '0');
  const std::size_t digits = i;
  while (i < token.size() && token[i] == '.') ++i;
  if (i == digits) return false;  // no '.': a result, a long number or garbage
  if (i == token.size()) {        // "12." or "12..."
    after_move_number_ = true;
    last_move_number_ = number;
    return true;
  }
  // A move glued to its number, "12.Nf3" (half the moves of some files): the same as "12. Nf3".
  const std::string_view san = token.substr(i);
  if ((token_traits(san[0]) & kStartsSanMove) == 0) return false;
  if (!clean && san_length(san) != san.size()) return false;
  last_move_number_ = number;
  after_move_number_ = false;
  play_move(san, {line_, offset});
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
          if (const char* after = one_line_comment(p, end)) {
            p = after;
            continue;
          }
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
          start_next_game(location_at(p));
          return p;
        default:  // a stray '}'
          ++p;
          continue;
      }
    }
    if (*p == '%' && at_line_start(p)) return skip_rest_of_line(p + 1);
    // A token starts at p. The commonest delimiter, one space before the next token, is stepped
    // over here rather than by the loop above (a '%' after a space starts no line).
    for (;;) {
      const char* q = is_digit(*p) ? skip_move_number(p, end) : nullptr;
      if (q == nullptr) {
        q = p + 1;
        std::uint8_t traits = 0;
        for (; q < end; ++q) {
          const std::uint8_t byte_traits = token_traits(*q);
          if ((byte_traits & kEndsToken) != 0) break;
          traits |= byte_traits;
        }
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
          if (!process_common_token(token, offset_at(p), traits))
            process_token(token, offset_at(p));
        }
      }
      p = q;
      if (state_ != State::kMoves) return p;
      if (end - p < 2 || *p != ' ' || (token_traits(p[1]) & kEndsToken) != 0) break;
      ++p;
    }
  }
  return p;
}

const char* Parser::on_token(const char* p, const char* end) {
  const char* q = p;
  while (q < end && char_class(*q) == CharClass::kTokenChar) ++q;
  const auto size = static_cast<std::size_t>(q - p);
  if (token_overflow_ || token_.size() + size > options_.max_token_length) {
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

}  // namespace materialist::pgn
