#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/json_value.h"
#include "protocol/codec.h"
#include "protocol/messages.h"

namespace materialist::protocol {
namespace {

// ---- values with every field away from its default ----

ReadOptions full_read_options() {
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
  r.keep_rating = true;
  r.keep_rows = false;
  r.hash_files = true;
  return r;
}

FitSettings full_fit_settings() {
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

Settings full_settings() {
  Settings s;
  s.fit = full_fit_settings();
  s.read = full_read_options();
  // A share link carries no engine switches: they keep their defaults.
  s.read.keep_rating = false;
  s.read.keep_rows = true;
  s.read.hash_files = false;
  s.units = Units::kLogOdds;
  return s;
}

Snapshot full_snapshot() {
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

Progress full_progress() {
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

DataReport full_report() {
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
  r.kept_rows = 45000;
  r.rows_truncated = true;
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

Balance full_balance() {
  Balance b;
  b.bins = {{-2, 10, 20, 30}, {0, 100, 200, 100}, {3, 40, 5, 1}};
  b.alpha = 0.625;
  return b;
}

Coefficient full_coefficient(const char* name) {
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

Fit full_fit(const char* name) {
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
  f.balance = full_balance();
  return f;
}

Difference full_difference() {
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

FitBegin full_fit_begin() {
  FitBegin b;
  b.solver = learn::SolverKind::kNewton;
  b.preset = "article";
  b.planned = 12;
  b.reason = "the rating offset needs Newton";
  return b;
}

FitDone full_fit_done() {
  FitDone d;
  d.reason = "cancelled";
  d.fits = {full_fit("tc=blitz"), full_fit("tc=rapid")};
  d.differences = {full_difference()};
  d.snapshot = full_snapshot();
  return d;
}

Estimate full_estimate() {
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

}  // namespace

TEST_CASE("protocol enum wire names parse back and unknown names fail") {
  for (int i = 0; i <= static_cast<int>(DatasetMode::kPerFilter); ++i) {
    const auto value = static_cast<DatasetMode>(i);
    CHECK(parse_dataset_mode(wire_name(value)) == value);
  }
  for (int i = 0; i <= static_cast<int>(Units::kLogOdds); ++i) {
    const auto value = static_cast<Units>(i);
    CHECK(parse_units(wire_name(value)) == value);
  }
  for (int i = 0; i <= static_cast<int>(Phase::kError); ++i) {
    const auto value = static_cast<Phase>(i);
    CHECK(parse_phase(wire_name(value)) == value);
  }
  for (int i = 0; i <= static_cast<int>(learn::SolverKind::kNewton); ++i) {
    const auto value = static_cast<learn::SolverKind>(i);
    CHECK(parse_solver(wire_name(value)) == value);
  }
  for (int i = 0; i <= static_cast<int>(learn::DrawHandling::kHalfPoint); ++i) {
    const auto value = static_cast<learn::DrawHandling>(i);
    CHECK(parse_draws(wire_name(value)) == value);
  }
  for (int i = 0; i <= static_cast<int>(learn::UnknownResultPolicy::kTreatAsDraw); ++i) {
    const auto value = static_cast<learn::UnknownResultPolicy>(i);
    CHECK(parse_unknown(wire_name(value)) == value);
  }
  for (int i = 0; i <= static_cast<int>(learn::OutcomeModel::kOrdinal); ++i) {
    const auto value = static_cast<learn::OutcomeModel>(i);
    CHECK(parse_outcomes(wire_name(value)) == value);
  }
  // Today's wire names.
  CHECK(std::string(wire_name(DatasetMode::kPerFile)) == "per-file");
  CHECK(std::string(wire_name(Units::kLogOdds)) == "logodds");
  CHECK(std::string(wire_name(Phase::kFitting)) == "fitting");
  CHECK(std::string(wire_name(learn::SolverKind::kGradientDescent)) == "gd");
  CHECK(std::string(wire_name(learn::DrawHandling::kLeaveOut)) == "exclude");
  CHECK(std::string(wire_name(learn::DrawHandling::kHalfPoint)) == "half");
  CHECK(std::string(wire_name(learn::UnknownResultPolicy::kTreatAsDraw)) == "draw");
  CHECK(std::string(wire_name(learn::OutcomeModel::kDrawsOut)) == "draws-out");
  // Names are exact: no case folding, no other spellings.
  CHECK_FALSE(parse_dataset_mode("Merge"));
  CHECK_FALSE(parse_units("centipawn"));
  CHECK_FALSE(parse_phase(""));
  CHECK_FALSE(parse_solver("GD"));
  CHECK_FALSE(parse_draws("leave-out"));
  CHECK_FALSE(parse_unknown("as-draw"));
  CHECK_FALSE(parse_outcomes("binary"));
}

TEST_CASE("protocol read options compare every field and round trip") {
  const ReadOptions full = full_read_options();
  check_round_trip(full);
  CHECK(encode(full) ==
        R"({"unknown":"skip","filter":"elo=1500-;tc=blitz,rapid;exclude_termination=Time forfeit",)"
        R"("quiet":{"plies":3,"checksBreak":false,"distinct":false,"skipFirst":8},)"
        R"("bootstrap":200,"seed":42,"datasets":"per-filter","eachFilter":["tc=blitz","tc=rapid"],)"
        R"("keepRating":true,"keepRows":false,"hashFiles":true})");
  CHECK(full == full_read_options());
  CHECK_FALSE(full == ReadOptions{});
  // Each quiet field on its own makes a difference.
  ReadOptions other = full;
  other.quiet.quiet_plies = 4;
  CHECK_FALSE(other == full);
  other = full;
  other.quiet.checks_break_quiet = true;
  CHECK_FALSE(other == full);
  other = full;
  other.quiet.distinct_per_game = true;
  CHECK_FALSE(other == full);
  other = full;
  other.quiet.skip_first_plies = 0;
  CHECK_FALSE(other == full);
  other = full;
  other.hash_files = false;
  CHECK_FALSE(other == full);
}

TEST_CASE("protocol fit settings round trip") {
  check_round_trip(full_fit_settings());
  check_round_trip(FitSettings{});
}

TEST_CASE("protocol settings are one flat share-link object") {
  check_round_trip(full_settings());
  CHECK(encode(Settings{}) ==
        R"({"preset":"article","solver":"gd","step":1,"iterations":10000,"lambda":1e-06,)"
        R"("draws":"exclude","unknown":"draw","model":{"outcomes":"draws-out","intercept":false,)"
        R"("bishopPair":false,"phase":false,"eloOffset":false},"units":"pawn","bootstrap":0,)"
        R"("seed":1,"filter":"","quiet":{"plies":2,"checksBreak":true,"distinct":true,)"
        R"("skipFirst":0},"datasets":"merge","eachFilter":[]})");
  // The engine's switches are not settings: they are neither written nor read.
  Settings switches;
  switches.read.keep_rating = true;
  switches.read.keep_rows = false;
  switches.read.hash_files = true;
  CHECK(encode(switches) == encode(Settings{}));
  const Expected<Settings> ignored =
      decode<Settings>(R"({"keepRating":true,"keepRows":false,"hashFiles":true})");
  REQUIRE(ignored.ok());
  CHECK(*ignored == Settings{});
  // The message nests the settings under their type.
  CHECK(message(Settings{}) == R"({"type":"settings","settings":)" + encode(Settings{}) + "}");
}

TEST_CASE("protocol share link of the e2e test decodes into the settings") {
  // tests/e2e/run.mjs, 'a share link restores the settings', as JSON.stringify writes it.
  const char* shared =
      R"({"preset":"custom","solver":"newton","step":1,"iterations":10000,"lambda":0.000001,)"
      R"("draws":"half","unknown":"skip","model":{"outcomes":"ordinal","intercept":true,)"
      R"("bishopPair":true,"phase":false,"eloOffset":false},"units":"elo","bootstrap":200,)"
      R"("seed":1,"filter":"elo=1500-;tc=blitz,rapid;exclude_termination=Time forfeit",)"
      R"("quiet":{"plies":3,"checksBreak":false,"distinct":true,"skipFirst":8},)"
      R"("datasets":"per-filter","eachFilter":["tc=blitz","tc=rapid"]})";
  Settings expected;
  expected.fit.preset = "custom";
  expected.fit.solver = learn::SolverKind::kNewton;
  expected.fit.step = 1;
  expected.fit.iterations = 10000;
  expected.fit.lambda = 1e-6;
  expected.fit.draws = learn::DrawHandling::kHalfPoint;
  expected.fit.model.outcomes = learn::OutcomeModel::kOrdinal;
  expected.fit.model.intercept = true;
  expected.fit.model.bishop_pair = true;
  expected.read.unknown = learn::UnknownResultPolicy::kSkip;
  expected.units = Units::kElo;
  expected.read.bootstrap = 200;
  expected.read.seed = 1;
  expected.read.filter = "elo=1500-;tc=blitz,rapid;exclude_termination=Time forfeit";
  expected.read.quiet.quiet_plies = 3;
  expected.read.quiet.checks_break_quiet = false;
  expected.read.quiet.distinct_per_game = true;
  expected.read.quiet.skip_first_plies = 8;
  expected.read.datasets = DatasetMode::kPerFilter;
  expected.read.each_filter = {"tc=blitz", "tc=rapid"};
  const Expected<Settings> settings = decode<Settings>(shared);
  REQUIRE_MESSAGE(settings.ok(), (settings.ok() ? "" : settings.error().message));
  CHECK(*settings == expected);
  // Written back, the model and quiet objects are the link's (no sideToMove while it is off),
  // so the e2e test's JSON.stringify comparisons hold.
  const Expected<JsonValue> again = parse_json(encode(*settings));
  const Expected<JsonValue> original = parse_json(shared);
  REQUIRE(again.ok());
  REQUIRE(original.ok());
  CHECK(*again->find("model") == *original->find("model"));
  CHECK(*again->find("quiet") == *original->find("quiet"));
  CHECK(*again->find("eachFilter") == *original->find("eachFilter"));
}

TEST_CASE("protocol results round trip with every field set") {
  check_round_trip(full_snapshot());
  check_round_trip(full_progress());
  check_round_trip(full_report());
  check_round_trip(full_balance());
  check_round_trip(full_fit("all"));
  check_round_trip(full_difference());
  check_round_trip(full_fit_begin());
  check_round_trip(full_fit_done());
  check_round_trip(full_estimate());
  // And with every field at its default.
  check_round_trip(Snapshot{});
  check_round_trip(Progress{});
  check_round_trip(DataReport{});
  check_round_trip(Balance{});
  check_round_trip(Fit{});
  check_round_trip(Difference{});
  check_round_trip(FitBegin{});
  check_round_trip(FitDone{});
  check_round_trip(Estimate{});
}

TEST_CASE("protocol messages put the type first and nest the report") {
  check_message_round_trip(full_snapshot(), "snapshot");
  check_message_round_trip(full_progress(), "progress");
  check_message_round_trip(full_balance(), "balance");
  check_message_round_trip(full_fit_begin(), "fit-begin");
  check_message_round_trip(full_fit_done(), "fit-done");
  check_message_round_trip(full_estimate(), "estimate");

  const Expected<JsonValue> report = parse_json(message(full_report()));
  REQUIRE(report.ok());
  CHECK(message_type(*report) == "report");
  CHECK(report->size() == 2);
  REQUIRE(report->find("report") != nullptr);
  DataReport back;
  CHECK_FALSE(read(*report->find("report"), back));
  CHECK(back == full_report());

  CHECK(message(Balance{}) == R"({"type":"balance","bins":[],"alpha":null})");
  CHECK(message(FitBegin{}) == R"({"type":"fit-begin","solver":"gd","preset":"","planned":0})");
  CHECK(message_type(*parse_json("{}")).empty());
  CHECK(message_type(*parse_json(R"({"type":3})")).empty());
}

TEST_CASE("protocol report uses today's wire names") {
  const Expected<JsonValue> json = parse_json(encode(full_report()));
  REQUIRE(json.ok());
  std::vector<std::string> keys;
  for (const auto& [key, value] : json->entries()) keys.push_back(key);
  CHECK(keys == std::vector<std::string>{
                    "games",        "used",       "partial",      "skipped",       "filtered",
                    "rows",         "drawRows",   "decisiveRows", "whiteWinRows",  "blackWinRows",
                    "distinctRows", "plies",      "keptRows",     "rowsTruncated", "bytes",
                    "seconds",      "mbps",       "files",        "fileErrors",    "skippedGames",
                    "skippedTotal", "filteredBy", "datasets"});
  // filteredBy is an object keyed by reason, in order.
  const JsonValue& by = *json->find("filteredBy");
  REQUIRE(by.is_object());
  REQUIRE(by.size() == 2);
  CHECK(by.entries()[0].first == "elo");
  CHECK(by.entries()[0].second.as_number() == 60);
  CHECK(by.entries()[1].first == "time-control");
  const JsonValue& issue = (*json->find("skippedGames"))[0];
  CHECK(issue.find("line")->as_number() == 120);
  CHECK(issue.find("game")->as_number() == 4);
}

TEST_CASE("protocol omits empty optional fields") {
  const std::string snapshot = encode(Snapshot{});
  CHECK(snapshot.find("valueSe") == std::string::npos);
  CHECK(encode(full_snapshot()).find("\"valueSe\":[0,1.5,1.25,2,4,0.75]") != std::string::npos);
  CHECK(encode(DataReport{}).find("datasets") == std::string::npos);
  CHECK(encode(DataReport{}).find(R"("filteredBy":{})") != std::string::npos);
  const std::string fit = encode(Fit{});
  CHECK(fit.find("\"error\"") == std::string::npos);
  CHECK(fit.find("bootstrapError") == std::string::npos);
  CHECK(encode(full_fit("x")).find(R"("error":"too few decisive rows")") != std::string::npos);
  CHECK(encode(FitBegin{}).find("reason") == std::string::npos);
  CHECK(encode(FitDone{}).find("reason") == std::string::npos);
  CHECK(encode(full_fit_done()).find(R"("reason":"cancelled")") != std::string::npos);
  CHECK(encode(FitSettings{}).find("sideToMove") == std::string::npos);
  CHECK(encode(full_fit_settings()).find(R"("sideToMove":true)") != std::string::npos);
}

TEST_CASE("protocol writes non-finite numbers as null and reads them back as NaN") {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  constexpr double kInfinity = std::numeric_limits<double>::infinity();
  Coefficient c = full_coefficient("knight");
  c.value_se = kNaN;
  c.elo_se = kInfinity;
  c.theta_se_model = -kInfinity;
  c.low.reset();
  c.high = kNaN;
  Fit fit;
  fit.coefficients = {c};
  fit.loss = kNaN;
  fit.balance.alpha.reset();
  const std::string text = encode(fit);
  CAPTURE(text);
  CHECK(text.find(R"("valueSe":null)") != std::string::npos);
  CHECK(text.find(R"("eloSe":null)") != std::string::npos);
  CHECK(text.find(R"("thetaSeModel":null)") != std::string::npos);
  CHECK(text.find(R"("low":null,"high":null)") != std::string::npos);
  CHECK(text.find(R"("loss":null)") != std::string::npos);
  CHECK(text.find(R"("alpha":null)") != std::string::npos);
  const Expected<Fit> back = decode<Fit>(text);
  REQUIRE(back.ok());
  REQUIRE(back->coefficients.size() == 1);
  const Coefficient& b = back->coefficients[0];
  CHECK(std::isnan(b.value_se));
  CHECK(std::isnan(b.elo_se));  // infinities come back as NaN: JSON has neither
  CHECK(std::isnan(b.theta_se_model));
  CHECK_FALSE(b.low.has_value());   // an optional: null is empty
  CHECK_FALSE(b.high.has_value());  // NaN inside an optional is written as null too
  CHECK(b.value == c.value);
  CHECK(std::isnan(back->loss));
  CHECK_FALSE(back->balance.alpha.has_value());
  // Difference.bootstrapP and Snapshot numbers likewise.
  Difference d = full_difference();
  d.bootstrap_p.reset();
  d.se = kNaN;
  const Expected<Difference> d_back = decode<Difference>(encode(d));
  REQUIRE(d_back.ok());
  CHECK_FALSE(d_back->bootstrap_p.has_value());
  CHECK(std::isnan(d_back->se));
  Snapshot s = full_snapshot();
  s.values[1] = kNaN;
  const Expected<Snapshot> s_back = decode<Snapshot>(encode(s));
  REQUIRE(s_back.ok());
  CHECK(std::isnan(s_back->values[1]));
  CHECK(s_back->values[2] == s.values[2]);
}

TEST_CASE("protocol decoding keeps defaults for absent fields") {
  CHECK(*decode<ReadOptions>("{}") == ReadOptions{});
  CHECK(*decode<FitSettings>("{}") == FitSettings{});
  CHECK(*decode<Settings>("{}") == Settings{});
  CHECK(*decode<Snapshot>("{}") == Snapshot{});
  CHECK(*decode<Progress>("{}") == Progress{});
  CHECK(*decode<DataReport>("{}") == DataReport{});
  CHECK(*decode<Fit>("{}") == Fit{});
  CHECK(*decode<Difference>("{}") == Difference{});
  CHECK(*decode<Balance>("{}") == Balance{});
  CHECK(*decode<FitBegin>("{}") == FitBegin{});
  CHECK(*decode<FitDone>("{}") == FitDone{});
  CHECK(*decode<Estimate>("{}") == Estimate{});

  // Partial objects: only the present fields change; unknown fields are ignored.
  const Expected<Settings> partial =
      decode<Settings>(R"({"units":"elo","quiet":{"plies":4},"model":{"bishopPair":true},)"
                       R"("future":{"x":[1]}})");
  REQUIRE(partial.ok());
  Settings expected;
  expected.units = Units::kElo;
  expected.read.quiet.quiet_plies = 4;
  expected.fit.model.bishop_pair = true;
  CHECK(*partial == expected);

  // An old progress message without partial / eta.
  const Expected<Progress> progress =
      decode<Progress>(R"({"type":"progress","bytes":5,"games":2})");
  REQUIRE(progress.ok());
  CHECK(progress->bytes == 5);
  CHECK(progress->games == 2);
  CHECK(progress->eta_s == -1);

  // read() leaves absent fields as they were.
  Progress kept = full_progress();
  CHECK_FALSE(read(*parse_json(R"({"games":3})"), kept));
  Progress expected_progress = full_progress();
  expected_progress.games = 3;
  CHECK(kept == expected_progress);
}

TEST_CASE("protocol decoding names the path of a wrong type or an unknown name") {
  CHECK(decode_error<Settings>(R"({"quiet":{"plies":"3"}})") ==
        "settings.quiet.plies: not a number");
  CHECK(decode_error<Settings>(R"({"solver":"sgd"})") == R"(settings.solver: unknown name "sgd")");
  CHECK(decode_error<Settings>(R"({"solver":1})") == "settings.solver: not a string");
  CHECK(decode_error<Settings>(R"({"model":{"outcomes":"binary"}})") ==
        R"(settings.model.outcomes: unknown name "binary")");
  CHECK(decode_error<Settings>(R"({"model":true})") == "settings.model: not an object");
  CHECK(decode_error<Settings>(R"({"eachFilter":"tc=blitz"})") ==
        "settings.eachFilter: not an array");
  CHECK(decode_error<Settings>(R"({"eachFilter":["a",2]})") ==
        "settings.eachFilter[1]: not a string");
  CHECK(decode_error<Settings>(R"({"iterations":10.5})") ==
        "settings.iterations: not an integer of 32 bits");
  CHECK(decode_error<Settings>(R"({"iterations":3e9})") ==
        "settings.iterations: not an integer of 32 bits");
  CHECK(decode_error<Settings>(R"({"seed":-1})") == "settings.seed: not a non-negative integer");
  CHECK(decode_error<Settings>(R"({"quiet":{"checksBreak":1}})") ==
        "settings.quiet.checksBreak: not a boolean");
  CHECK(decode_error<Settings>(R"({"units":null})") == "settings.units: not a string");
  CHECK(decode_error<Settings>("[]") == "settings: not an object");
  CHECK(decode_error<ReadOptions>(R"({"datasets":"per-game"})") ==
        R"(options.datasets: unknown name "per-game")");
  CHECK(decode_error<ReadOptions>(R"({"keepRows":"yes"})") == "options.keepRows: not a boolean");
  CHECK(decode_error<FitDone>(R"({"fits":[{},{"coefficients":[{},{"value":"1"}]}]})") ==
        "fit-done.fits[1].coefficients[1].value: not a number");
  CHECK(decode_error<FitDone>(R"({"snapshot":{"theta":[1,"x"]}})") ==
        "fit-done.snapshot.theta[1]: not a number");
  CHECK(decode_error<DataReport>(R"({"filteredBy":{"elo":-3}})") ==
        "report.filteredBy.elo: not a non-negative integer");
  CHECK(decode_error<DataReport>(R"({"filteredBy":[]})") == "report.filteredBy: not an object");
  CHECK(decode_error<DataReport>(R"({"skippedGames":[{"line":1.5}]})") ==
        "report.skippedGames[0].line: not a non-negative integer");
  CHECK(decode_error<Progress>(R"({"file":7})") == "progress.file: not a string");
  CHECK(decode_error<Fit>(R"({"balance":{"alpha":"x"}})") == "fit.balance.alpha: not a number");
  CHECK(decode_error<Difference>(R"({"bootstrapP":true})") ==
        "difference.bootstrapP: not a number");
  CHECK(decode_error<FitBegin>(R"({"solver":"bfgs"})") ==
        R"(fit-begin.solver: unknown name "bfgs")");
  CHECK(decode_error<Estimate>(R"({"fits":{}})") == "estimate.fits: not an array");
  CHECK(decode_error<Balance>(R"({"bins":[{"dm":0.5}]})") ==
        "balance.bins[0].dm: not an integer of 32 bits");
  CHECK(decode_error<Snapshot>(R"({"columns":[null]})") == "snapshot.columns[0]: not a string");
  // Text that is not JSON fails in the parser.
  CHECK(decode_error<Settings>("{") == "json: unexpected end of text at byte 1");
}

TEST_CASE("protocol decoding survives every damaged byte and truncation of a message") {
  const std::string text = message(full_estimate());
  int decoded = 0, refused = 0, silent = 0, cut_ok = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    for (const char c : {'"', '}', '0', '\\', '\x80'}) {
      std::string damaged = text;
      damaged[i] = c;
      const Expected<Estimate> out = decode<Estimate>(damaged);
      (out.ok() ? decoded : refused) += 1;
      if (!out.ok() && out.error().message.empty()) ++silent;
    }
    if (decode<Estimate>(std::string_view(text).substr(0, i)).ok()) ++cut_ok;
  }
  CHECK(decoded > 0);  // e.g. a digit changed inside a number
  CHECK(refused > 0);
  CHECK(silent == 0);  // every refusal says why
  CHECK(cut_ok == 0);  // no prefix is a whole message
}

TEST_CASE("protocol presets are today's three with their labels") {
  const std::vector<Preset>& all = presets();
  REQUIRE(all.size() == 3);

  const Preset& article = all[0];
  CHECK(std::string(article.id) == "article");
  CHECK(std::string(article.label) == "Article (GD, α=1, 10 000 steps, draws out)");
  CHECK(article.fit.preset == "article");
  CHECK(article.fit.solver == learn::SolverKind::kGradientDescent);
  CHECK(article.fit.step == 1.0);
  CHECK(article.fit.iterations == 10000);
  CHECK(article.fit.lambda == 1e-6);
  CHECK(article.fit.draws == learn::DrawHandling::kLeaveOut);
  CHECK(article.fit.model == ModelChoice{});
  CHECK(article.unknown == learn::UnknownResultPolicy::kTreatAsDraw);
  CHECK(article.fit == FitSettings{});  // the defaults are the article

  const Preset& exact = all[1];
  CHECK(std::string(exact.id) == "exact");
  CHECK(std::string(exact.label) == "Exact (Newton, draws = ½ point)");
  CHECK(exact.fit.preset == "exact");
  CHECK(exact.fit.solver == learn::SolverKind::kNewton);
  CHECK(exact.fit.step == 1.0);
  CHECK(exact.fit.iterations == 50);
  CHECK(exact.fit.lambda == 1e-6);
  CHECK(exact.fit.draws == learn::DrawHandling::kHalfPoint);
  CHECK(exact.unknown == learn::UnknownResultPolicy::kSkip);

  const Preset& custom = all[2];
  CHECK(std::string(custom.id) == "custom");
  CHECK(std::string(custom.label) == "Custom");
  CHECK(custom.fit.preset == "custom");
  CHECK(custom.fit.solver == learn::SolverKind::kGradientDescent);
  CHECK(custom.fit.step == 1.0);
  CHECK(custom.fit.iterations == 10000);
  CHECK(custom.fit.lambda == 1e-6);
  CHECK(custom.fit.draws == learn::DrawHandling::kLeaveOut);
  CHECK(custom.unknown == learn::UnknownResultPolicy::kSkip);

  CHECK(find_preset("exact") == &all[1]);
  CHECK(find_preset("Exact") == nullptr);
  CHECK(find_preset("default") == nullptr);
}

TEST_CASE("protocol settings naming a preset start from it") {
  const Expected<Settings> exact = decode<Settings>(R"({"preset":"exact"})");
  REQUIRE(exact.ok());
  CHECK(exact->fit == find_preset("exact")->fit);
  CHECK(exact->read.unknown == learn::UnknownResultPolicy::kSkip);
  // Present fields still win, and the model is not part of a preset.
  const Expected<Settings> changed = decode<Settings>(
      R"({"model":{"phase":true},"preset":"exact","iterations":20,"unknown":"draw"})");
  REQUIRE(changed.ok());
  CHECK(changed->fit.solver == learn::SolverKind::kNewton);
  CHECK(changed->fit.iterations == 20);
  CHECK(changed->fit.model.phase);
  CHECK(changed->read.unknown == learn::UnknownResultPolicy::kTreatAsDraw);
  // An unknown preset name is kept as text, with the defaults.
  const Expected<FitSettings> other = decode<FitSettings>(R"({"preset":"mine","step":0.5})");
  REQUIRE(other.ok());
  CHECK(other->preset == "mine");
  CHECK(other->step == 0.5);
  CHECK(other->solver == learn::SolverKind::kGradientDescent);
}

TEST_CASE("protocol fit settings map onto the learn model options") {
  FitSettings fit;
  learn::ModelOptions options = fit.model_options();
  CHECK(options.outcomes == learn::OutcomeModel::kDrawsOut);
  CHECK(options.lambda == 1e-6);
  CHECK_FALSE(options.intercept);

  // With draws-out, `draws` decides.
  fit.draws = learn::DrawHandling::kHalfPoint;
  CHECK(fit.model_options().outcomes == learn::OutcomeModel::kFractional);
  // Any other outcome model wins over `draws`.
  fit.model.outcomes = learn::OutcomeModel::kOrdinal;
  CHECK(fit.model_options().outcomes == learn::OutcomeModel::kOrdinal);
  fit.draws = learn::DrawHandling::kLeaveOut;
  fit.model.outcomes = learn::OutcomeModel::kFractional;
  CHECK(fit.model_options().outcomes == learn::OutcomeModel::kFractional);

  fit = full_fit_settings();
  options = fit.model_options();
  learn::ModelOptions expected;
  expected.outcomes = learn::OutcomeModel::kOrdinal;
  expected.intercept = true;
  expected.bishop_pair = true;
  expected.phase_tapered = true;
  expected.rating_offset = true;
  expected.side_to_move = true;
  expected.lambda = 1e-3;
  CHECK(options == expected);

  // Each switch lands on its own option.
  FitSettings one;
  one.model.elo_offset = true;
  CHECK(one.model_options().rating_offset);
  CHECK_FALSE(one.model_options().phase_tapered);
  one = FitSettings{};
  one.model.phase = true;
  CHECK(one.model_options().phase_tapered);
  CHECK_FALSE(one.model_options().rating_offset);
}

TEST_CASE("protocol fit finds a coefficient by name") {
  const Fit fit = full_fit("all");
  REQUIRE(fit.find("draw-margin") != nullptr);
  CHECK(fit.find("draw-margin") == &fit.coefficients[1]);
  CHECK(fit.find("bishop")->value == 310.5);
  CHECK(fit.find("queen") == nullptr);
}

}  // namespace materialist::protocol
