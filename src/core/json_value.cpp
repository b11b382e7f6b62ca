#include "core/json_value.h"

#include <cmath>
#include <cstdlib>
#include <optional>

namespace materialist {

JsonValue JsonValue::boolean(bool flag) {
  JsonValue out;
  out.type_ = Type::kBool;
  out.bool_ = flag;
  return out;
}

JsonValue JsonValue::number(double number) {
  JsonValue out;
  out.type_ = Type::kNumber;
  out.number_ = number;
  return out;
}

JsonValue JsonValue::string(std::string text) {
  JsonValue out;
  out.type_ = Type::kString;
  out.string_ = std::move(text);
  return out;
}

JsonValue JsonValue::array(Array items) {
  JsonValue out;
  out.type_ = Type::kArray;
  out.array_ = std::move(items);
  return out;
}

JsonValue JsonValue::object(Object entries) {
  JsonValue out;
  out.type_ = Type::kObject;
  out.object_ = std::move(entries);
  return out;
}

std::size_t JsonValue::size() const {
  if (type_ == Type::kArray) return array_.size();
  if (type_ == Type::kObject) return object_.size();
  return 0;
}

const JsonValue& JsonValue::operator[](std::size_t index) const {
  static const JsonValue kNullValue;  // a constant: what a missing element reads as
  return index < array_.size() ? array_[index] : kNullValue;
}

const JsonValue* JsonValue::find(std::string_view key) const {
  for (auto it = object_.rbegin(); it != object_.rend(); ++it) {
    if (it->first == key) return &it->second;
  }
  return nullptr;
}

JsonValue& JsonValue::push_back(JsonValue item) {
  array_.push_back(std::move(item));
  return array_.back();
}

JsonValue& JsonValue::add(std::string key, JsonValue value) {
  object_.emplace_back(std::move(key), std::move(value));
  return object_.back().second;
}

bool JsonValue::operator==(const JsonValue& other) const {
  if (type_ != other.type_) return false;
  switch (type_) {
    case Type::kNull:
      return true;
    case Type::kBool:
      return bool_ == other.bool_;
    case Type::kNumber:
      return number_ == other.number_;
    case Type::kString:
      return string_ == other.string_;
    case Type::kArray:
      return array_ == other.array_;
    case Type::kObject:
      return object_ == other.object_;
  }
  return false;
}

namespace {

void append_utf8(std::string& out, std::uint32_t code_point) {
  if (code_point < 0x80) {
    out += static_cast<char>(code_point);
  } else if (code_point < 0x800) {
    out += static_cast<char>(0xC0 | (code_point >> 6));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
  } else if (code_point < 0x10000) {
    out += static_cast<char>(0xE0 | (code_point >> 12));
    out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code_point >> 18));
    out += static_cast<char>(0x80 | ((code_point >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
  }
}

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  Expected<JsonValue> document() {
    JsonValue value;
    skip_whitespace();
    if (std::optional<Error> error = parse_value(value, 0)) return *error;
    skip_whitespace();
    if (pos_ != text_.size()) return fail("unexpected text after the value");
    return value;
  }

 private:
  bool at_end() const { return pos_ >= text_.size(); }
  unsigned char peek() const { return static_cast<unsigned char>(text_[pos_]); }

  Error fail(std::string_view what, ErrorCode code = ErrorCode::kSyntax) const {
    std::string message = "json: ";
    message += what;
    message += " at byte " + std::to_string(pos_);
    return make_error(code, std::move(message));
  }
  // At the end of the text every error is the same one: the document was cut short.
  Error fail_here(std::string_view what) const {
    return at_end() ? fail("unexpected end of text") : fail(what);
  }

  void skip_whitespace() {
    while (!at_end()) {
      const unsigned char c = peek();
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return;
      ++pos_;
    }
  }

  bool consume_literal(std::string_view literal) {
    if (text_.substr(pos_, literal.size()) != literal) return false;
    pos_ += literal.size();
    return true;
  }

  std::optional<Error> parse_value(JsonValue& out, int depth) {
    if (at_end()) return fail("unexpected end of text");
    switch (peek()) {
      case '{':
        return parse_object(out, depth + 1);
      case '[':
        return parse_array(out, depth + 1);
      case '"': {
        std::string text;
        if (std::optional<Error> error = parse_string(text)) return error;
        out = JsonValue::string(std::move(text));
        return std::nullopt;
      }
      case 't':
        if (!consume_literal("true")) break;
        out = JsonValue::boolean(true);
        return std::nullopt;
      case 'f':
        if (!consume_literal("false")) break;
        out = JsonValue::boolean(false);
        return std::nullopt;
      case 'n':
        if (!consume_literal("null")) break;
        out = JsonValue();
        return std::nullopt;
      default:
        if (peek() == '-' || (peek() >= '0' && peek() <= '9')) return parse_number(out);
        break;
    }
    // A literal cut short ("tru" at the end) is a truncation, anything else a bad token.
    for (std::string_view literal : {"true", "false", "null"}) {
      const std::string_view rest = text_.substr(pos_);
      if (rest.size() < literal.size() && literal.substr(0, rest.size()) == rest) {
        pos_ = text_.size();
        return fail("unexpected end of text");
      }
    }
    return fail("expected a value");
  }

  std::optional<Error> parse_array(JsonValue& out, int depth) {
    if (depth > kJsonMaxDepth) {
      return fail("containers nested deeper than " + std::to_string(kJsonMaxDepth),
                  ErrorCode::kLimit);
    }
    ++pos_;  // '['
    JsonValue::Array items;
    skip_whitespace();
    if (!at_end() && peek() == ']') {
      ++pos_;
      out = JsonValue::array(std::move(items));
      return std::nullopt;
    }
    while (true) {
      skip_whitespace();
      JsonValue item;
      if (std::optional<Error> error = parse_value(item, depth)) return error;
      items.push_back(std::move(item));
      skip_whitespace();
      if (at_end() || (peek() != ',' && peek() != ']')) return fail_here("expected ',' or ']'");
      if (text_[pos_++] == ']') break;
    }
    out = JsonValue::array(std::move(items));
    return std::nullopt;
  }

  std::optional<Error> parse_object(JsonValue& out, int depth) {
    if (depth > kJsonMaxDepth) {
      return fail("containers nested deeper than " + std::to_string(kJsonMaxDepth),
                  ErrorCode::kLimit);
    }
    ++pos_;  // '{'
    JsonValue::Object entries;
    skip_whitespace();
    if (!at_end() && peek() == '}') {
      ++pos_;
      out = JsonValue::object(std::move(entries));
      return std::nullopt;
    }
    while (true) {
      skip_whitespace();
      if (at_end() || peek() != '"') return fail_here("expected a string key");
      std::string key;
      if (std::optional<Error> error = parse_string(key)) return error;
      skip_whitespace();
      if (at_end() || peek() != ':') return fail_here("expected ':'");
      ++pos_;
      skip_whitespace();
      JsonValue value;
      if (std::optional<Error> error = parse_value(value, depth)) return error;
      entries.emplace_back(std::move(key), std::move(value));
      skip_whitespace();
      if (at_end() || (peek() != ',' && peek() != '}')) return fail_here("expected ',' or '}'");
      if (text_[pos_++] == '}') break;
    }
    out = JsonValue::object(std::move(entries));
    return std::nullopt;
  }

  // Four hex digits after "\u".
  std::optional<std::uint32_t> hex4() {
    std::uint32_t value = 0;
    for (int i = 0; i < 4; ++i) {
      if (at_end()) return std::nullopt;
      const unsigned char c = peek();
      std::uint32_t digit = 0;
      if (c >= '0' && c <= '9') {
        digit = c - '0';
      } else if (c >= 'a' && c <= 'f') {
        digit = c - 'a' + 10;
      } else if (c >= 'A' && c <= 'F') {
        digit = c - 'A' + 10;
      } else {
        return std::nullopt;
      }
      value = value * 16 + digit;
      ++pos_;
    }
    return value;
  }

  // Length of the well-formed UTF-8 sequence at pos_ (RFC 3629: no overlong forms, no
  // surrogates, nothing above U+10FFFF), or 0.
  std::size_t utf8_length() const {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text_[pos_ + k]); };
    const unsigned char lead = byte(0);
    std::size_t length = 0;
    unsigned char low = 0x80, high = 0xBF;  // the range of the second byte
    if (lead >= 0xC2 && lead <= 0xDF) {
      length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      length = 3;
      if (lead == 0xE0) low = 0xA0;
      if (lead == 0xED) high = 0x9F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      length = 4;
      if (lead == 0xF0) low = 0x90;
      if (lead == 0xF4) high = 0x8F;
    } else {
      return 0;
    }
    if (pos_ + length > text_.size()) return 0;
    if (byte(1) < low || byte(1) > high) return 0;
    for (std::size_t k = 2; k < length; ++k) {
      if ((byte(k) & 0xC0) != 0x80) return 0;
    }
    return length;
  }

