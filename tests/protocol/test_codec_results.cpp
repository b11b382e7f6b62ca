// The codec on results and messages: round trips with every field set, the type first, today's
// wire names, omitted empty fields and non-finite numbers.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/json_value.h"
#include "protocol/codec.h"
#include "protocol/codec_samples.h"
#include "protocol/messages.h"

namespace materialist::protocol {

using namespace samples;  // full_*(), check_round_trip, decode_error

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
  DataReport from_stats = full_report();  // statistics files' data settings come along
  from_stats.made_with = ReadOptions{};
  from_stats.made_with->filter = "elo>=2000";
  from_stats.made_with->quiet.quiet_plies = 3;
  from_stats.made_with->target = learn::Target::kEval;
  check_round_trip(from_stats);
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
                    "games",        "used",     "partial",        "skipped",      "filtered",
                    "rows",         "drawRows", "decisiveRows",   "whiteWinRows", "blackWinRows",
                    "distinctRows", "plies",    "stoppedAtLimit", "bytes",        "seconds",
                    "mbps",         "files",    "fileErrors",     "skippedGames", "skippedTotal",
                    "filteredBy",   "datasets"});
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

TEST_CASE("protocol data report carries the evaluation target's counts, only for that target") {
  CHECK(encode(DataReport{}).find("target") == std::string::npos);
  DataReport eval;
  eval.target = learn::Target::kEval;
  eval.rows = 4200;
  eval.unannotated_rows = 31000;
  eval.games_with_evals = 96;
  eval.games_without_evals = 903;
  eval.malformed_evals = 2;
  check_round_trip(eval);
  CHECK(encode(eval).find(R"("target":"eval","unannotatedRows":31000,"gamesWithEvals":96,)"
                          R"("gamesWithoutEvals":903,"malformedEvals":2)") != std::string::npos);
}

TEST_CASE("protocol target-compare message round trips") {
  TargetCompare both;
  both.positions = 3000;
  both.games = 96;
  both.outcomes = "fractional";
  both.difference_errors = "game-clustered";
  both.rows.push_back({"knight", "Knight", true, 301.5, 12.5, 288.25, 10.5, -13.25, 6.5, 1.1, 0.05,
                       1.05, 0.04, -0.05, 0.02});
  both.rows.push_back({"queen", "Queen", false, 0, 0, 0, 0, 0, 0, 0.5, 0.25, 4.0, 0.9, 3.5, 0.9});
  check_round_trip(both);
  const std::string text = message(both);
  CHECK(text.rfind(R"({"type":"target-compare","positions":3000,)", 0) == 0);
  CHECK(text.find("\"error\"") == std::string::npos);
  TargetCompare refused;
  refused.error = "read the games with the evaluation target first";
  check_round_trip(refused);
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

TEST_CASE("protocol fit finds a coefficient by name") {
  const Fit fit = full_fit("all");
  REQUIRE(fit.find("draw-margin") != nullptr);
  CHECK(fit.find("draw-margin") == &fit.coefficients[1]);
  CHECK(fit.find("bishop")->value == 310.5);
  CHECK(fit.find("queen") == nullptr);
}

}  // namespace materialist::protocol
