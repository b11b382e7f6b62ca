// Share links: only the settings that differ from their preset's, short and exact, and read back
// (with web/page.js's rules: dotted names nest, eachFilter repeats, true/false and numbers typed
// except for preset, filter and eachFilter) into the same settings.
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>

#include "app/share_link.h"
#include "core/json_value.h"
#include "protocol/codec.h"

namespace materialist::app {
namespace {

std::string unescape(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size()) {
      out += static_cast<char>(std::strtol(text.substr(i + 1, 2).c_str(), nullptr, 16));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

JsonValue typed(const std::string& key, const std::string& text) {
  if (key == "preset" || key == "filter") return JsonValue::string(text);
  if (text == "true" || text == "false") return JsonValue::boolean(text == "true");
  char* end = nullptr;
  const double number = std::strtod(text.c_str(), &end);
  if (!text.empty() && end == text.c_str() + text.size()) return JsonValue::number(number);
  return JsonValue::string(text);
}

// The page's reading of a link's parameters, as a settings object.
protocol::Settings read_back(const std::string& query) {
  JsonValue root = JsonValue::object();
  JsonValue model = JsonValue::object(), quiet = JsonValue::object();
  JsonValue each = JsonValue::array();
  bool has_model = false, has_quiet = false, has_each = false;
  std::size_t start = 0;
  while (start < query.size()) {
    std::size_t end = query.find('&', start);
    if (end == std::string::npos) end = query.size();
    const std::string part = query.substr(start, end - start);
    const std::size_t eq = part.find('=');
    const std::string key = unescape(part.substr(0, eq)), text = unescape(part.substr(eq + 1));
    if (key.rfind("model.", 0) == 0) {
      model.add(key.substr(6), typed(key.substr(6), text));
      has_model = true;
    } else if (key.rfind("quiet.", 0) == 0) {
      quiet.add(key.substr(6), typed(key.substr(6), text));
      has_quiet = true;
    } else if (key == "eachFilter") {
      if (!text.empty()) each.push_back(JsonValue::string(text));
      has_each = true;
    } else {
      root.add(key, typed(key, text));
    }
    start = end + 1;
  }
  if (has_model) root.add("model", model);
  if (has_quiet) root.add("quiet", quiet);
  if (has_each) root.add("eachFilter", each);
  protocol::Settings out;
  REQUIRE_FALSE(protocol::read(root, out));
  return out;
}

TEST_CASE("share link: the default settings need no parameter") {
  CHECK(share_link_query(protocol::Settings{}) == "");
}

TEST_CASE("share link: only what differs, nested names dotted, numbers as typed") {
  protocol::Settings s;
  s.units = protocol::Units::kElo;
  s.fit.step = 0.3;
  s.fit.model.outcomes = learn::OutcomeModel::kOrdinal;
  s.read.filter = "elo=1500-;tc=blitz,rapid";
  s.read.max_megabytes = 2.5;
  const std::string query = share_link_query(s);
  CHECK(query.find("units=elo") != std::string::npos);
  CHECK(query.find("step=0.3&") != std::string::npos);  // not 0.29999999999999999
  CHECK(query.find("model.outcomes=ordinal") != std::string::npos);
  CHECK(query.find("filter=elo%3D1500-%3Btc%3Dblitz,rapid") != std::string::npos);
  CHECK(query.find("maxMegabytes=2.5") != std::string::npos);
  CHECK(query.find("lambda") == std::string::npos);  // the default 1e-6
  CHECK(query.find('{') == std::string::npos);
  CHECK(query.size() < 120);
  CHECK(read_back(query) == s);
}

TEST_CASE("share link: a preset's own values are left out, edits to them kept") {
  protocol::Settings s;
  const protocol::Preset* exact = protocol::find_preset("exact");
  REQUIRE(exact != nullptr);
  s.fit = exact->fit;
  s.read.unknown = exact->unknown;
  CHECK(share_link_query(s) == "preset=exact");
  s.fit.lambda = 1e-4;
  s.read.datasets = protocol::DatasetMode::kPerFilter;
  s.read.each_filter = {"tc=blitz", "tc=rapid"};
  const std::string query = share_link_query(s);
  CHECK(query.find("lambda=0.0001") != std::string::npos);
  CHECK(query.find("eachFilter=tc%3Dblitz&eachFilter=tc%3Drapid") != std::string::npos);
  CHECK(read_back(query) == s);
}

TEST_CASE("share link: the evaluation target is carried as target=eval and read back") {
  protocol::Settings s;
  CHECK(share_link_query(s).find("target") == std::string::npos);  // the result: the default
  s.read.target = learn::Target::kEval;
  const std::string query = share_link_query(s);
  CHECK(query == "target=eval");
  CHECK(read_back(query) == s);
  s.fit.preset = "exact";
  CHECK(read_back(share_link_query(s)).read.target == learn::Target::kEval);
}

}  // namespace
}  // namespace materialist::app
