// The Player window's logic, natively: what a username load applies ("My values": the player's
// side and edge) and the load-player command the page receives.
#include <doctest/doctest.h>

#include <string>

#include "app/app_state.h"
#include "app/player_form.h"
#include "core/json_value.h"

namespace materialist::app {
namespace {

const JsonValue& field(const JsonValue& object, std::string_view key) {
  const JsonValue* found = object.find(key);
  REQUIRE(found != nullptr);
  return *found;
}

TEST_CASE("player form: a username and well-formed dates are needed") {
  PlayerForm form;
  CHECK(player_form_problem(form) == "type a username");
  form.user = "Drnykterstein";
  CHECK(player_form_problem(form).empty());
  form.user = "a b";
  CHECK_FALSE(player_form_problem(form).empty());
  form.user = "magnus_c-1";
  form.since = "2024-1-1";
  CHECK(player_form_problem(form) == "the first day is YYYY-MM-DD");
  form.since = "2024-01-01";
  form.until = "yesterday";
  CHECK(player_form_problem(form) == "the last day is YYYY-MM-DD");
  form.until = "2024-12-31";
  CHECK(player_form_problem(form).empty());
}

TEST_CASE("player form: My values applies the player's side, their edge and the read limit") {
  AppState state;
  state.settings.fit.model.intercept = false;
  PlayerForm form;
  form.user = "bob";
  form.max_games = 500;
  const Command command = load_player(state, form);
  CHECK(command.kind == Command::Kind::kLoadPlayer);
  CHECK(state.applied_read.filter == "player=bob;pov=1");
  CHECK(state.applied_read.max_games == 500);
  CHECK(state.player_view());
  CHECK(state.settings.fit.model.intercept);    // the player's edge
  CHECK(state.settings.fit.model.split_sides);  // the player's pieces against the opponents'
  CHECK(command.settings.read.filter == "player=bob;pov=1");

  CHECK(values_title(state) == "Piece values");  // no data yet: no one's values to name
  state.has_report = true;
  state.report.rows = 100;
  CHECK(values_title(state) == "My values: bob's games, from bob's side");
  // Without the My-values model the title does not claim it.
  state.settings.fit.model.split_sides = false;
  CHECK(values_title(state) ==
        "Values from bob's side (not \"My values\": own and opponent's pieces pooled)");
  state.settings.fit.model.split_sides = true;

  form.mine = false;
  load_player(state, form);
  CHECK(state.applied_read.filter.empty());
  CHECK_FALSE(state.player_view());
  CHECK(values_title(state) == "Piece values");
}

TEST_CASE("player form: chess.com's speed becomes a time-control filter, lichess's a query") {
  AppState state;
  PlayerForm form;
  form.user = "bob";
  form.speed = 2;  // blitz
  form.mine = false;
  load_player(state, form);
  CHECK(state.applied_read.filter.empty());  // lichess filters the speed itself
  form.chesscom = true;
  load_player(state, form);
  CHECK(state.applied_read.filter.find("blitz") != std::string::npos);
  // chess.com's months are whole: the days are a date filter there (lichess's query has them).
  form.since = "2021-10-01";
  form.until = "2021-10-15";
  load_player(state, form);
  CHECK(state.applied_read.filter.find("date=2021.10.01-2021.10.15") != std::string::npos);
  form.chesscom = false;
  load_player(state, form);
  CHECK(state.applied_read.filter.empty());
}

TEST_CASE("player form: the load-player command carries the player, My values and the settings") {
  AppState state;
  PlayerForm form;
  form.user = "bob";
  form.speed = 2;
  form.rated = true;
  form.since = "2021-10-01";
  const Expected<JsonValue> json = parse_json(encode_command(load_player(state, form)));
  REQUIRE(json);
  CHECK(field(*json, "type").as_string() == "load-player");
  const JsonValue& player = field(*json, "player");
  CHECK(field(player, "service").as_string() == "lichess");
  CHECK(field(player, "user").as_string() == "bob");
  CHECK(field(player, "speed").as_string() == "blitz");
  CHECK(field(player, "rated").as_bool());
  CHECK(field(player, "since").as_string() == "2021-10-01");
  CHECK(player.find("until") == nullptr);
  CHECK(field(*json, "mine").as_bool());
  CHECK(field(field(*json, "settings"), "filter").as_string() == "player=bob;pov=1");
}

}  // namespace
}  // namespace materialist::app
