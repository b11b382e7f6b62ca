// The app's play-test state (app/play_state.h): the form's settings and their errors, a match
// driven through the page's messages as the play workers would send them (any order, any number
// of workers: the same statistics as the CLI's runner), cancel keeping what was played, the
// exports, and the share link's round trip.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "app/app_state.h"
#include "core/json.h"
#include "core/json_value.h"
#include "play/book.h"
#include "play/match_report.h"
#include "play/task_codec.h"

namespace materialist::app {

namespace {

// The task a play-task command hands its worker, and the worker's number.
struct Sent {
  int worker = -1;
  std::string task;
};

std::vector<Sent> take_tasks(PlayTest& play) {
  std::vector<Sent> out;
  for (const std::string& command : play.outbox) {
    auto json = parse_json(command);
    REQUIRE(json);
    if (json->find("type")->as_string() != "play-task") continue;
    out.push_back(
        {static_cast<int>(json->find("worker")->as_number()), json->find("task")->as_string()});
  }
  play.outbox.clear();
  return out;
}

// What the page forwards from worker `worker` after it played `task`.
std::string result_message(int worker, const std::string& task) {
  auto job = play::decode_pair_task(task);
  REQUIRE(job);
  const play::PairResult result = play::play_pair(job->task, job->settings);
  JsonWriter json;
  json.begin_object()
      .field("type", "play-result")
      .field("worker", worker)
      .field("result", play::encode_pair_result(job->task.index, result))
      .end_object();
  return json.take();
}

PlayForm small_form() {
  PlayForm form = default_play_form();
  form.nodes = 200;
  form.pairs = 3;
  form.seed = 5;
  return form;
}

// Drops the JSON's "seconds" field (the only one a clock decides).
std::string without_seconds(std::string json) {
  const std::size_t at = json.find("\"seconds\":");
  REQUIRE(at != std::string::npos);
  const std::size_t end = json.find(',', at);
  json.erase(at, end - at + 1);
  return json;
}

}  // namespace

TEST_CASE("play state: the form's default sets and its errors") {
  PlayForm form = default_play_form();
  auto settings = play_settings(form);
  REQUIRE(settings);
  REQUIRE(settings->sets.size() == 2);
  CHECK(settings->sets[0].name == "learned-sample");
  CHECK(settings->sets[1].name == "classic");
  CHECK(settings->game.limits.nodes == 20000);
  for (auto& candidate : form.candidates) candidate.chosen = false;
  CHECK(play_settings(form).error().message == "choose two value sets or more");
  form = default_play_form();
  form.sprt = true;
  form.round_robin = true;
  form.candidates[2].chosen = true;
  CHECK(play_settings(form).error().message.find("an SPRT compares two sets") == 0);
  form.custom = "mine:100,320,330,500,950";
  add_custom_set(form);
  CHECK(form.custom_error.empty());
  CHECK(form.candidates.front().set.name == "mine");
  CHECK(form.candidates.front().chosen);
  // A set already offered (a fit's) moves to the front when chosen to be tested.
  const play::ValueSet kaufman = form.candidates[3].set;
  REQUIRE(kaufman.name == "kaufman");
  add_candidate(form, kaufman, "again");
  CHECK(form.candidates.front().set == kaufman);
  CHECK(form.candidates.front().source == play::kNamedValueSets[1].source);
  CHECK(std::count_if(form.candidates.begin(), form.candidates.end(),
                      [&](const PlayCandidate& c) { return c.set == kaufman; }) == 1);
  form.custom = "100,0";
  add_custom_set(form);
  CHECK_FALSE(form.custom_error.empty());
  article_preset(form);
  auto article = play_settings(form);
  REQUIRE(article);
  CHECK(article->sets.size() == 6);
  CHECK(article->schedule == play::Schedule::kRoundRobin);
  CHECK(article->sets[0].name == "article-12.5");
  CHECK(article->sets[5].name == "classic");
  // The preset's sets keep their origin: learned-sample is still the bundled sample's fit.
  const auto sample =
      std::find_if(form.candidates.begin(), form.candidates.end(),
                   [](const PlayCandidate& c) { return c.set.name == "learned-sample"; });
  REQUIRE(sample != form.candidates.end());
  CHECK(sample->chosen);
  CHECK(sample->origin == kSampleOrigin);
}

TEST_CASE("play state: results in any order from two workers give the CLI runner's statistics") {
  AppState state;
  REQUIRE(apply_message(state, R"({"type":"play-pool","workers":2})"));
  PlayTest& play = state.play;
  play.form = small_form();
  play.form.sprt = true;
  start_play(play);
  REQUIRE(play.error.empty());
  REQUIRE(play.running());
  std::vector<Sent> tasks = take_tasks(play);
  REQUIRE(tasks.size() == 2);
  CHECK(tasks[0].worker == 0);
  CHECK(tasks[1].worker == 1);
  // Worker 1 finishes first; each result hands its worker the next task.
  int rounds = 0;
  while (!tasks.empty() && ++rounds < 20) {
    std::vector<Sent> next;
    for (auto it = tasks.rbegin(); it != tasks.rend(); ++it) {
      REQUIRE(apply_message(state, result_message(it->worker, it->task)));
      for (const Sent& sent : take_tasks(play)) next.push_back(sent);
    }
    tasks = next;
  }
  CHECK_FALSE(play.running());
  REQUIRE(play.match);
  CHECK(play.match->pairs_done() == 3);
  CHECK(play.history.size() == 2);  // pairs 1 and 2 were committed together
  CHECK(play.history.back().games == 6);

  // The CLI's runner (one thread) with the same settings: the same JSON but its clock.
  auto settings = play_settings(play.form);
  REQUIRE(settings);
  auto cli = play::Match::create(*settings, play::default_book());
  REQUIRE(cli);
  while (auto task = cli->next_task()) {
    cli->record(task->index, play::play_pair(*task, cli->settings().game));
  }
  const std::string expected = play::match_json(*cli, play.book_size, play::kDefaultBookSource, 0);
  CHECK(without_seconds(play_json(play)) == without_seconds(expected));
  CHECK(play_pgn(play) == play::match_pgn(*cli));
  CHECK(play_pgn(play).find("[Round \"3\"]") != std::string::npos);
  // Three pairs under an SPRT that has not decided: stopped at the limit, in the page's mirror.
  REQUIRE(play.match->sprt()->decision == play::SprtDecision::kContinue);
  CHECK(play_verdict(play)->kind == play::VerdictKind::kInconclusive);
  CHECK(play_status_json(play).find(R"("verdict":"stopped at the limit, inconclusive: LLR )") !=
        std::string::npos);
  CHECK(play_status_json(play).find(R"("verdictKind":"inconclusive")") != std::string::npos);
}

TEST_CASE("play state: games per minute from the match's clock, once it has run five seconds") {
  AppState state;
  PlayTest& play = state.play;
  play.form = small_form();
  play.now_ms = 1000;
  start_play(play);
  REQUIRE(play.running());
  CHECK_FALSE(games_per_minute(play));
  play.now_ms = 1000 + 1000 * (kRateSeconds - 1);
  CHECK_FALSE(games_per_minute(play));  // too early for a rate
  std::vector<Sent> tasks = take_tasks(play);
  for (int rounds = 0; !tasks.empty() && rounds < 20; ++rounds) {
    std::vector<Sent> next;
    for (const Sent& sent : tasks) {
      play.now_ms += 10000;  // each pair takes ten seconds
      REQUIRE(apply_message(state, result_message(sent.worker, sent.task)));
      for (const Sent& more : take_tasks(play)) next.push_back(more);
    }
    tasks = next;
  }
  REQUIRE_FALSE(play.running());
  CHECK(play.match->games_done() == 6);
  // 6 games over the 4 s before the first task and 30 s of pairs: 6 · 60 / 34.
  REQUIRE(games_per_minute(play));
  CHECK(*games_per_minute(play) == doctest::Approx(6 * 60.0 / 34));
  play.now_ms += 60000;  // a finished match's rate stays its own
  CHECK(*games_per_minute(play) == doctest::Approx(6 * 60.0 / 34));
  CHECK(play_status_json(play).find(R"("gamesPerMinute":10.58)") != std::string::npos);
}

TEST_CASE("play state: cancel keeps what was played and ignores late results") {
  AppState state;
  PlayTest& play = state.play;
  play.form = small_form();
  start_play(play);
  std::vector<Sent> tasks = take_tasks(play);
  REQUIRE(tasks.size() == 1);
  REQUIRE(apply_message(state, result_message(tasks[0].worker, tasks[0].task)));
  tasks = take_tasks(play);
  REQUIRE(tasks.size() == 1);
  // While it runs: too few games yet, in the mirror too.
  CHECK(play_verdict(play)->text == "too few games yet (2 so far)");
  CHECK(play_status_json(play).find(R"("verdictKind":"too-few-games")") != std::string::npos);
  cancel_play(play);
  CHECK_FALSE(play.running());
  CHECK(play.cancelled());
  CHECK(play_verdict(play)->text == "too few games to tell (2 played)");
  // With an SPRT, a cancel is inconclusive and says why.
  {
    AppState sprt_state;
    PlayTest& sprt_play = sprt_state.play;
    sprt_play.form = small_form();
    sprt_play.form.sprt = true;
    start_play(sprt_play);
    const std::vector<Sent> first = take_tasks(sprt_play);
    REQUIRE(first.size() == 1);
    REQUIRE(apply_message(sprt_state, result_message(first[0].worker, first[0].task)));
    CHECK(play_verdict(sprt_play)->kind == play::VerdictKind::kContinue);
    cancel_play(sprt_play);
    CHECK(play_verdict(sprt_play)->text.rfind("cancelled before the SPRT decided", 0) == 0);
    CHECK(play_json(sprt_play).find(R"("verdict":{"kind":"inconclusive","text":"cancelled)") !=
          std::string::npos);
  }
  bool stopped = false;
  for (const std::string& command : play.outbox) {
    if (command.find("\"play-stop\"") != std::string::npos) stopped = true;
  }
  CHECK(stopped);
  REQUIRE(apply_message(state, result_message(tasks[0].worker, tasks[0].task)));
  CHECK(play.match->pairs_done() == 1);
  CHECK(play_pgn(play).find("[Round \"1\"]") != std::string::npos);
  CHECK(play_pgn(play).find("[Round \"2\"]") == std::string::npos);
  // A board message after the cancel is not shown as live.
  REQUIRE(apply_message(state,
                        R"({"type":"play-board","worker":0,"fen":"8/8/8/8/8/8/8/8 w - - 0 1"})"));
  CHECK_FALSE(play.boards[0].live);
}

TEST_CASE("play state: a board message, the share link and a fit's values") {
  AppState state;
  PlayTest& play = state.play;
  play.form = small_form();
  start_play(play);
  REQUIRE(apply_message(
      state,
      R"({"type":"play-board","worker":0,"fen":"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1","lastMove":"e2e4","san":["e4"],"white":"a","black":"b","openingPlies":1,"task":0})"));
  REQUIRE(play.boards.size() == 1);
  CHECK(play.boards[0].live);
  CHECK(play.boards[0].last_move == "e2e4");
  CHECK(play.boards[0].san == std::vector<std::string>{"e4"});

  PlayForm form = small_form();
  form.custom = "mine:100,320,330,500,950";
  add_custom_set(form);
  form.sprt = false;
  form.round_robin = true;
  const std::string link = play_link(form);
  CHECK(link ==
        "play&set=mine:100,320,330,500,950&set=learned-sample&set=classic&nodes=200&pairs=3&seed=5&"
        "rr=1");
  PlayForm read = default_play_form();
  REQUIRE_FALSE(read_play_link(read, "#" + link));
  auto a = play_settings(form), b = play_settings(read);
  REQUIRE(a);
  REQUIRE(b);
  CHECK(a->sets == b->sets);
  CHECK(a->pairs == b->pairs);
  CHECK(a->seed == b->seed);
  CHECK(a->schedule == b->schedule);
  CHECK(a->game.limits.nodes == b->game.limits.nodes);
  CHECK(read_play_link(read, "play&set=classic")->message == "play link: two sets needed");
  CHECK(read_play_link(read, "play&set=classic&set=kaufman&pairs=x")->message ==
        "play link: bad pairs");
  CHECK(read_play_link(read, "play&set=classic&set=kaufman&sprt=0,ten")->message ==
        "play link: bad sprt");

  // A link message starts the match at once.
  REQUIRE(apply_message(
      state, R"({"type":"play-link","link":"play&set=kaufman&set=classic&nodes=100&pairs=1"})"));
  CHECK(play.open);
  CHECK(play.running());
  CHECK(play.match->settings().sets[0].name == "kaufman");

  protocol::Fit fit;
  fit.name = "merged";
  for (const auto& [name, value] : {std::pair{"knight", 288.6}, std::pair{"bishop", 345.2},
                                    std::pair{"rook", 480.0}, std::pair{"queen", 1077.4}}) {
    protocol::Coefficient coefficient;
    coefficient.name = name;
    coefficient.value = value;
    fit.coefficients.push_back(coefficient);
  }
  const play::ValueSet set = fit_value_set(fit, "fit:merged");
  CHECK(set.middlegame == play::PieceValues{100, 289, 345, 480, 1077});
  CHECK(set.endgame == set.middlegame);
  CHECK(set.fallback_pieces == 0);
  // A queen the fit could not identify plays 1-3-3-5-9's 900, and the set says so.
  fit.coefficients.back().identified = false;
  const play::ValueSet partial = fit_value_set(fit, "fit:merged");
  CHECK(partial.middlegame[4] == 900);
  CHECK(play::fallback_text(partial) == "queen 900");
  add_candidate(play.form, partial, "fitted: merged");
  CHECK(play_status_json(play).find("\"fallback\":\"fit:merged: queen 900\"") != std::string::npos);
}

}  // namespace materialist::app

