// A new user's journey, natively: Reset returns to the preset with or without a fit,
// "My values" is one model however it is reached, a comparison that finds one band says so, the
// exports say why they are disabled, and the unit goes to the worker.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "app/app_state.h"
#include "app/player_form.h"
#include "app/share_link.h"
#include "learn/filter/bands.h"
#include "protocol/codec.h"

namespace materialist::app {
namespace {

TEST_CASE("journey: Reset returns every setting to the preset's, without a fit too") {
  AppState state;
  PlayerForm form;
  form.user = "bob";
  load_player(state, form);  // a load that will fail: its filter and model are on
  state.settings.read.bootstrap = 500;
  state.settings.units = protocol::Units::kElo;
  state.error = "Could not reach lichess";
  REQUIRE_FALSE(state.has_data());
  const Command reset = reset_to_preset(state);
  CHECK(reset.kind == Command::Kind::kReset);
  CHECK(state.settings == preset_settings("article"));
  CHECK(state.applied_read == state.settings.read);
  CHECK(state.applied_read.filter.empty());
  CHECK_FALSE(state.settings.fit.model.split_sides);
  CHECK_FALSE(state.settings.fit.model.intercept);
  CHECK(state.settings.units == protocol::Units::kPawn);
  CHECK(state.error.empty());
  CHECK(values_title(state) == "Piece values");
  // The worker takes the same settings for the next read.
  const std::string json = encode_command(reset);
  CHECK(json.find("\"type\":\"reset\"") != std::string::npos);
  CHECK(json.find("\"settings\"") != std::string::npos);

  // The Exact preset stays Exact; Custom returns to the article's.
  state.settings.fit = preset_settings("exact").fit;
  state.settings.fit.model.bishop_pair = true;
  reset_to_preset(state);
  CHECK(state.settings == preset_settings("exact"));
  state.settings.fit.preset = "custom";
  reset_to_preset(state);
  CHECK(state.settings == preset_settings("article"));
}

TEST_CASE("journey: Load sample on a link made from a local file leaves out the file's filter") {
  AppState state;
  REQUIRE(apply_message(state, R"({"type":"link-files","files":["bob.pgn"]})"));
  state.settings.read.filter = "player=bob;pov=1";
  state.settings.read.bootstrap = 200;
  apply_read_settings(state);  // as a link's settings arrive: the filter and its model
  REQUIRE(state.settings.fit.model.split_sides);
  const Command sample = load_sample(state);
  CHECK(sample.kind == Command::Kind::kLoadSample);
  CHECK(state.applied_read.filter.empty());
  CHECK(state.settings.read.filter.empty());
  CHECK_FALSE(state.settings.fit.model.split_sides);
  CHECK_FALSE(state.settings.fit.model.intercept);
  CHECK(state.applied_read.bootstrap == 200);  // what is not the file's stays
  CHECK(state.toast.find("player=bob;pov=1") != std::string::npos);
  CHECK(state.toast.find("bob.pgn") != std::string::npos);
  const std::string json = encode_command(sample);
  CHECK(json.find("\"settings\"") != std::string::npos);
  CHECK(json.find("player=bob") == std::string::npos);
  // Without a link of local files, the sample is read with the worker's settings, as applied.
  AppState plain;
  plain.settings.read.filter = "elo=1500-";
  apply_read_settings(plain);
  const Command ordinary = load_sample(plain);
  CHECK_FALSE(ordinary.with_settings);
  CHECK(plain.applied_read.filter == "elo=1500-");
  CHECK(encode_command(ordinary) == R"({"type":"load-sample"})");
}

TEST_CASE("journey: a filter from the player's point of view gives the Player window's model") {
  AppState state;
  state.settings.read.filter = "player=bob;pov=1";
  apply_read_settings(state);
  CHECK(state.applied_read.filter == "player=bob;pov=1");
  CHECK(state.settings.fit.model.intercept);
  CHECK(state.settings.fit.model.split_sides);
  // Turned off afterwards, it stays off on the next Apply (the point of view did not change).
  state.settings.fit.model.split_sides = false;
  state.settings.read.bootstrap = 100;
  apply_read_settings(state);
  CHECK_FALSE(state.settings.fit.model.split_sides);
}

TEST_CASE("journey: a comparison by speed that finds one speed says so") {
  AppState state;
  state.settings.read.datasets = protocol::DatasetMode::kPerFilter;
  state.settings.read.each_filter = {"tc=bullet", "tc=blitz", "tc=rapid"};
  state.applied_read = state.settings.read;
  state.has_report = true;
  state.report.rows = 500;
  state.report.datasets = {
      {"tc=bullet", 0, 0, 0, 0}, {"tc=blitz", 40, 40, 0, 500}, {"tc=rapid", 0, 0, 0, 0}};
  protocol::Fit fit;
  fit.name = "tc=blitz";
  fit.used = 40;
  state.trajectory.fits = {fit};
  state.trajectory.done = true;
  CHECK(comparison_note(state) ==
        "Compared by speed: all 40 games used are blitz (the other speeds have none, "
        "or no TimeControl tag): one fit, not a comparison.");
  state.applied_read.datasets = protocol::DatasetMode::kMerge;
  CHECK(comparison_note(state).empty());
}

TEST_CASE("journey: disabled exports say why") {
  AppState state;
  CHECK(export_hint(state).find("Load sample") != std::string::npos);
  state.phase = protocol::Phase::kReading;
  CHECK(export_hint(state).find("read") != std::string::npos);
  state.phase = protocol::Phase::kDone;
  state.has_report = true;
  state.report.rows = 10;
  state.trajectory.fits.push_back({});
  CHECK(export_hint(state).empty());
}

TEST_CASE("journey: a change of unit goes to the worker without a refit") {
  Command units{Command::Kind::kUnits};
  units.settings.units = protocol::Units::kElo;
  CHECK(encode_command(units) == R"({"type":"units","units":"elo"})");
}

}  // namespace
}  // namespace materialist::app

