#include "app/share_link.h"

#include <algorithm>
#include <optional>

#include "core/json.h"
#include "core/json_value.h"
#include "learn/filter/bands.h"
#include "protocol/codec.h"

namespace materialist::app {
namespace {

// Percent-encodes all but the characters a fragment keeps readable.
std::string escape(const std::string& text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const unsigned char c : text) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '-' || c == '_' || c == '.' || c == '~' || c == ',' || c == '*' ||
                       c == ':';
    if (plain) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

// A scalar's text: numbers through the writer (the shortest text that reads back exactly).
std::string scalar_text(const JsonValue& value) {
  if (value.is_string()) return value.as_string();
  if (value.is_bool()) return value.as_bool() ? "true" : "false";
  JsonWriter json;
  json.value(value.as_number());
  return json.take();
}

void add(std::string& query, const std::string& key, const std::string& text) {
  if (!query.empty()) query += '&';
  query += escape(key);
  query += '=';
  query += escape(text);
}

// Appends every field of `value` that differs from `baseline` (null: no baseline).
void diff(std::string& query, const std::string& prefix, const JsonValue& value,
          const JsonValue* baseline) {
  std::vector<std::string> seen;  // the writer may repeat a key (the model): first one wins
  for (const auto& [key, field] : value.entries()) {
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
    seen.push_back(key);
    const JsonValue* base = baseline != nullptr ? baseline->find(key) : nullptr;
    if (base != nullptr && *base == field) continue;
    const std::string name = prefix + key;
    if (field.is_object()) {
      diff(query, name + ".", field, base);
    } else if (field.is_array()) {
      // An empty list that differs is written as one empty entry.
      if (field.items().empty()) add(query, name, "");
      for (const JsonValue& item : field.items()) add(query, name, scalar_text(item));
    } else if (!field.is_null()) {
      add(query, name, scalar_text(field));
    }
  }
}

}  // namespace

std::string share_link_query(const protocol::Settings& given) {
  // A comparison by rating band or speed is one word ("compare=elo:200"), not a dozen filters.
  std::optional<std::string> compare;
  if (given.read.datasets == protocol::DatasetMode::kPerFilter)
    compare = learn::band_spec_of(given.read.each_filter, given.read.filter);
  protocol::Settings settings = given;
  if (compare) {
    settings.read.datasets = protocol::DatasetMode::kMerge;
    settings.read.each_filter.clear();
  }
  const Expected<JsonValue> full = parse_json(protocol::encode(settings));
  // What a link naming only the preset restores: the baseline of every other field.
  JsonValue preset_only = JsonValue::object();
  preset_only.add("preset", JsonValue::string(settings.fit.preset));
  protocol::Settings from_preset;
  if (protocol::read(preset_only, from_preset)) return {};
  const Expected<JsonValue> baseline = parse_json(protocol::encode(from_preset));
  if (!full || !baseline) return {};
  std::string query;
  if (settings.fit.preset != protocol::Settings{}.fit.preset)
    add(query, "preset", settings.fit.preset);
  diff(query, "", *full, &*baseline);
  if (compare) add(query, "compare", *compare);
  return query;
}

bool expand_compare(protocol::Settings& settings, std::string_view spec) {
  const Expected<std::vector<std::string>> filters =
      learn::band_filters(spec, settings.read.filter);
  if (!filters) return false;
  settings.read.datasets = protocol::DatasetMode::kPerFilter;
  settings.read.each_filter = *filters;
  return true;
}

}  // namespace materialist::app
