#include "play/value_set.h"

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "core/json_value.h"
#include "core/text.h"

namespace materialist::play {

namespace {

constexpr double kMaxValue = 100000;
constexpr std::array<const char*, learn::kPieceKinds> kPieceWords = {"pawn", "knight", "bishop",
                                                                     "rook", "queen"};

Error invalid(std::string message) {
  return make_error(ErrorCode::kInvalidArgument, std::move(message));
}

Expected<PieceValues> parse_piece_values(std::string_view text) {
  std::vector<std::string_view> fields;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    fields.push_back(text.substr(start, comma == std::string_view::npos ? comma : comma - start));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  if (fields.size() != learn::kPieceKinds) {
    return invalid("values '" + std::string(text) +
                   "': five numbers P,N,B,R,Q are needed (for example 100,300,300,500,900), or a "
                   "named set: " +
                   named_value_set_list());
  }
  PieceValues values{};
  for (int piece = 0; piece < learn::kPieceKinds; ++piece) {
    const auto number = parse_real(fields[piece]);
    if (!number) {
      return invalid("values '" + std::string(text) + "': the " + kPieceWords[piece] + "'s '" +
                     std::string(trim(fields[piece])) + "' is not a number");
    }
    if (*number < 0) {
      return invalid("values '" + std::string(text) + "': the " + kPieceWords[piece] +
                     " cannot be worth less than nothing");
    }
    if (*number > kMaxValue) {
      return invalid("values '" + std::string(text) + "': the " + kPieceWords[piece] + " is over " +
                     std::to_string(static_cast<int>(kMaxValue)));
    }
    values[piece] = static_cast<int>(std::lround(*number));
  }
  if (values[learn::kPawnIndex] == 0) {
    return invalid("values '" + std::string(text) +
                   "': a pawn of 0 leaves nothing to measure the pieces by");
  }
  return values;
}

// `fit --model squares --json`'s tables, in its unit, rescaled so that the material-only
// model's pawn is 100 (already so in centipawns).
Expected<ValueSet> square_set_from_fit_json(const JsonValue& document, const JsonValue& squares,
                                            std::string name) {
  if (!squares.is_object()) {
    const JsonValue* error = document.find("squaresError");
    const JsonValue* message = error != nullptr ? error->find("message") : nullptr;
    return invalid("the fit has no tables" + (message != nullptr && message->is_string()
                                                  ? ": " + message->as_string()
                                                  : std::string()));
  }
  const JsonValue* material = document.find("squaresMaterial");
  const JsonValue* pawn = material != nullptr ? material->find("P") : nullptr;
  if (pawn == nullptr || !pawn->is_number() || !(pawn->as_number() > 0)) {
    return invalid(
        "the fit's \"squaresMaterial\" has no positive pawn to scale its tables by (refit "
        "with more games)");
  }
  const double scale = 100 / pawn->as_number();
  SquareValues values;
  constexpr std::array<const char*, kSquarePieceTypes> kLetters = {"P", "N", "B", "R", "Q", "K"};
  for (const char* phase : {"mg", "eg"}) {
    const JsonValue* tables = squares.find(phase);
    if (tables == nullptr || !tables->is_object()) {
      return invalid(std::string("the fit's \"squares\" lack \"") + phase + "\"");
    }
    auto& out = std::string_view(phase) == "mg" ? values.middlegame : values.endgame;
    for (int type = 0; type < kSquarePieceTypes; ++type) {
      const JsonValue* table = tables->find(kLetters[type]);
      if (table == nullptr || !table->is_array() || table->size() != 64) {
        return invalid(std::string("the fit's \"squares\".") + phase + "." + kLetters[type] +
                       " is not 64 numbers");
      }
      for (int square = 0; square < 64; ++square) {
        const JsonValue& item = (*table)[static_cast<std::size_t>(square)];
        if (!item.is_number() || !std::isfinite(item.as_number()) ||
            std::fabs(item.as_number() * scale) > kMaxValue) {
          return invalid(std::string("the fit's \"squares\".") + phase + "." + kLetters[type] +
                         "[" + std::to_string(square) + "] is not a value to play with");
        }
        out[type][square] = static_cast<int>(std::lround(item.as_number() * scale));
      }
    }
  }
  ValueSet set = square_value_set(std::move(name), values);
  if (set.name.empty()) set.name = default_name(set);
  return set;
}

}  // namespace

std::string named_value_set_list() {
  std::string list;
  for (const NamedValueSet& named : kNamedValueSets) {
    if (!list.empty()) list += ", ";
    list += named.name;
  }
  return list;
}

std::string ValueSet::values_text() const {
  std::string text;
  for (int piece = 0; piece < learn::kPieceKinds; ++piece) {
    if (piece > 0) text += ',';
    text += std::to_string(middlegame[piece]);
    // A set of tables tapers by its squares: its means show as pairs only when they differ.
    if (middlegame != endgame) text += '/' + std::to_string(endgame[piece]);
  }
  if (squares) text += " + squares";
  return text;
}

ValueSet square_value_set(std::string name, const SquareValues& squares) {
  ValueSet set;
  set.name = std::move(name);
  for (int type = 0; type < learn::kPieceKinds; ++type) {
    const int first = type == learn::kPawnIndex ? 8 : 0;
    const int last = type == learn::kPawnIndex ? 56 : 64;
    double middlegame = 0;
    double endgame = 0;
    for (int square = first; square < last; ++square) {
      middlegame += squares.middlegame[type][square];
      endgame += squares.endgame[type][square];
    }
    set.middlegame[type] = static_cast<int>(std::lround(middlegame / (last - first)));
    set.endgame[type] = static_cast<int>(std::lround(endgame / (last - first)));
  }
  set.squares = squares;
  return set;
}

std::string fallback_text(const ValueSet& set) {
  std::string text;
  for (int piece = 0; piece < learn::kPieceKinds; ++piece) {
    if ((set.fallback_pieces & (1u << piece)) == 0) continue;
    if (!text.empty()) text += ", ";
    text += std::string(kPieceWords[piece]) + ' ' + std::to_string(set.middlegame[piece]);
    if (set.tapered()) text += '/' + std::to_string(set.endgame[piece]);
  }
  return text;
}

std::string default_name(const ValueSet& set) {
  if (set.squares) return set.squares == simplified::square_values() ? "simplified" : "squares";
  for (const NamedValueSet& named : kNamedValueSets) {
    if (!set.tapered() && !named.simplified_tables && set.middlegame == named.values &&
        set.bishop_pair_middlegame == 0 && set.bishop_pair_endgame == 0 &&
        set.imbalance == decltype(set.imbalance){}) {
      return named.name;
    }
  }
  std::string name;
  for (int piece = 0; piece < learn::kPieceKinds; ++piece) {
    if (piece > 0) name += '-';
    name += std::to_string(set.middlegame[piece]);
  }
  return name;
}

Expected<ValueSet> parse_value_set(std::string_view text) {
  text = trim(text);
  ValueSet set;
  std::string_view values = text;
  // "NAME:P,N,B,R,Q": the part before the colon names the set.
  if (const std::size_t colon = text.find(':'); colon != std::string_view::npos) {
    set.name = std::string(trim(text.substr(0, colon)));
    values = trim(text.substr(colon + 1));
    if (set.name.empty())
      return invalid("values '" + std::string(text) + "': the name before ':' is empty");
  }
  for (const NamedValueSet& named : kNamedValueSets) {
    if (values == named.name) {
      std::string name = set.name.empty() ? named.name : set.name;
      if (named.simplified_tables) return square_value_set(name, simplified::square_values());
      set.middlegame = set.endgame = named.values;
      set.name = std::move(name);
      return set;
    }
  }
  if (values.find(',') == std::string_view::npos && !parse_real(values)) {
    return invalid("values '" + std::string(text) + "': no set of that name (named sets: " +
                   named_value_set_list() + "), and not five numbers P,N,B,R,Q");
  }
  auto pieces = parse_piece_values(values);
  if (!pieces) return pieces.error();
  set.middlegame = set.endgame = *pieces;
  if (set.name.empty()) set.name = default_name(set);
  return set;
}

Expected<ValueSet> value_set_from_fit_json(std::string_view json, std::string name,
                                           const ValueSet* fallback) {
  auto document = parse_json(json);
  if (!document)
    return invalid("not the output of `materialist fit --json`: " + document.error().message);
  if (const JsonValue* squares = document->find("squares")) {
    return square_set_from_fit_json(*document, *squares, std::move(name));
  }
  const JsonValue* values = document->find("values");
  if (values == nullptr || !values->is_object()) {
    return invalid(
        "no \"values\" object: not the output of `materialist fit --json` (a compare's "
        "output holds several fits: save one with fit --json)");
  }
  auto number = [&](std::string_view key) -> std::optional<double> {
    const JsonValue* value = values->find(key);
    if (value == nullptr || !value->is_number()) return std::nullopt;
    return value->as_number();
  };
  ValueSet set;
  set.name = std::move(name);
  const bool phased = number("pawn-mg").has_value();
  for (int piece = 0; piece < learn::kPieceKinds; ++piece) {
    const std::string word = kPieceWords[piece];
    auto middlegame = phased ? number(word + "-mg") : number(std::string(1, "PNBRQ"[piece]));
    auto endgame = phased ? number(word + "-eg") : middlegame;
    if (fallback != nullptr && (!middlegame || !endgame)) {
      if (!middlegame) middlegame = fallback->middlegame[piece];
      if (!endgame) endgame = fallback->endgame[piece];
      // The pawn is the unit (100 whatever the fit): only the pieces are named.
      if (piece != learn::kPawnIndex) set.fallback_pieces |= 1u << piece;
    }
    if (!middlegame || !endgame) {
      return invalid("the fit's \"values\" lack the " + word + (phased ? "'s phases" : ""));
    }
    if (*middlegame <= 0 || *endgame <= 0 || *middlegame > kMaxValue || *endgame > kMaxValue) {
      return invalid("the fit gives the " + word + " a value of " +
                     std::to_string(std::lround(
                         *middlegame <= 0 || *middlegame > kMaxValue ? *middlegame : *endgame)) +
                     ": a set to play with needs every piece worth something (refit with more "
                     "games or fewer terms)");
    }
    set.middlegame[piece] = static_cast<int>(std::lround(*middlegame));
    set.endgame[piece] = static_cast<int>(std::lround(*endgame));
  }
  if (const auto pair = number("bishop-pair")) {
    set.bishop_pair_middlegame = set.bishop_pair_endgame = static_cast<int>(std::lround(*pair));
  }
  for (int term = 0; term < learn::kImbalanceTerms; ++term) {
    if (const auto value = number(learn::kImbalanceNames[term])) {
      set.imbalance[term] = static_cast<int>(std::lround(*value));
    }
  }
  if (set.name.empty()) set.name = default_name(set);
  return set;
}

}  // namespace materialist::play
