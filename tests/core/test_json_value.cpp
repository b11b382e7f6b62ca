#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/json.h"
#include "core/json_value.h"

using materialist::ErrorCode;
using materialist::Expected;
using materialist::JsonValue;
using materialist::JsonWriter;
using materialist::parse_json;

namespace {

// The error of a text that must not parse ("" when it parsed).
std::string error_of(std::string_view text) {
  const Expected<JsonValue> json = parse_json(text);
  return json ? std::string() : json.error().message;
}

}  // namespace

TEST_CASE("json value parses every kind of value with its accessors") {
  const Expected<JsonValue> json = parse_json(
      R"( {"n": null, "t": true, "f": false, "x": -12.5e1, "s": "a\"b", "a": [1, [2], {}],
          "o": {"k": "v"}} )");
  REQUIRE(json.ok());
  CHECK(json->is_object());
  CHECK(json->size() == 7);
  CHECK(json->find("n")->is_null());
  CHECK(json->find("t")->as_bool());
  CHECK(json->find("f")->is_bool());
  CHECK_FALSE(json->find("f")->as_bool());
  CHECK(json->find("x")->as_number() == -125.0);
  CHECK(json->find("s")->as_string() == "a\"b");
  const JsonValue& a = *json->find("a");
  REQUIRE(a.is_array());
  CHECK(a.size() == 3);
  CHECK(a[0].as_number() == 1);
  CHECK(a[1][0].as_number() == 2);
  CHECK(a[2].is_object());
  CHECK(a[2].size() == 0);
  CHECK(a[3].is_null());  // out of range: null, not a crash
  CHECK(json->find("o")->find("k")->as_string() == "v");
  CHECK(json->find("missing") == nullptr);
  CHECK(a.find("k") == nullptr);  // not an object
  // Entries keep their order.
  std::vector<std::string> keys;
  for (const auto& [key, value] : json->entries()) keys.push_back(key);
  CHECK(keys == std::vector<std::string>{"n", "t", "f", "x", "s", "a", "o"});
  CHECK(a.items().size() == 3);
  // Accessors of another type give the empty value.
  CHECK(json->find("s")->as_number() == 0);
  CHECK(json->find("x")->as_string().empty());
  CHECK(json->find("x")->items().empty());
}

TEST_CASE("json value find returns the last of duplicate keys, as JSON.parse") {
  const Expected<JsonValue> json = parse_json(R"({"a": 1, "a": 2})");
  REQUIRE(json.ok());
  CHECK(json->size() == 2);
  CHECK(json->find("a")->as_number() == 2);
}

TEST_CASE("json value round trips the writer's output, doubles exactly") {
  const std::vector<double> numbers = {0.0,
                                       -0.0,
                                       1.0,
                                       -1.5,
                                       0.1,
                                       1.0 / 3.0,
                                       2.0 / 3.0,
                                       1e-6,
                                       123456789.123456789,
                                       6.02214076e23,
                                       std::numeric_limits<double>::max(),
                                       std::numeric_limits<double>::min(),
                                       std::numeric_limits<double>::denorm_min(),
                                       std::nextafter(1.0, 2.0),
                                       100.0 * 3.05 / 0.9};
  JsonWriter writer;
  writer.begin_object().key("numbers").begin_array();
  for (double x : numbers) writer.value(x);
  writer.end_array();
  writer.field("text", "quote \" backslash \\ tab \t newline \n bell \x07 Grünfeld ♞");
  writer.field("count", std::uint64_t{9007199254740992}).field("ok", false);
  writer.key("none").null().end_object();

  const Expected<JsonValue> json = parse_json(writer.str());
  REQUIRE(json.ok());
  const JsonValue& parsed = *json->find("numbers");
  REQUIRE(parsed.size() == numbers.size());
  for (std::size_t i = 0; i < numbers.size(); ++i) {
    CAPTURE(i);
    CHECK(parsed[i].as_number() == numbers[i]);
    CHECK(std::signbit(parsed[i].as_number()) == std::signbit(numbers[i]));
  }
  CHECK(json->find("text")->as_string() ==
        "quote \" backslash \\ tab \t newline \n bell \x07 Grünfeld ♞");
  CHECK(json->find("count")->as_number() == 9007199254740992.0);
  CHECK(json->find("ok")->is_bool());
  CHECK(json->find("none")->is_null());
}

