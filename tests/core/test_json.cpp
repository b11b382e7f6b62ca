#include <doctest/doctest.h>

#include "core/error.h"
#include "core/json.h"

using materialist::JsonWriter;

TEST_CASE("json writer nests objects and arrays with commas in the right places") {
  JsonWriter json;
  json.begin_object().field("games", 3).key("values").begin_array();
  json.value(100.0).value(288.5);
  json.end_array().field("name", "a\"b").field("ok", true).key("none").null().end_object();
  CHECK(json.str() == R"({"games":3,"values":[100,288.5],"name":"a\"b","ok":true,"none":null})");
}

TEST_CASE("json escape keeps UTF-8, replaces invalid bytes and escapes control characters") {
  CHECK(materialist::json_escape("Gr\xC3\xBCnfeld") == "Gr\xC3\xBCnfeld");
  CHECK(materialist::json_escape("Gr\xFCnfeld") == "Gr\xEF\xBF\xBDnfeld");  // Latin-1 ü
  CHECK(materialist::json_escape("a\tb\x01") == "a\\tb\\u0001");
}

TEST_CASE("json writes non-finite numbers as null") {
  JsonWriter json;
  json.begin_array().value(1.0 / 0.0).end_array();
  CHECK(json.str() == "[null]");
}

TEST_CASE("expected holds a value or an error") {
  materialist::Expected<int> good = 7;
  materialist::Expected<int> bad = materialist::make_error(materialist::ErrorCode::kSyntax, "no");
  CHECK(good.ok());
  CHECK(*good == 7);
  CHECK_FALSE(bad.ok());
  CHECK(std::string(materialist::error_code_name(bad.error().code)) == "syntax");
}
