// Values for the codec tests (test_codec_settings.cpp, test_codec_results.cpp,
// test_codec_decoding.cpp): every message with every field away from its default, and the
// round-trip checks.
#pragma once

#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <string_view>

#include "core/json_value.h"
#include "protocol/codec.h"
#include "protocol/messages.h"

namespace materialist::protocol::samples {

// ---- values with every field away from its default ----

inline ReadOptions full_read_options() {
  ReadOptions r;
  r.unknown = learn::UnknownResultPolicy::kSkip;
  r.filter = "elo=1500-;tc=blitz,rapid;exclude_termination=Time forfeit";
  r.quiet.quiet_plies = 3;
  r.quiet.checks_break_quiet = false;
  r.quiet.distinct_per_game = false;
  r.quiet.skip_first_plies = 8;
  r.bootstrap = 200;
  r.seed = 42;
  r.datasets = DatasetMode::kPerFilter;
  r.each_filter = {"tc=blitz", "tc=rapid"};
  r.max_games = 5000;
  r.max_megabytes = 250.5;
  r.keep = {true, false, true, true};
  r.keep_rows = true;
  r.hash_files = true;
  return r;
}

inline FitSettings full_fit_settings() {
  FitSettings f;
  f.preset = "custom";
  f.solver = learn::SolverKind::kNewton;
  f.step = 0.25;
  f.iterations = 123;
  f.lambda = 1e-3;
  f.draws = learn::DrawHandling::kHalfPoint;
  f.model.outcomes = learn::OutcomeModel::kOrdinal;
  f.model.intercept = true;
  f.model.bishop_pair = true;
  f.model.phase = true;
  f.model.elo_offset = true;
  f.model.side_to_move = true;
  return f;
}

inline Settings full_settings() {
  Settings s;
  s.fit = full_fit_settings();
  s.read = full_read_options();
  // A share link carries no engine switches: they keep their defaults.
  s.read.keep = learn::KeyFields::none();
  s.read.keep_rows = false;
  s.read.hash_files = false;
  s.units = Units::kLogOdds;
  return s;
}

inline Snapshot full_snapshot() {
  Snapshot s;
  s.iteration = 250;
  s.dataset = 1;
  s.columns = {"pawn", "knight", "bishop", "rook", "queen", "bishop-pair"};
  s.theta = {0.1, 0.3, 0.31, 0.5, 0.9, 0.05};
  s.values = {100, 300.5, 310.25, 500, 900, 50};
  s.value_se = {0, 1.5, 1.25, 2, 4, 0.75};
  s.loss = 0.6123456789;
  s.gradient_norm = 1.25e-9;
  return s;
}

inline Progress full_progress() {
  Progress p;
  p.bytes = 1048576;
  p.total_bytes = 8388608;
  p.games = 1000;
  p.used = 900;
  p.partial = 7;
  p.skipped = 3;
  p.rows = 45678;
  p.mb_per_s = 41.5;
  p.eta_s = 2.75;
  p.file = "lichess.pgn";
  p.file_index = 1;
  p.file_count = 2;
  return p;
}

inline DataReport full_report() {
  DataReport r;
  r.games = 1000;
  r.used = 900;
  r.partial = 7;
  r.skipped = 3;
  r.filtered = 90;
  r.rows = 45678;
  r.draw_rows = 10000;
  r.decisive_rows = 35678;
  r.white_win_rows = 18000;
  r.black_win_rows = 17678;
  r.distinct_rows = 1234;
  r.plies = 80000;
  r.bytes = 8388608;
  r.seconds = 0.5;
  r.mb_per_s = 16.75;
  r.files = {"a.pgn", "b.pgn"};
  r.file_errors = {"c.txt: not PGN"};
  r.issues = {{"a.pgn", 120, 4, "skipped, illegal-move: Nf9 (3 rows kept)"},
              {"b.pgn", 7, 1, "partial, missing-move"}};
  r.issue_total = 10;
  r.filtered_by = {{"elo", 60}, {"time-control", 30}};
  r.datasets = {{"tc=blitz", 500, 450, 40, 20000}, {"tc=rapid", 500, 450, 50, 25678}};
  return r;
}

inline Balance full_balance() {
  Balance b;
  b.bins = {{-2, 10, 20, 30}, {0, 100, 200, 100}, {3, 40, 5, 1}};
  b.alpha = 0.625;
  return b;
}

inline Coefficient full_coefficient(const char* name) {
  Coefficient c;
  c.name = name;
  c.label = std::string("Label of ") + name;
  c.identified = false;
  c.value = 310.5;
  c.value_se = 2.5;
  c.value_se_model = 1.75;
  c.elo = 55.25;
  c.elo_se = 0.5;
  c.theta = 0.875;
  c.theta_se = 0.0125;
  c.theta_se_model = 0.01;
  c.low = 305.0;
  c.high = 316.0;
  return c;
}

inline Fit full_fit(const char* name) {
  Fit f;
  f.name = name;
  f.games = 500;
  f.used = 450;
  f.rows = 20000;
  f.decisive_rows = 15000;
  f.state = "warnings";
  f.error = "too few decisive rows";
  f.warnings = {{"near-singular", "The bishop pair is nearly constant."},
                {"not-converged", "Gradient descent stopped early."}};
  f.errors = "game-clustered";
  f.clusters = 450;
  f.loss = 0.59375;
  f.iterations = 7;
  f.converged = false;
  f.replicates = 200;
  f.failed_replicates = 2;
  f.bootstrap_error = "2 replicates failed";
  f.coefficients = {full_coefficient("bishop"), full_coefficient("draw-margin")};
  f.relations = {{"B > N", 10.5, 2.25, "holds", false},
                 {"B + N = R + 1.5P", -3, 4, "undecided", true}};
  f.curve = {{-10, 0.01, 0.09, 0.9}, {0, 0.375, 0.25, 0.375}};
  f.sides = {{"knight", true, 312.5, 12.25, 350, 14.5, -37.5, 9.75, 0.5, 0.03125, 0.5625, 0.0390625,
              -0.0625, 0.015625, 0.0078125},
             {"queen", false, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0.25}};
  f.balance = full_balance();
  return f;
}

inline Difference full_difference() {
  Difference d;
  d.a = 0;
  d.b = 2;
  d.contrast = "B-N";
  d.diff = 12.5;
  d.se = 3.25;
  d.p = 0.0125;
  d.bootstrap_p = 0.02;
  return d;
}

inline FitBegin full_fit_begin() {
  FitBegin b;
  b.solver = learn::SolverKind::kNewton;
  b.preset = "article";
  b.planned = 12;
  b.reason = "the rating offset needs Newton";
  return b;
}

inline FitDone full_fit_done() {
  FitDone d;
  d.reason = "cancelled";
  d.fits = {full_fit("tc=blitz"), full_fit("tc=rapid")};
  d.differences = {full_difference()};
  d.snapshot = full_snapshot();
  return d;
}

inline Estimate full_estimate() {
  Estimate e;
  e.games = 321;
  e.rows = 9876;
  e.bytes = 4194304;
  e.fits = {full_fit("all")};
  return e;
}

// encode → decode gives the value back.
template <typename T>
void check_round_trip(const T& value) {
  const std::string text = encode(value);
  CAPTURE(text);
  const Expected<T> back = decode<T>(text);
  REQUIRE_MESSAGE(back.ok(), (back.ok() ? "" : back.error().message));
  CHECK(*back == value);
  CHECK(encode(*back) == text);
}

// message() → the value, read from the message (the value's fields beside "type").
template <typename T>
void check_message_round_trip(const T& value, const char* type) {
  const std::string text = message(value);
  CAPTURE(text);
  const Expected<JsonValue> json = parse_json(text);
  REQUIRE(json.ok());
  CHECK(message_type(*json) == type);
  REQUIRE(!json->entries().empty());
  CHECK(json->entries().front().first == "type");
  T back;
  const std::optional<Error> error = read(*json, back);
  REQUIRE_MESSAGE(!error, (error ? error->message : ""));
  CHECK(back == value);
}

// The error of decoding text as T ("" when it decoded).
template <typename T>
std::string decode_error(std::string_view text) {
  const Expected<T> out = decode<T>(text);
  return out ? std::string() : out.error().message;
}

}  // namespace materialist::protocol::samples