namespace materialist::app {
TEST_CASE("play state: a new app offers the named sets, two chosen") {
  const AppState state;
  REQUIRE(state.play.form.candidates.size() == play::kNamedValueSets.size());
  auto settings = play_settings(state.play.form);
  REQUIRE(settings);
  CHECK(settings->sets.size() == 2);
}
}  // namespace materialist::app

namespace materialist::app {
namespace {

// A self-play loop of `rounds` rounds on small_form() with `pairs` pairs a round, started.
void start_small_selfplay(PlayTest& play, int pairs, int rounds) {
  play.form = small_form();
  play.form.pairs = pairs;
  start_selfplay(play, rounds);
}

// The round's one task played by its worker: its result applied.
void play_the_one_task(AppState& state) {
  const std::vector<Sent> tasks = take_tasks(state.play);
  REQUIRE(tasks.size() == 1);
  REQUIRE(apply_message(state, result_message(tasks[0].worker, tasks[0].task)));
}

// Whether the outbox asks to learn from a round's games (from `file` when given).
bool sent_learn(const PlayTest& play, const std::string& file = "") {
  for (const std::string& command : play.outbox) {
    if (command.find("\"play-learn\"") != std::string::npos &&
        command.find(file) != std::string::npos) {
      return true;
    }
  }
  return false;
}

}  // namespace

TEST_CASE("play state: the self-play loop learns from each round's games") {
  AppState state;
  PlayTest& play = state.play;
  start_small_selfplay(play, 1, 2);
  REQUIRE(play.running());
  REQUIRE(play.selfplay.size() == 1);
  CHECK(play.selfplay[0].played.name == "learned-sample");
  CHECK(play.match->settings().sets[1].name == "start");
  play_the_one_task(state);
  CHECK_FALSE(play.running());
  CHECK(play.learning());
  CHECK(play.phase == PlayPhase::kLearning);
  CHECK(sent_learn(play, "selfplay-round-1.pgn"));
  play.outbox.clear();
  // The fit of round 1's games: round 2 plays its values against the start.
  play::ValueSet learned = *play::parse_value_set("100,310,320,490,950");
  selfplay_learned(play, learned);
  REQUIRE(play.selfplay.size() == 2);
  REQUIRE(play.selfplay[0].learned);
  CHECK(play.selfplay[0].learned->middlegame == learned.middlegame);
  CHECK(play.selfplay[1].played.middlegame == learned.middlegame);
  CHECK(play.running());
  play_the_one_task(state);
  selfplay_learned(play, *play::parse_value_set("100,300,330,500,960"));
  CHECK(play.selfplay.size() == 2);  // two rounds asked: no third
  CHECK_FALSE(play.running());
  CHECK(play.phase == PlayPhase::kFinished);
  CHECK(play.selfplay[1].learned);
  // The form is as it was.
  CHECK(play.form.candidates.size() == play::kNamedValueSets.size());
}

TEST_CASE("play state: a self-play loop cancelled while a round is fitted ends there") {
  AppState state;
  PlayTest& play = state.play;
  start_small_selfplay(play, 1, 3);
  CHECK(play.phase == PlayPhase::kSelfPlaying);
  play_the_one_task(state);
  REQUIRE(play.phase == PlayPhase::kLearning);
  cancel_play(play);
  CHECK(play.phase == PlayPhase::kFinished);  // the round was played out: not a cancelled match
  CHECK(play.selfplay_rounds_left == 0);
  // The fit that arrives late starts no round.
  selfplay_learned(play, *play::parse_value_set("100,310,320,490,950"));
  CHECK(play.selfplay.size() == 1);
  CHECK_FALSE(play.running());
}

TEST_CASE("play state: a self-play round cancelled while it is played ends the loop") {
  AppState state;
  PlayTest& play = state.play;
  start_small_selfplay(play, 2, 3);
  REQUIRE(play.running());
  cancel_play(play);
  CHECK(play.phase == PlayPhase::kCancelled);
  CHECK(play.selfplay_rounds_left == 0);
  CHECK_FALSE(sent_learn(play));  // a cancelled round's games are not learned from
  // A new match from the form replaces it.
  start_play(play);
  CHECK(play.phase == PlayPhase::kPlaying);
}

TEST_CASE("play state: the workers' messages by type; other play- types are not theirs") {
  AppState state;
  CHECK(apply_message(state, R"({"type":"play-pool","workers":3})"));
  CHECK(state.play.workers == 3);
  CHECK(state.play.boards.size() == 3);
  CHECK_FALSE(apply_message(state, R"({"type":"play-nonsense","workers":5})"));
  CHECK(state.play.workers == 3);
  // A worker's error with no match running changes nothing.
  CHECK(apply_message(state, R"({"type":"play-error","worker":0,"message":"boom"})"));
  CHECK(state.play.phase == PlayPhase::kIdle);
  CHECK(state.play.error.empty());
}
}  // namespace materialist::app

