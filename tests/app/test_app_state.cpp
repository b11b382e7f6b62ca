// The app's state transitions, natively: every worker message through the one codec, commands
// back, and the settings a refit sends.
#include <doctest/doctest.h>

#include <string>

#include "app/app_state.h"
#include "core/json_value.h"
#include "learn/filter/game_filter.h"
#include "protocol/codec.h"

namespace materialist::app {
namespace {

protocol::Fit sample_fit(const std::string& name) {
  protocol::Fit fit;
  fit.name = name;
  fit.state = "fitted";
  fit.errors = "game-clustered";
  fit.clusters = 2611;
  protocol::Coefficient knight;
  knight.name = "knight";
  knight.label = "Knight";
  knight.value = 289.1;
  knight.value_se = 14.0;
  fit.coefficients.push_back(knight);
  return fit;
}

TEST_CASE("app state: a new read starts with no progress, not the last read's file") {
  AppState state;
  protocol::Progress progress;
  progress.bytes = 2e6;
  progress.file = "last.pgn";
  CHECK(apply_message(state, R"({"type":"state","state":"reading","status":"Reading…"})"));
  CHECK(apply_message(state, protocol::message(progress)));
  CHECK(apply_message(state, R"({"type":"state","state":"done","status":"Fitted"})"));
  CHECK(apply_message(state, R"({"type":"state","state":"reading","status":"Asking…"})"));
  CHECK(state.progress == protocol::Progress{});
  CHECK(state.status == "Asking…");
}

TEST_CASE("app state: a fit's messages in order build the trajectory and its results") {
  AppState state;
  CHECK(apply_message(state, R"({"type":"state","state":"reading","status":"Reading…"})"));
  CHECK(state.phase == protocol::Phase::kReading);
  protocol::Progress progress;
  progress.bytes = 1e6;
  progress.total_bytes = 2e6;
  progress.file = "a.pgn";
  CHECK(apply_message(state, protocol::message(progress)));
  CHECK(state.progress == progress);
  protocol::DataReport report;
  report.games = 2997;
  report.rows = 20215;
  report.files = {"OpenRating.pgn"};
  CHECK(apply_message(state, protocol::message(report)));
  CHECK(state.has_data());
  CHECK(state.report == report);

  protocol::FitBegin begin;
  begin.solver = learn::SolverKind::kNewton;
  begin.planned = 7;
  begin.reason = "ordinal";
  CHECK(apply_message(state, protocol::message(begin)));
  CHECK(state.trajectory.solver == learn::SolverKind::kNewton);
  CHECK(state.trajectory.planned_iterations == 7);
  protocol::Snapshot step;
  step.iteration = 7;
  step.values = {100, 289, 345, 480, 1077};
  CHECK(apply_message(state, protocol::message(step)));
  CHECK(state.trajectory.snapshots.size() == 1);

  protocol::FitDone done;
  done.fits = {sample_fit("a.pgn"), sample_fit("b.pgn")};
  done.snapshot = step;
  done.snapshot.value_se = {0, 14, 15, 21, 50};
  CHECK(apply_message(state, protocol::message(done)));
  CHECK(state.trajectory.done);
  CHECK(state.trajectory.fits.size() == 2);
  // The final snapshot replaces the last step of the same iteration: no extra point.
  REQUIRE(state.trajectory.snapshots.size() == 1);
  CHECK(state.trajectory.snapshots.back().value_se.size() == 5);

  // A new fit starts a new trajectory: nothing of the old one is kept.
  CHECK(apply_message(state, protocol::message(begin)));
  CHECK(state.trajectory.snapshots.empty());
  CHECK(state.trajectory.fits.empty());
}

TEST_CASE("app state: a comparison of bands names each dataset by its band") {
  AppState state;
  protocol::FitDone done;
  done.fits = {sample_fit("elo=-799;elo_mode=average;unrated=drop"),
               sample_fit("elo=1400-1599;elo_mode=average;unrated=drop"),
               sample_fit("elo=2800-;elo_mode=player;unrated=drop")};
  CHECK(apply_message(state, protocol::message(done)));
  CHECK(state.trajectory.bands);
  REQUIRE(state.trajectory.fits.size() == 3);
  CHECK(state.trajectory.fits[0].name == "<800");
  CHECK(state.trajectory.fits[1].name == "1400-1599");
  CHECK(state.trajectory.fits[2].name == "2800+");

  // One dataset that is not a band: the comparison keeps every filter's text.
  done.fits = {sample_fit("tc=blitz"), sample_fit("tc=rapid;elo=1500-")};
  CHECK(apply_message(state, protocol::message(done)));
  CHECK_FALSE(state.trajectory.bands);
  CHECK(state.trajectory.fits[0].name == "tc=blitz");
  done.fits = {sample_fit("tc=blitz"), sample_fit("tc=rapid")};
  CHECK(apply_message(state, protocol::message(done)));
  CHECK(state.trajectory.bands);
  CHECK(state.trajectory.fits[1].name == "rapid");
}

TEST_CASE("app state: a share link's settings fill the controls and the filter form") {
  AppState state;
  protocol::Settings shared;
  shared.fit.lambda = 1e-6;
  shared.fit.model.outcomes = learn::OutcomeModel::kOrdinal;
  shared.read.filter = "player=Carlsen;pov=1";
  shared.units = protocol::Units::kElo;
  CHECK(apply_message(state, protocol::message(shared)));
  CHECK(state.settings == shared);
  CHECK(state.applied_read == shared.read);
  CHECK(state.settings_restored);
  CHECK(state.filter_form.player == "Carlsen");
  CHECK(state.player_view());
  CHECK(state.settings.fit.lambda == 1e-6);  // exactly: no float on the way

  protocol::Settings bad = shared;
  bad.read.filter = "tc=glacial";
  CHECK(apply_message(state, protocol::message(bad)));
  CHECK_FALSE(state.filter_error.empty());
}

TEST_CASE("app state: reset forgets the data, keeps the settings; junk changes nothing") {
  AppState state;
  state.settings.fit.iterations = 123;
  state.applied_read.filter = "tc=blitz";
  protocol::DataReport report;
  report.rows = 5;
  REQUIRE(apply_message(state, protocol::message(report)));
  CHECK(apply_message(state, R"({"type":"reset"})"));
  CHECK_FALSE(state.has_data());
  CHECK(state.settings.fit.iterations == 123);
  CHECK(state.applied_read.filter == "tc=blitz");

  const AppState before = state;
  CHECK_FALSE(apply_message(state, "not json"));
  CHECK_FALSE(apply_message(state, R"({"type":"snapshot","values":"oops"})"));
  CHECK_FALSE(apply_message(state, R"({"type":"unheard-of"})"));
  CHECK(state.trajectory.snapshots.size() == before.trajectory.snapshots.size());
}

TEST_CASE("app state: commands carry the applied settings through the codec") {
  AppState state;
  state.settings.fit.lambda = 1e-6;
  state.settings.read.filter = "tc=rapid";                          // typed, not applied
  state.settings.read.unknown = learn::UnknownResultPolicy::kSkip;  // applies at once
  state.applied_read.filter = "tc=blitz";
  const protocol::Settings sent = applied_settings(state);
  CHECK(sent.read.filter == "tc=blitz");
  CHECK(sent.read.unknown == learn::UnknownResultPolicy::kSkip);

  Command fit{Command::Kind::kFit, sent};
  const Expected<JsonValue> json = parse_json(encode_command(fit));
  REQUIRE(json.ok());
  CHECK(json->find("type")->as_string() == "fit");
  protocol::Settings back;
  REQUIRE_FALSE(protocol::read(*json->find("settings"), back));
  CHECK(back.fit == sent.fit);
  CHECK(back.read.filter == "tc=blitz");
  CHECK(back.fit.lambda == 1e-6);

  Command export_csv{Command::Kind::kExport};
  export_csv.format = "csv";
  CHECK(encode_command(export_csv) == R"({"type":"export","format":"csv"})");
}

TEST_CASE("app state: result vs evaluation is asked with the settings, kept until new data") {
  AppState state;
  state.applied_read.target = learn::Target::kEval;
  Command compare{Command::Kind::kCompareTargets, applied_settings(state)};
  const Expected<JsonValue> json = parse_json(encode_command(compare));
  REQUIRE(json.ok());
  CHECK(json->find("type")->as_string() == "compare-targets");
  protocol::Settings back;
  REQUIRE_FALSE(protocol::read(*json->find("settings"), back));
  CHECK(back.read.target == learn::Target::kEval);

  protocol::TargetCompare both;
  both.positions = 442;
  both.games = 96;
  both.rows.push_back({"knight", "Knight", true, 300, 10, 420, 80, 120, 81});
  state.target_compare_waiting = true;
  CHECK(apply_message(state, protocol::message(both)));
  REQUIRE(state.target_compare.has_value());
  CHECK(*state.target_compare == both);
  CHECK_FALSE(state.target_compare_waiting);
  // A read that did not commit keeps it; new data drops it.
  protocol::DataReport report;
  const std::string kept =
      R"({"type":"report","committed":false,"report":)" + protocol::encode(report) + "}";
  CHECK(apply_message(state, kept));
  CHECK(state.target_compare.has_value());
  const std::string replaced =
      R"({"type":"report","committed":true,"report":)" + protocol::encode(report) + "}";
  CHECK(apply_message(state, replaced));
  CHECK_FALSE(state.target_compare.has_value());
}

TEST_CASE("app state: committed data bring their target to the control and the link") {
  AppState state;  // the control on the game's result
  protocol::DataReport report;
  report.target = learn::Target::kEval;  // a .mstats made for the evaluation, say
  const std::string uncommitted =
      R"({"type":"report","committed":false,"report":)" + protocol::encode(report) + "}";
  CHECK(apply_message(state, uncommitted));
  CHECK(state.settings.read.target == learn::Target::kResult);
  const std::string committed =
      R"({"type":"report","committed":true,"report":)" + protocol::encode(report) + "}";
  CHECK(apply_message(state, committed));
  CHECK(state.settings.read.target == learn::Target::kEval);
  CHECK(applied_settings(state).read.target == learn::Target::kEval);
}

TEST_CASE("app state: statistics files bring their data settings to the controls and the link") {
  AppState state;
  state.settings.read.datasets = protocol::DatasetMode::kPerFilter;  // the controls before
  state.settings.read.each_filter = {"tc=blitz", "tc=rapid"};
  state.settings.read.max_games = 500;
  state.applied_read = state.settings.read;
  protocol::DataReport report;
  report.rows = 10;
  report.made_with = protocol::ReadOptions{};
  report.made_with->filter = "elo=2000-;tc=blitz";
  report.made_with->quiet.quiet_plies = 3;
  report.made_with->unknown = learn::UnknownResultPolicy::kSkip;
  report.made_with->bootstrap = 40;
  report.made_with->seed = 7;
  const std::string committed =
      R"({"type":"report","committed":true,"report":)" + protocol::encode(report) + "}";
  CHECK(apply_message(state, committed));
  for (const protocol::ReadOptions* read : {&state.settings.read, &state.applied_read}) {
    CHECK(read->filter == "elo=2000-;tc=blitz");
    CHECK(read->quiet.quiet_plies == 3);
    CHECK(read->unknown == learn::UnknownResultPolicy::kSkip);
    CHECK(read->bootstrap == 40);
    CHECK(read->seed == 7);
    CHECK(read->datasets == protocol::DatasetMode::kMerge);  // statistics are one dataset
    CHECK(read->each_filter.empty());
    CHECK(read->max_games == 500);  // a read limit stays the page's
  }
  CHECK(state.filter_form ==
        *learn::parse_game_filter("elo=2000-;tc=blitz"));  // the panel shows it
  CHECK(state.filter_form != learn::GameFilterOptions{});
  CHECK(state.filter_error.empty());
  CHECK(applied_settings(state).read.filter == "elo=2000-;tc=blitz");
}

TEST_CASE("app state: the page's toast and device messages; a share command carries its link") {
  AppState state;
  CHECK(apply_message(state, R"({"type":"toast","text":"Link copied"})"));
  CHECK(state.toast == "Link copied");
  CHECK(state.toast_since < 0);
  CHECK(apply_message(state, R"({"type":"device","touch":true})"));
  CHECK(state.touch);
  CHECK(apply_message(state, R"({"type":"reset"})"));
  CHECK(state.touch);  // the device outlives the data

  protocol::Settings settings;
  settings.units = protocol::Units::kElo;
  Command share{Command::Kind::kShare, settings};
  const Expected<JsonValue> json = parse_json(encode_command(share));
  REQUIRE(json.ok());
  CHECK(json->find("link")->as_string() == "units=elo");
  CHECK(json->find("settings") != nullptr);
}

TEST_CASE("app state: presets by id, custom for anything else") {
  AppState state;
  state.settings.fit.preset = "exact";
  CHECK(protocol::presets()[static_cast<std::size_t>(state.preset_index())].id ==
        std::string("exact"));
  state.settings.fit.preset = "no-such-preset";
  CHECK(state.preset_index() == static_cast<int>(protocol::presets().size()) - 1);
}

// A pawn coefficient worth 100 (pawn = 100) and `elo` Elo, and a state whose ended fit holds it.
protocol::Coefficient pawn_coefficient(const std::string& name, bool identified, double elo) {
  protocol::Coefficient pawn;
  pawn.name = name;
  pawn.identified = identified;
  pawn.value = 100;
  pawn.elo = elo;
  return pawn;
}
AppState state_with_pawn(const protocol::Coefficient& pawn, protocol::Units units) {
  AppState state;
  protocol::Fit fit;
  fit.coefficients.push_back(pawn);
  state.trajectory.fits.push_back(fit);
  state.trajectory.done = true;
  state.settings.units = units;
  return state;
}

TEST_CASE(
    "app state: the chosen unit's scale comes from the pawn, or the own pawn of split sides") {
  protocol::Coefficient pawn = pawn_coefficient("own-pawn", true, 194);
  pawn.theta = 1.117;
  AppState state = state_with_pawn(pawn, protocol::Units::kElo);
  state.trajectory.done = false;
  CHECK_FALSE(unit_scale(state).has_value());  // no fit has ended: values are pawn = 100
  CHECK(unit_per_pawn_value(state) == 1);
  state.trajectory.done = true;
  REQUIRE(unit_scale(state).has_value());
  CHECK(*unit_scale(state) == doctest::Approx(1.94));
  state.settings.units = protocol::Units::kLogOdds;
  CHECK(unit_per_pawn_value(state) == doctest::Approx(0.01117));
  state.settings.units = protocol::Units::kPawn;
  CHECK(unit_scale(state) == 1.0);
  // A single pawn is the scale when there is one; tapered values have the middlegame pawn.
  std::vector<protocol::Coefficient>& coefficients = state.trajectory.fits.front().coefficients;
  pawn.name = "pawn";
  pawn.elo = 100;
  coefficients.insert(coefficients.begin(), pawn);
  state.settings.units = protocol::Units::kElo;
  CHECK(unit_per_pawn_value(state) == doctest::Approx(1.0));
  pawn.name = "pawn-mg";
  pawn.elo = 80;
  coefficients = {pawn};
  CHECK(unit_per_pawn_value(state) == doctest::Approx(0.8));
}

TEST_CASE(
    "app state: no unit scale from a pawn that is not identified or worth less than nothing") {
  AppState state = state_with_pawn(pawn_coefficient("pawn", false, 150), protocol::Units::kElo);
  CHECK_FALSE(unit_scale(state).has_value());
  // A negative pawn would turn every relation around: the values stay pawn = 100.
  protocol::Coefficient& kept = state.trajectory.fits.front().coefficients.front();
  kept.identified = true;
  kept.elo = -150;
  CHECK_FALSE(unit_scale(state).has_value());
  CHECK(unit_per_pawn_value(state) == 1);
  kept.elo = 150;
  CHECK(unit_per_pawn_value(state) == doctest::Approx(1.5));
}

}  // namespace
}  // namespace materialist::app