TEST_CASE("json value decodes escapes and surrogate pairs into UTF-8") {
  const Expected<JsonValue> json =
      parse_json(R"(["\"\\\/\b\f\n\r\t", "\u0041\u00e9\u20AC", "\ud83d\ude00", "\u0000x"])");
  REQUIRE(json.ok());
  CHECK((*json)[0].as_string() == "\"\\/\b\f\n\r\t");
  CHECK((*json)[1].as_string() == "A\xC3\xA9\xE2\x82\xAC");  // A é €
  CHECK((*json)[2].as_string() == "\xF0\x9F\x98\x80");       // U+1F600
  CHECK((*json)[3].as_string() == std::string("\0x", 2));
  // Raw UTF-8 passes through unchanged.
  const Expected<JsonValue> raw = parse_json("\"Gr\xC3\xBCnfeld \xF0\x9F\x98\x80\"");
  REQUIRE(raw.ok());
  CHECK(raw->as_string() == "Gr\xC3\xBCnfeld \xF0\x9F\x98\x80");
}

TEST_CASE("json value accepts every top-level value and surrounding whitespace") {
  CHECK(parse_json("0")->as_number() == 0);
  CHECK(parse_json(" \t\r\n-0.5e-3 \n")->as_number() == -0.0005);
  CHECK(parse_json("1E+2")->as_number() == 100);
  CHECK(parse_json("\"\"")->as_string().empty());
  CHECK(parse_json("null")->is_null());
  CHECK(parse_json("[ ]")->is_array());
  CHECK(parse_json("{ }")->is_object());
  CHECK(parse_json("1e-400")->as_number() == 0);  // underflow reads as zero
}

TEST_CASE("json value refuses invalid texts with the byte offset") {
  CHECK(error_of("[1,2,]") == "json: expected a value at byte 5");
  CHECK(error_of(R"({"a":1,})") == "json: expected a string key at byte 7");
  CHECK(error_of("01") == "json: leading zero at byte 1");
  CHECK(error_of("-01") == "json: leading zero at byte 2");
  CHECK(error_of("\"a\tb\"") == "json: control character in a string at byte 2");
  CHECK(error_of(R"("\x")") == "json: invalid escape at byte 1");
  CHECK(error_of(R"("\u12G4")") == "json: invalid escape at byte 1");
  CHECK(error_of(R"("\udc00")") == "json: lone low surrogate at byte 1");
  CHECK(error_of(R"("\ud800x")") == "json: high surrogate without a low surrogate at byte 7");
  CHECK(error_of(R"("\ud800\u0041")") == "json: high surrogate without a low surrogate at byte 7");
  CHECK(error_of("[1 2]") == "json: expected ',' or ']' at byte 3");
  CHECK(error_of(R"({"a" 1})") == "json: expected ':' at byte 5");
  CHECK(error_of("{1:2}") == "json: expected a string key at byte 1");
  CHECK(error_of("1 2") == "json: unexpected text after the value at byte 2");
  CHECK(error_of("") == "json: unexpected end of text at byte 0");
  CHECK(error_of("   ") == "json: unexpected end of text at byte 3");
  CHECK(error_of("nul") == "json: unexpected end of text at byte 3");
  CHECK(error_of("nulx") == "json: expected a value at byte 0");
  CHECK(error_of("True") == "json: expected a value at byte 0");
  CHECK(error_of("'a'") == "json: expected a value at byte 0");
  CHECK(error_of("NaN") == "json: expected a value at byte 0");
  CHECK(error_of("Infinity") == "json: expected a value at byte 0");
  CHECK(error_of("+1") == "json: expected a value at byte 0");
  CHECK(error_of(".5") == "json: expected a value at byte 0");
  CHECK(error_of("1.") == "json: unexpected end of text at byte 2");
  CHECK(error_of("1.e5") == "json: expected a digit after '.' at byte 2");
  CHECK(error_of("1e") == "json: unexpected end of text at byte 2");
  CHECK(error_of("1e+x") == "json: expected a digit in the exponent at byte 3");
  CHECK(error_of("-") == "json: unexpected end of text at byte 1");
  CHECK(error_of("1e400") == "json: number out of range at byte 0");
  CHECK(error_of("[0x10]") == "json: expected ',' or ']' at byte 2");
  CHECK(error_of("\xEF\xBB\xBF{}") == "json: expected a value at byte 0");  // no BOM
  CHECK(error_of(std::string_view("{}\0", 3)) == "json: unexpected text after the value at byte 2");
  CHECK(error_of("[1]//") == "json: unexpected text after the value at byte 3");
}

