// The parser's states before movetext: the byte-order mark, the gaps between games, the tags.
#include <array>

#include "pgn/byte_scan.h"
#include "pgn/parser.h"
#include "pgn/token.h"

namespace materialist::pgn {

// ---------------------------------------------------------------------------------------------
// [SECTION] Between games and the tag section
// ---------------------------------------------------------------------------------------------

namespace {
// A table: a tag name is scanned a byte at a time, a dozen names a game.
constexpr std::array<bool, 256> kEndsTagName = [] {
  std::array<bool, 256> ends{};
  for (unsigned char c : {'"', ' ', '\t', ']', '[', '\n', '\r'}) ends[c] = true;
  return ends;
}();

constexpr bool ends_tag_name(char c) {
  return kEndsTagName[static_cast<unsigned char>(c)];
}
}  // namespace

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
        last_tag_line_ = line_;  // even a broken tag is no blank line
        if (const char* after = read_whole_tag(p, end)) {
          p = after;
          continue;
        }
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

// The commonest tag, `[Name "Value"]` whole in this chunk, without an escape, an error or a
// limit, read in one go and handed out as views; anything else (nullptr) goes through the
// states, which read it the same way.
const char* Parser::read_whole_tag(const char* bracket, const char* end) {
  const char* p = bracket + 1;
  const char* const name = p;
  while (p < end && !ends_tag_name(*p)) ++p;
  const auto name_size = static_cast<std::size_t>(p - name);
  if (name_size == 0 || name_size > options_.max_token_length) return nullptr;
  while (p < end && (*p == ' ' || *p == '\t')) ++p;
  if (p == end || *p != '"') return nullptr;
  const char* const value = ++p;
  p = find_tag_value_stop(p, end);
  const auto value_size = static_cast<std::size_t>(p - value);
  if (p == end || *p != '"' || value_size > options_.max_tag_value_length) return nullptr;
  ++p;
  while (p < end && (*p == ' ' || *p == '\t')) ++p;
  if (p == end || *p != ']') return nullptr;
  deliver_tag(std::string_view(name, name_size), std::string_view(value, value_size));
  return p + 1;
}

const char* Parser::on_tag_name(const char* p, const char* end) {
  if (tag_name_.empty() && !tag_name_overflow_) {
    while (p < end && (*p == ' ' || *p == '\t')) ++p;  // "[ Event" is tolerated
  }
  const char* q = p;
  while (q < end && !ends_tag_name(*q)) ++q;
  const auto size = static_cast<std::size_t>(q - p);
  if (tag_name_overflow_ || tag_name_.size() + size > options_.max_token_length) {
    tag_name_overflow_ = true;  // keep skipping, stop buffering
  } else {
    tag_name_.append(p, size);
  }
  if (q == end) return q;
  const char c = *q;
  if (c == ']' || c == '[' || is_newline(c)) return tag_line_error(q, "malformed tag");
  if (tag_name_overflow_) return tag_line_error(q, "tag name too long");
  if (tag_name_.empty()) return tag_line_error(q, "tag without a name");
  tag_value_.clear();
  tag_value_overflow_ = false;
  state_ = c == '"' ? State::kTagValue : State::kTagBeforeValue;
  return q + 1;
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
  deliver_tag(tag_name_, tag_value_);
}

void Parser::deliver_tag(std::string_view name, std::string_view value) {
  last_tag_line_ = line_;
  if (tags_ >= options_.max_tags) {
    if (tags_ == options_.max_tags) {
      limit_error(tag_start_, "more than ", options_.max_tags, " tags, the rest dropped", false);
    }
    ++tags_;
    return;
  }
  ++tags_;
  visitor_.tag(name, value);
}

}  // namespace materialist::pgn
