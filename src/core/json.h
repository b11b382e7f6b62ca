// A small streaming JSON writer: the CLI's --json output and the worker's messages share it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace materialist {

class JsonWriter {
 public:
  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  // Writes an object key; the next value call supplies its value.
  JsonWriter& key(std::string_view name);

  JsonWriter& value(std::string_view text);
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  JsonWriter& value(double number);
  JsonWriter& value(std::int64_t number);
  JsonWriter& value(std::uint64_t number);
  JsonWriter& value(int number) { return value(static_cast<std::int64_t>(number)); }
  JsonWriter& value(bool flag);
  JsonWriter& null();

  // Shorthand for key(name).value(v).
  template <typename T>
  JsonWriter& field(std::string_view name, const T& v) {
    key(name);
    return value(v);
  }

  const std::string& str() const { return out_; }
  std::string take() { return std::move(out_); }

 private:
  void separate();

  std::string out_;
  std::vector<bool> first_in_scope_;  // one entry per open object/array
  bool after_key_ = false;
};

// Escapes text for a JSON string literal (without the quotes). Invalid UTF-8 bytes become U+FFFD
// so Latin-1 tags from old PGN files never produce invalid JSON.
std::string json_escape(std::string_view text);

}  // namespace materialist