namespace materialist::app {
TEST_CASE("play state: the Elo chart's axis follows the data, not its first point") {
  const double inf = std::numeric_limits<double>::infinity();
  // No point: the minimum span around 0.
  EloAxis axis = elo_chart_axis({});
  CHECK(axis.lo == -kEloAxisMinSpan / 2);
  CHECK(axis.hi == kEloAxisMinSpan / 2);
  // The issue's start: -338 with no interval after 2 pairs, then the estimate settles near -9.
  std::vector<PlayPoint> history = {{4, -338.0, inf, 0}, {8, -120.0, 300.0, 0}};
  for (std::uint64_t games = 12; games <= 80; games += 4) {
    history.push_back({games, -9.0, 900.0 / std::sqrt(static_cast<double>(games)), 0});
  }
  axis = elo_chart_axis(history);
  const double last_error = history.back().error;
  CHECK(axis.lo < -9.0 - last_error);
  CHECK(axis.lo > -9.0 - 1.3 * last_error);  // not -338's, nor -738's
  CHECK(axis.hi > -9.0 + last_error);
  CHECK(axis.hi < -9.0 + 1.3 * last_error);
  // A narrow band keeps the minimum span, around the data and 0.
  axis = elo_chart_axis({{400, 3.0, 4.0, 0}});
  CHECK(axis.hi - axis.lo == doctest::Approx(kEloAxisMinSpan));
  CHECK(axis.lo < -1.0);
  CHECK(axis.hi > 7.0);
  // Only an unbounded early point: its estimate and 0, within the limits.
  axis = elo_chart_axis({{4, -1200.0, inf, 0}});
  CHECK(axis.lo == -kEloAxisLimit);
  CHECK(axis.hi >= 0);
}
}  // namespace materialist::app

