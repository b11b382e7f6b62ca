// A value set under test: what the engine's evaluation counts for material. The piece values
// (pawn = 100 centipawns), optionally tapered between middlegame and endgame, and the other terms
// a fit can give (bishop pair, the learn module's imbalance terms). Only this differs between the
// engines of a match; the positional part of the evaluation is the same for every set.
//
//   parse_value_set("100,300,300,500,900")         // P,N,B,R,Q
//   parse_value_set("classic")                      // a named set (kNamedValueSets)
//   parse_value_set("mine:100,289,346,480,1078")    // a name for tables and PGN tags
//   parse_value_set("simplified")                   // Michniewski's values and tables
//   value_set_from_fit_json(text)                   // `materialist fit --json`'s output (with
//                                                   // --model squares: its tables)
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "core/error.h"
#include "learn/vocabulary/imbalance.h"
#include "learn/vocabulary/material.h"
#include "play/square_values.h"

namespace materialist::play {

using PieceValues = std::array<int, learn::kPieceKinds>;  // P N B R Q, centipawns

struct ValueSet {
  std::string name;
  PieceValues middlegame{100, 300, 300, 500, 900};
  PieceValues endgame{100, 300, 300, 500, 900};
  int bishop_pair_middlegame = 0;
  int bishop_pair_endgame = 0;
  // Centipawns per unit of each learn::ImbalanceTerm (White's term minus Black's).
  std::array<int, learn::kImbalanceTerms> imbalance{};
  // The pieces (bit 1 << piece) a fit could not identify, whose values are a fallback's: said
  // wherever the set is shown, never silent.
  unsigned fallback_pieces = 0;
  // A set of piece-square tables: the evaluation's whole material and positional part. Then
  // middlegame and endgame hold the tables' means (what tables, move ordering and the material
  // breakdown show), and the pair and imbalance terms are zero.
  std::optional<SquareValues> squares;

  bool tapered() const { return middlegame != endgame || squares.has_value(); }
  // "100,300,300,500,900", or "mg/eg" pairs per piece when tapered; a set of tables adds
  // " + squares" to its means.
  std::string values_text() const;
  bool operator==(const ValueSet&) const = default;
};

struct NamedValueSet {
  const char* name;
  PieceValues values;
  const char* source;
  // The set plays with Michniewski's tables as its own (play/square_values.h).
  bool simplified_tables = false;
};

// Reference sets: the textbook's, Kaufman's, the four versions of the founding article's engine
// in its match-tournament (12.5, a, b, c), and a published piece-square set.
inline constexpr std::array<NamedValueSet, 8> kNamedValueSets = {{
    {"classic", {100, 300, 300, 500, 900}, "the textbook 1-3-3-5-9"},
    {"kaufman",
     {100, 325, 325, 500, 975},
     "Larry Kaufman, 'The Evaluation of Material Imbalances'"},
    {"article-12.5", {100, 400, 400, 600, 1200}, "the article's engine, version 12.5"},
    {"article-a", {100, 300, 300, 500, 900}, "the article's engine, version a"},
    {"article-b", {100, 320, 330, 500, 900}, "the article's engine, version b"},
    {"article-c", {100, 325, 325, 550, 1100}, "the article's engine, version c"},
    {"learned-sample",
     {100, 289, 346, 480, 1078},
     "fitted on the bundled sample (OpenRating.pgn, default preset)"},
    {"simplified",
     {100, 320, 330, 500, 900},
     "Tomasz Michniewski, 'Simplified Evaluation Function' (values and piece-square tables, "
     "Chess Programming Wiki)",
     true},
}};

// A set of piece-square tables (whole values, centipawns) named `name`, with their means as its
// piece values (a pawn's over ranks 2 to 7, where pawns stand).
ValueSet square_value_set(std::string name, const SquareValues& squares);

// Reads "P,N,B,R,Q" (integers or decimals, rounded to centipawns), a named set, or
// "NAME:P,N,B,R,Q". Errors (kInvalidArgument): not five numbers, a pawn of 0, a negative value,
// a value over 100000, an unknown name.
Expected<ValueSet> parse_value_set(std::string_view text);

// Reads the values of one fit from `materialist fit --json` output. With `--model squares`, its
// tables ("squares", rescaled to centipawns by "squaresMaterial"'s pawn; an error when the fit
// has none). Otherwise "values" {P, N, B, R, Q} or,
// with --phase, their middlegame and endgame columns, the bishop pair and imbalance terms when
// fitted. Values are rescaled so the pawn is 100 (a fit in Elo or log-odds units included).
// With `fallback`, a piece the fit could not identify (a null value: too few games with that
// imbalance) keeps the fallback's value instead of being an error, and is marked in
// `fallback_pieces`.
Expected<ValueSet> value_set_from_fit_json(std::string_view json, std::string name,
                                           const ValueSet* fallback = nullptr);

// The pieces that took a fallback value, with it: "knight 300, queen 900" ("" when none).
std::string fallback_text(const ValueSet& set);

// The named sets' names, comma-separated (for messages and --help).
std::string named_value_set_list();

// A short default name: the named set's, else "P-N-B-R-Q".
std::string default_name(const ValueSet& set);

}  // namespace materialist::play
