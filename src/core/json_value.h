// A parsed JSON document (RFC 8259) and its strict parser: the reading half of core/json.h.
//
//   Expected<JsonValue> json = parse_json(R"({"games": 3, "files": ["a.pgn"]})");
//   if (!json) return json.error();                    // "json: ... at byte 12"
//   if (const JsonValue* games = json->find("games"); games && games->is_number()) ...
//   for (const auto& [key, value] : json->entries()) ...
//
// Numbers are doubles (as in JavaScript); object keys keep their order (and duplicates, of which
// find() returns the last, as JSON.parse does).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.h"

namespace materialist {

class JsonValue {
 public:
  enum class Type : std::uint8_t { kNull, kBool, kNumber, kString, kArray, kObject };
  using Array = std::vector<JsonValue>;
  using Entry = std::pair<std::string, JsonValue>;
  using Object = std::vector<Entry>;

  JsonValue() = default;  // null
  static JsonValue boolean(bool flag);
  static JsonValue number(double number);
  static JsonValue string(std::string text);
  static JsonValue array(Array items = {});
  static JsonValue object(Object entries = {});

  Type type() const { return type_; }
  bool is_null() const { return type_ == Type::kNull; }
  bool is_bool() const { return type_ == Type::kBool; }
  bool is_number() const { return type_ == Type::kNumber; }
  bool is_string() const { return type_ == Type::kString; }
  bool is_array() const { return type_ == Type::kArray; }
  bool is_object() const { return type_ == Type::kObject; }

  // The value, or false / 0 / "" when it is of another type.
  bool as_bool() const { return bool_; }
  double as_number() const { return number_; }
  const std::string& as_string() const { return string_; }

  // Elements of an array or entries of an object; 0 for anything else.
  std::size_t size() const;
  // The array's element `index`, or a null value when out of range (or not an array).
  const JsonValue& operator[](std::size_t index) const;
  // The object's (last) value under `key`, or nullptr (also when not an object).
  const JsonValue* find(std::string_view key) const;
  // The array's elements / the object's entries in document order (empty for other types).
  const Array& items() const { return array_; }
  const Object& entries() const { return object_; }

  // Building: appends to an array / an object (the value must already be of that type).
  JsonValue& push_back(JsonValue item);
  JsonValue& add(std::string key, JsonValue value);

  // Same type and contents (numbers with ==, so NaN never equals; entries in order).
  bool operator==(const JsonValue& other) const;
  bool operator!=(const JsonValue& other) const { return !(*this == other); }

 private:
  Type type_ = Type::kNull;
  bool bool_ = false;
  double number_ = 0;
  std::string string_;
  Array array_;
  Object object_;
};

// Containers nested deeper than this are refused (kLimit) instead of exhausting the stack.
inline constexpr int kJsonMaxDepth = 256;

// Parses exactly one JSON value surrounded by optional whitespace. Strict: UTF-8 only (no BOM),
// no trailing commas, no leading zeros, no control characters or invalid escapes in strings, no
// lone surrogates, numbers that fit a double. Errors (kSyntax, or kLimit for nesting) name the
// byte offset: "json: expected ',' or ']' at byte 17".
Expected<JsonValue> parse_json(std::string_view text);

}  // namespace materialist