namespace materialist::app {
namespace {

TEST_CASE("journey: a link made from local files names them until data arrive") {
  AppState state;
  CHECK(apply_message(state, R"({"type":"link-files","files":["OpenRating.pgn","b.pgn"]})"));
  CHECK(state.link_files == std::vector<std::string>{"OpenRating.pgn", "b.pgn"});
  protocol::DataReport report;
  report.rows = 10;
  CHECK(apply_message(state, protocol::message(report)));
  CHECK(state.link_files.empty());
}

}  // namespace
}  // namespace materialist::app

namespace materialist::app {
namespace {

TEST_CASE("journey: a rating-band link is one word, and it opens as the same comparison") {
  protocol::Settings settings;
  settings.read.datasets = protocol::DatasetMode::kPerFilter;
  const Expected<std::vector<std::string>> bands = learn::band_filters("elo:200", "");
  REQUIRE(bands);
  CHECK(bands->size() == 12);
  settings.read.each_filter = *bands;
  const std::string query = share_link_query(settings);
  CHECK(query == "compare=elo:200");
  // The link's settings, as the page hands them to the app: the same twelve filters.
  AppState state;
  CHECK(apply_message(state, R"({"type":"settings","settings":{"compare":"elo:200"}})"));
  CHECK(state.applied_read.datasets == protocol::DatasetMode::kPerFilter);
  CHECK(state.applied_read.each_filter == *bands);
  // Speeds too; other filters stay filters.
  settings.read.each_filter = *learn::band_filters("speed", "");
  CHECK(share_link_query(settings) == "compare=speed");
  settings.read.each_filter = {"tc=blitz", "tc=rapid"};
  CHECK(share_link_query(settings).find("eachFilter=tc%3Dblitz") != std::string::npos);
}

}  // namespace
}  // namespace materialist::app