  std::optional<Error> parse_string(std::string& out) {
    ++pos_;  // '"'
    while (true) {
      if (at_end()) return fail("unexpected end of text");
      const unsigned char c = peek();
      if (c == '"') {
        ++pos_;
        return std::nullopt;
      }
      if (c < 0x20) return fail("control character in a string");
      if (c >= 0x80) {
        const std::size_t length = utf8_length();
        if (length == 0) return fail("invalid UTF-8");
        out.append(text_.substr(pos_, length));
        pos_ += length;
        continue;
      }
      if (c != '\\') {
        out += static_cast<char>(c);
        ++pos_;
        continue;
      }
      const std::size_t escape_at = pos_;
      ++pos_;
      if (at_end()) return fail("unexpected end of text");
      const char kind = text_[pos_++];
      switch (kind) {
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case '/':
          out += '/';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          std::optional<std::uint32_t> unit = hex4();
          if (!unit) return bad_escape(escape_at);
          std::uint32_t code_point = *unit;
          if (code_point >= 0xDC00 && code_point <= 0xDFFF) {
            pos_ = escape_at;
            return fail("lone low surrogate");
          }
          if (code_point >= 0xD800 && code_point <= 0xDBFF) {
            const std::size_t low_at = pos_;
            std::optional<std::uint32_t> low;
            if (text_.substr(pos_, 2) == "\\u") {
              pos_ += 2;
              low = hex4();
            }
            if (!low || *low < 0xDC00 || *low > 0xDFFF) {
              pos_ = low_at;
              return fail("high surrogate without a low surrogate");
            }
            code_point = 0x10000 + ((code_point - 0xD800) << 10) + (*low - 0xDC00);
          }
          append_utf8(out, code_point);
          break;
        }
        default:
          return bad_escape(escape_at);
      }
    }
  }

  std::optional<Error> bad_escape(std::size_t escape_at) {
    if (pos_ >= text_.size()) return fail("unexpected end of text");
    pos_ = escape_at;
    return fail("invalid escape");
  }

  bool digit() const { return !at_end() && peek() >= '0' && peek() <= '9'; }

  std::optional<Error> parse_number(JsonValue& out) {
    const std::size_t start = pos_;
    if (peek() == '-') ++pos_;
    if (!digit()) return fail_here("expected a digit");
    if (peek() == '0') {
      ++pos_;
      if (digit()) return fail("leading zero");
    } else {
      while (digit()) ++pos_;
    }
    if (!at_end() && peek() == '.') {
      ++pos_;
      if (!digit()) return fail_here("expected a digit after '.'");
      while (digit()) ++pos_;
    }
    if (!at_end() && (peek() == 'e' || peek() == 'E')) {
      ++pos_;
      if (!at_end() && (peek() == '+' || peek() == '-')) ++pos_;
      if (!digit()) return fail_here("expected a digit in the exponent");
      while (digit()) ++pos_;
    }
    const std::string token(text_.substr(start, pos_ - start));
    char* end = nullptr;
    const double number = std::strtod(token.c_str(), &end);
    if (end != token.c_str() + token.size()) {
      pos_ = start;
      return fail("invalid number");
    }
    if (!std::isfinite(number)) {
      pos_ = start;
      return fail("number out of range");
    }
    out = JsonValue::number(number);
    return std::nullopt;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

}  // namespace

Expected<JsonValue> parse_json(std::string_view text) {
  return Parser(text).document();
}

}  // namespace materialist