namespace materialist::app {
TEST_CASE(
    "play state: fits are offered under names that differ, the latest as the set under test") {
  protocol::Fit fit;
  fit.name = "OpenRating.pgn";
  for (const auto& [name, value] : {std::pair{"knight", 288.6}, std::pair{"bishop", 345.2},
                                    std::pair{"rook", 480.0}, std::pair{"queen", 1077.4}}) {
    protocol::Coefficient coefficient;
    coefficient.name = name;
    coefficient.value = value;
    fit.coefficients.push_back(coefficient);
  }
  // The source file, the target and the solver are in the name.
  const std::string gd =
      fit_set_name(fit, learn::Target::kResult, learn::SolverKind::kGradientDescent);
  const std::string newton = fit_set_name(fit, learn::Target::kResult, learn::SolverKind::kNewton);
  CHECK(gd == "fit:OpenRating.pgn/result/gd");
  CHECK(newton == "fit:OpenRating.pgn/result/newton");
  CHECK(fit_set_name(fit, learn::Target::kEval, learn::SolverKind::kNewton) ==
        "fit:OpenRating.pgn/eval/newton");

  // A new form: the bundled sample's learned values are labelled so, and chosen.
  PlayForm form = default_play_form();
  REQUIRE(form.candidates.front().set.name == "learned-sample");
  CHECK(form.candidates.front().origin == kSampleOrigin);
  CHECK(form.candidates.front().chosen);
  // The user's fit becomes the set under test in its place; classic stays the opponent.
  REQUIRE(offer_fit(form, fit_value_set(fit, gd), "fitted: OpenRating.pgn", true));
  std::vector<play::ValueSet> chosen = chosen_sets(form);
  REQUIRE(chosen.size() == 2);
  CHECK(chosen[0].name == gd);
  CHECK(chosen[1].name == "classic");
  CHECK(form.candidates.front().origin == kFitOrigin);
  // A second fit (Newton, other values): offered beside it, under its own name, and now the one
  // under test.
  protocol::Fit other = fit;
  other.coefficients[0].value = 300.4;
  REQUIRE(offer_fit(form, fit_value_set(other, newton), "fitted: OpenRating.pgn", true));
  chosen = chosen_sets(form);
  REQUIRE(chosen.size() == 2);
  CHECK(chosen[0].name == newton);
  CHECK(chosen[1].name == "classic");
  // The same name with other values (a refit with other settings) is numbered, never the same.
  other.coefficients[1].value = 350.0;
  REQUIRE(offer_fit(form, fit_value_set(other, newton), "fitted: OpenRating.pgn", false));
  std::vector<std::string> names;
  for (const PlayCandidate& candidate : form.candidates) names.push_back(candidate.set.name);
  CHECK(std::count(names.begin(), names.end(), newton) == 1);
  CHECK(std::count(names.begin(), names.end(), newton + "#2") == 1);
  std::sort(names.begin(), names.end());
  CHECK(std::adjacent_find(names.begin(), names.end()) == names.end());
  // Offered again with the same values: not twice.
  const std::size_t offered = form.candidates.size();
  REQUIRE(offer_fit(form, fit_value_set(other, newton), "fitted: OpenRating.pgn", false));
  CHECK(form.candidates.size() == offered);
  // A fit that identified no piece is never offered.
  protocol::Fit unidentified = fit;
  for (protocol::Coefficient& c : unidentified.coefficients) c.identified = false;
  const play::ValueSet nothing = fit_value_set(unidentified, "fit:cancelled.pgn/result/gd");
  CHECK_FALSE(identifies_any_piece(nothing));
  CHECK_FALSE(offer_fit(form, nothing, "fitted: cancelled.pgn", true));
  CHECK(form.candidates.size() == offered);
  CHECK(chosen_sets(form)[0].name == newton);
  // One piece identified is enough (the others play 1-3-3-5-9's values, and say so).
  unidentified.coefficients[0].identified = true;
  CHECK(identifies_any_piece(fit_value_set(unidentified, "x")));
}
}  // namespace materialist::app