TEST_CASE("json value refuses invalid UTF-8 in strings") {
  CHECK(error_of("\"\xFF\"") == "json: invalid UTF-8 at byte 1");
  CHECK(error_of("\"\xC3\"") == "json: invalid UTF-8 at byte 1");              // cut short
  CHECK(error_of("\"\xC0\xAF\"") == "json: invalid UTF-8 at byte 1");          // overlong '/'
  CHECK(error_of("\"\xE0\x80\xAF\"") == "json: invalid UTF-8 at byte 1");      // overlong
  CHECK(error_of("\"\xED\xA0\x80\"") == "json: invalid UTF-8 at byte 1");      // a surrogate
  CHECK(error_of("\"\xF4\x90\x80\x80\"") == "json: invalid UTF-8 at byte 1");  // > U+10FFFF
  CHECK(error_of("\"\xE2\x82\"") == "json: invalid UTF-8 at byte 1");
}

TEST_CASE("json value reports every truncation of a document as an error") {
  const std::string text =
      R"({"a": [1, -2.5e-3, true, false, null, "x\u00e9\ud83d\ude00y"], "b": {"c": {}}})";
  REQUIRE(parse_json(text).ok());
  for (std::size_t n = 0; n < text.size(); ++n) {
    CAPTURE(n);
    const Expected<JsonValue> json = parse_json(std::string_view(text).substr(0, n));
    // Every prefix is incomplete except a lone number at the start, and none is "1" here.
    REQUIRE_FALSE(json.ok());
    CHECK(json.error().code == ErrorCode::kSyntax);
  }
}

TEST_CASE("json value refuses nesting deeper than 256 with a limit error") {
  const auto nested = [](int depth, char open, char close) {
    return std::string(static_cast<std::size_t>(depth), open) +
           std::string(static_cast<std::size_t>(depth), close);
  };
  CHECK(parse_json(nested(materialist::kJsonMaxDepth, '[', ']')).ok());
  const Expected<JsonValue> deep = parse_json(nested(materialist::kJsonMaxDepth + 1, '[', ']'));
  REQUIRE_FALSE(deep.ok());
  CHECK(deep.error().code == ErrorCode::kLimit);
  CHECK(deep.error().message == "json: containers nested deeper than 256 at byte 256");
  // Far deeper (a hostile input) fails the same way, without exhausting the stack.
  CHECK(parse_json(nested(100000, '[', ']')).error().code == ErrorCode::kLimit);
  std::string objects;
  for (int i = 0; i < 300; ++i) objects += "{\"a\":";
  CHECK(parse_json(objects).error().code == ErrorCode::kLimit);
}

TEST_CASE("json value compares by type and contents and builds documents") {
  JsonValue built = JsonValue::object();
  built.add("a", JsonValue::number(1));
  JsonValue& list = built.add("b", JsonValue::array());
  list.push_back(JsonValue::string("x"));
  list.push_back(JsonValue::boolean(true));
  list.push_back(JsonValue());
  CHECK(built == *parse_json(R"({"a":1,"b":["x",true,null]})"));
  CHECK(built != *parse_json(R"({"b":["x",true,null],"a":1})"));  // order matters
  CHECK(JsonValue::number(0) != JsonValue::boolean(false));
  CHECK(JsonValue() == JsonValue());
}
