// A play-test as a link (#play&set=...): the form written as URL parameters and read back.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>

#include "app/play_state.h"
#include "core/text.h"

namespace materialist::app {
namespace {

// Percent-encodes a link parameter's value (letters, digits and -_.~,: stay).
std::string encode_component(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || c == '-' || c == '_' || c == '.' || c == '~' || c == ',' || c == ':') {
      out += c;
    } else {
      out += '%';
      out += kHex[u >> 4];
      out += kHex[u & 15];
    }
  }
  return out;
}

std::string decode_component(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() &&
        std::isxdigit(static_cast<unsigned char>(text[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(text[i + 2]))) {
      out += static_cast<char>(std::stoi(std::string(text.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    } else {
      out += text[i] == '+' ? ' ' : text[i];
    }
  }
  return out;
}

std::string number_text(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

}  // namespace

bool carries_learned_tables(const play::ValueSet& set) {
  return set.squares && set.squares != play::simplified::square_values();
}

std::string play_link(const PlayForm& form) {
  std::string link = "play";
  for (const PlayCandidate& candidate : form.candidates) {
    if (!candidate.chosen || carries_learned_tables(candidate.set)) continue;
    bool named = false;
    for (const play::NamedValueSet& set : play::kNamedValueSets) {
      const bool same_values = set.simplified_tables
                                   ? candidate.set.squares == play::simplified::square_values()
                                   : !candidate.set.squares &&
                                         candidate.set.middlegame == set.values &&
                                         candidate.set.endgame == set.values;
      if (candidate.set.name == set.name && same_values) {
        named = true;
      }
    }
    const std::string text = named ? candidate.set.name : candidate.set.name + ":" + [&] {
      std::string values;
      for (const int v : candidate.set.middlegame) {
        values += (values.empty() ? "" : ",") + std::to_string(v);
      }
      return values;
    }();
    link += "&set=" + encode_component(text);
  }
  if (form.by_depth) {
    link += "&depth=" + std::to_string(form.depth);
  } else {
    link += "&nodes=" + std::to_string(form.nodes);
  }
  link += "&pairs=" + std::to_string(form.pairs);
  link += "&seed=" + std::to_string(form.seed);
  if (form.round_robin) link += "&rr=1";
  if (form.sprt) link += "&sprt=" + number_text(form.elo0) + "," + number_text(form.elo1);
  return link;
}

std::optional<Error> read_play_link(PlayForm& form, std::string_view query) {
  if (!query.empty() && query.front() == '#') query.remove_prefix(1);
  PlayForm out = form;
  std::vector<play::ValueSet> sets;
  bool saw_play = false;
  while (!query.empty()) {
    const std::size_t amp = query.find('&');
    const std::string_view part = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    const std::size_t eq = part.find('=');
    const std::string key(part.substr(0, eq));
    const std::string value =
        eq == std::string_view::npos ? std::string() : decode_component(part.substr(eq + 1));
    auto number = [&](double lo, double hi) -> std::optional<double> {
      const auto v = parse_real(value);
      if (!v || !(*v >= lo && *v <= hi)) return std::nullopt;
      return v;
    };
    auto bad = [&] { return make_error(ErrorCode::kInvalidArgument, "play link: bad " + key); };
    if (key == "play") {
      saw_play = true;
    } else if (key == "set") {
      auto set = play::parse_value_set(value);
      if (!set) return make_error(ErrorCode::kInvalidArgument, "play link: " + set.error().message);
      if (set->name.empty()) set->name = play::default_name(*set);
      sets.push_back(*set);
    } else if (key == "nodes") {
      const auto v = number(1, 1e9);
      if (!v) return bad();
      out.by_depth = false;
      out.nodes = static_cast<int>(*v);
    } else if (key == "depth") {
      const auto v = number(1, 30);
      if (!v) return bad();
      out.by_depth = true;
      out.depth = static_cast<int>(*v);
    } else if (key == "pairs") {
      const auto v = number(1, 100000);
      if (!v) return bad();
      out.pairs = static_cast<int>(*v);
    } else if (key == "seed") {
      const auto v = number(0, 9007199254740992.0);
      if (!v) return bad();
      out.seed = static_cast<std::uint64_t>(*v);
    } else if (key == "rr") {
      out.round_robin = value == "1" || value == "true";
    } else if (key == "sprt") {
      const std::size_t comma = value.find(',');
      if (comma == std::string::npos) return bad();
      const auto elo0 = parse_real(std::string_view(value).substr(0, comma));
      const auto elo1 = parse_real(std::string_view(value).substr(comma + 1));
      if (!elo0 || !elo1) return bad();
      out.elo0 = *elo0;
      out.elo1 = *elo1;
      out.sprt = true;
    }
  }
  if (!saw_play) return make_error(ErrorCode::kInvalidArgument, "not a play link");
  if (sets.size() < 2) return make_error(ErrorCode::kInvalidArgument, "play link: two sets needed");
  for (PlayCandidate& candidate : out.candidates) candidate.chosen = false;
  // The link's sets in its order, first; the others stay offered, not chosen.
  std::vector<PlayCandidate> candidates;
  for (const play::ValueSet& set : sets) {
    // An offered set keeps its source and origin; one only the link names is "from the link".
    PlayCandidate chosen;
    chosen.set = set;
    chosen.source = "from the link";
    chosen.chosen = true;
    for (const PlayCandidate& candidate : out.candidates) {
      if (candidate.set == set) {
        chosen = candidate;
        chosen.chosen = true;
      }
    }
    candidates.push_back(std::move(chosen));
  }
  for (const PlayCandidate& candidate : out.candidates) {
    if (std::none_of(sets.begin(), sets.end(), [&](const auto& s) { return s == candidate.set; }))
      candidates.push_back(candidate);
  }
  out.candidates = std::move(candidates);
  form = std::move(out);
  return std::nullopt;
}

}  // namespace materialist::app