namespace materialist::app {
namespace {
// A squares message in log-odds: the material-only pawn 0.5, so 1 log-odds is 200 cp; `live`:
// a preview while the games stream in.
std::string squares_message(bool live) {
  JsonWriter json;
  json.begin_object().field("type", "squares").field("live", live);
  for (const char* key : {"squares", "squaresSe"}) {
    json.key(key).begin_object();
    for (const char* phase : {"mg", "eg"}) {
      json.key(phase).begin_object();
      for (const char letter : std::string("PNBRQK")) {
        json.key(std::string(1, letter)).begin_array();
        for (int square = 0; square < 64; ++square)
          json.value(std::string(key) == "squaresSe" ? 0.01 : square / 100.0);
        json.end_array();
      }
      json.end_object();
    }
    json.end_object();
  }
  json.key("squaresPositions").begin_object();
  for (const char letter : std::string("PNBRQK")) {
    json.key(std::string(1, letter)).begin_array();
    for (int square = 0; square < 64; ++square) json.value(500);
    json.end_array();
  }
  json.end_object();
  json.key("squaresMaterial")
      .begin_object()
      .field("P", 0.5)
      .field("N", 1.5)
      .field("B", 1.6)
      .field("R", 2.5)
      .field("Q", 4.5)
      .end_object();
  json.end_object();
  return json.take();
}

}  // namespace

TEST_CASE("play state: values by square join the play-test as the set under test") {
  AppState state;
  protocol::Fit fit;
  fit.name = "games.pgn";
  state.trajectory.fits.push_back(fit);
  REQUIRE(apply_message(state, squares_message(false)));
  const PlayCandidate& first = state.play.form.candidates.front();
  CHECK(first.set.name == "squares:games.pgn/result");
  CHECK(first.chosen);
  REQUIRE(first.set.squares);
  CHECK(first.set.squares->middlegame[1][63] == 126);  // 0.63 log-odds at 200 cp each
  CHECK(first.set.squares->endgame[5][10] == 20);
  auto settings = play_settings(state.play.form);
  REQUIRE(settings);
  CHECK(settings->sets.front().squares == first.set.squares);
}

TEST_CASE("app: a live preview of values by square lasts its read, and never joins the play-test") {
  AppState state;
  protocol::Fit fit;
  fit.name = "games.pgn";
  state.trajectory.fits.push_back(fit);
  REQUIRE(apply_message(state, R"({"type":"state","state":"reading","status":"Reading"})"));
  const std::size_t offered = state.play.form.candidates.size();
  REQUIRE(apply_message(state, squares_message(true)));
  REQUIRE(state.squares);
  CHECK(state.squares->live);
  CHECK(state.play.form.candidates.size() == offered);  // a preview is not a set to test
  // The read commits and the values' fit begins: the preview stays until the tables come.
  REQUIRE(apply_message(state, R"({"type":"state","state":"fitting","status":"Fitting"})"));
  CHECK(state.squares);
  REQUIRE(apply_message(state, squares_message(false)));
  CHECK_FALSE(state.squares->live);
  CHECK(state.play.form.candidates.size() == offered + 1);
  // A read cancelled after its preview: the preview goes with it.
  REQUIRE(apply_message(state, R"({"type":"state","state":"reading","status":"Reading"})"));
  CHECK(state.squares);  // the last read's fit stays while the next one reads
  REQUIRE(apply_message(state, squares_message(true)));
  REQUIRE(apply_message(state, R"({"type":"state","state":"idle","status":"Cancelled"})"));
  CHECK_FALSE(state.squares);
}
}  // namespace materialist::app
