#pragma once
// Reading the worker's JSON messages: a field's text (shared by the message handlers and the
// play-test state).

#include <string>
#include <string_view>

#include "core/json_value.h"

namespace materialist::app {

// The string field `key` of a message, or "" when it is missing or not a string.
inline std::string text_of(const JsonValue& message, std::string_view key) {
  const JsonValue* field = message.find(key);
  return field != nullptr && field->is_string() ? field->as_string() : std::string();
}

}  // namespace materialist::app
