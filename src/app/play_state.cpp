#include "app/play_state.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "app/json_fields.h"
#include "core/enum_names.h"
#include "core/json.h"
#include "play/book.h"
#include "play/match_report.h"
#include "play/task_codec.h"

namespace materialist::app {
namespace {

int int_of(const JsonValue& message, std::string_view key, int fallback) {
  const JsonValue* field = message.find(key);
  return field != nullptr && field->is_number() ? static_cast<int>(field->as_number()) : fallback;
}

void ensure_workers(PlayTest& play) {
  const std::size_t n = static_cast<std::size_t>(std::max(1, play.workers));
  if (play.busy.size() < n) play.busy.resize(n);
  if (play.boards.size() < n) play.boards.resize(n);
}

// Hands worker `worker` the match's next task, if any is left.
void dispatch(PlayTest& play, int worker) {
  auto task = play.match->next_task();
  if (!task) return;
  play.busy[static_cast<std::size_t>(worker)] = task->index;
  JsonWriter json;
  json.begin_object()
      .field("type", "play-task")
      .field("worker", worker)
      .field("task", play::encode_pair_task(*task, play.match->settings().game))
      .end_object();
  play.outbox.push_back(json.take());
}

void send_status(PlayTest& play) {
  play.outbox.push_back(play_status_json(play));
}

void stop_workers(PlayTest& play) {
  play.outbox.push_back(R"({"type":"play-stop"})");
  for (auto& busy : play.busy) busy.reset();
  for (PlayBoard& board : play.boards) board.live = false;
}

// Sends a self-play round's games to the engine worker, to be fitted (its fit-done comes back).
void send_round_to_learn(PlayTest& play) {
  SelfPlayRound& round = play.selfplay.back();
  round.games = play.match->games_done();
  const auto estimate = play::pairing_estimate(play.match->stats().front());
  round.score = estimate ? estimate->score : std::nan("");
  JsonWriter json;
  json.begin_object()
      .field("type", "play-learn")
      .field("name", "selfplay-round-" + std::to_string(play.selfplay.size()) + ".pgn")
      .field("text", play_pgn(play))
      .end_object();
  play.outbox.push_back(json.take());
}

constexpr bool is_playing(PlayPhase phase) {
  return phase == PlayPhase::kPlaying || phase == PlayPhase::kSelfPlaying;
}

// Whether the play-test may go from `from` to `to` (the table in play_state.h).
constexpr bool may_enter(PlayPhase from, PlayPhase to) {
  switch (to) {
    case PlayPhase::kPlaying:
    case PlayPhase::kSelfPlaying:
      return true;
    case PlayPhase::kLearning:
      return from == PlayPhase::kSelfPlaying;
    case PlayPhase::kFinished:
      return is_playing(from) || from == PlayPhase::kLearning;
    case PlayPhase::kCancelled:
      return is_playing(from);
    case PlayPhase::kIdle:
      return false;
  }
  return false;
}

// The play-test's one transition, with what leaving and entering a phase does: a match that
// stops stops its workers and says so; a self-play round that ends sends its games to be
// learned from; a match stopped early ends a self-play loop. False (nothing done) when the
// table does not allow it.
bool enter_phase(PlayTest& play, PlayPhase next) {
  const PlayPhase from = play.phase;
  if (!may_enter(from, next)) return false;
  play.phase = next;
  if (is_playing(from)) {
    play.ended_ms = play.now_ms;
    stop_workers(play);
  }
  if (is_playing(next)) return true;  // start_match hands the tasks out
  if (next == PlayPhase::kLearning) {
    if (play.selfplay.empty()) return enter_phase(play, PlayPhase::kFinished);
    send_round_to_learn(play);
  }
  if (next == PlayPhase::kCancelled || next == PlayPhase::kFinished) play.selfplay_rounds_left = 0;
  send_status(play);
  return true;
}

// The running match ended: played out (a self-play round's games are then learned from), or
// stopped early.
void end_match(PlayTest& play, bool stopped_early) {
  if (stopped_early) {
    enter_phase(play, PlayPhase::kCancelled);
  } else {
    enter_phase(
        play, play.phase == PlayPhase::kSelfPlaying ? PlayPhase::kLearning : PlayPhase::kFinished);
  }
}

// A play worker or its result failed: the match stops with the reason.
void fail_match(PlayTest& play, std::string reason) {
  play.error = std::move(reason);
  end_match(play, true);
}

void record_point(PlayTest& play) {
  const play::Match& match = *play.match;
  const play::PairingStats& first = match.stats().front();
  const std::uint64_t games = first.games.games();
  // One point per change (two pairs committed at once make one).
  if (games == 0 || (!play.history.empty() && play.history.back().games == games)) return;
  PlayPoint point;
  point.games = games;
  point.elo = std::nan("");
  point.error = std::nan("");
  if (const auto estimate = play::pairing_estimate(first)) {
    point.elo = estimate->elo;
    point.error = estimate->elo_error95;
  }
  point.llr = match.sprt() ? match.sprt()->llr : 0;
  play.history.push_back(point);
}

}  // namespace

PlayForm default_play_form() {
  PlayForm form;
  // The sample's learned values first (the set under test), then the references.
  for (const char* name : {"learned-sample", "classic", "kaufman", "article-12.5", "article-a",
                           "article-b", "article-c", "simplified"}) {
    for (const play::NamedValueSet& named : play::kNamedValueSets) {
      if (std::string_view(named.name) != name) continue;
      auto set = play::parse_value_set(name);
      if (!set) continue;
      const bool sample = std::string_view(name) == "learned-sample";
      form.candidates.push_back({*set, named.source, sample || std::string_view(name) == "classic",
                                 sample ? kSampleOrigin : ""});
    }
  }
  return form;
}

Expected<play::MatchSettings> play_settings(const PlayForm& form) {
  play::MatchSettings settings;
  for (const PlayCandidate& candidate : form.candidates) {
    if (candidate.chosen) settings.sets.push_back(candidate.set);
  }
  if (settings.sets.size() < 2) {
    return make_error(ErrorCode::kInvalidArgument, "choose two value sets or more");
  }
  if (form.pairs < 1 || form.pairs > 100000) {
    return make_error(ErrorCode::kInvalidArgument, "game pairs: from 1 to 100000");
  }
  settings.schedule = form.round_robin ? play::Schedule::kRoundRobin : play::Schedule::kGauntlet;
  settings.pairs = form.pairs;
  settings.seed = form.seed;
  if (form.by_depth) {
    if (form.depth < 1 || form.depth > 30) {
      return make_error(ErrorCode::kInvalidArgument, "depth: from 1 to 30");
    }
    settings.game.limits = {.nodes = 0, .depth = form.depth, .movetime_ms = 0};
  } else {
    if (form.nodes < 1) return make_error(ErrorCode::kInvalidArgument, "nodes per move: 1 or more");
    settings.game.limits = {
        .nodes = static_cast<std::uint64_t>(form.nodes), .depth = 0, .movetime_ms = 0};
  }
  if (form.sprt) {
    if (settings.sets.size() != 2) {
      return make_error(ErrorCode::kInvalidArgument,
                        "an SPRT compares two sets: choose two, or turn the SPRT off");
    }
    play::SprtSettings sprt;
    sprt.elo0 = form.elo0;
    sprt.elo1 = form.elo1;
    if (auto error = play::validate_sprt(sprt)) return *error;
    settings.sprt = sprt;
  }
  return settings;
}

void add_candidate(PlayForm& form, const play::ValueSet& set, const std::string& source) {
  // Sets under test go first (a gauntlet's first set plays every other): one already offered
  // moves there.
  PlayCandidate added{set, source, true, {}, false};
  for (auto it = form.candidates.begin(); it != form.candidates.end(); ++it) {
    if (it->set == set) {
      added.source = it->source;
      added.origin = it->origin;
      added.fitted = it->fitted;
      form.candidates.erase(it);
      break;
    }
  }
  form.candidates.insert(form.candidates.begin(), std::move(added));
}

bool identifies_any_piece(const play::ValueSet& set) {
  // The pawn is the unit; the pieces are the knight to the queen.
  for (std::size_t piece = 1; piece < set.middlegame.size(); ++piece) {
    if ((set.fallback_pieces & (1u << piece)) == 0) return true;
  }
  return false;
}

bool offer_fit(PlayForm& form, play::ValueSet set, const std::string& source, bool current) {
  if (!identifies_any_piece(set)) return false;
  const std::string base = set.name;
  for (int n = 2;; ++n) {
    const auto same_name =
        std::find_if(form.candidates.begin(), form.candidates.end(),
                     [&](const PlayCandidate& c) { return c.set.name == set.name; });
    if (same_name == form.candidates.end() || same_name->set == set) break;
    set.name = base + "#" + std::to_string(n);
  }
  const auto offered = std::find_if(form.candidates.begin(), form.candidates.end(),
                                    [&](const PlayCandidate& c) { return c.set == set; });
  if (offered == form.candidates.end()) {
    form.candidates.push_back({set, source, false, kFitOrigin, true});
  }
  if (!current) return true;
  for (PlayCandidate& candidate : form.candidates) {
    if (candidate.fitted || candidate.set.name == "learned-sample") candidate.chosen = false;
  }
  add_candidate(form, set, source);
  return true;
}

void add_custom_set(PlayForm& form) {
  auto set = play::parse_value_set(form.custom);
  if (!set) {
    form.custom_error = set.error().message;
    return;
  }
  form.custom_error.clear();
  if (set->name.empty()) set->name = play::default_name(*set);
  add_candidate(form, *set, "custom");
}

void article_preset(PlayForm& form) {
  const char* order[] = {"article-12.5", "article-a",      "article-b",
                         "article-c",    "learned-sample", "classic"};
  std::vector<PlayCandidate> chosen, rest;
  for (const char* name : order) {
    for (const PlayCandidate& candidate : form.candidates) {
      if (candidate.set.name != name) continue;
      PlayCandidate picked = candidate;  // its origin and fitted flag with it
      picked.chosen = true;
      chosen.push_back(std::move(picked));
    }
  }
  for (PlayCandidate candidate : form.candidates) {
    if (std::find(std::begin(order), std::end(order), candidate.set.name) != std::end(order))
      continue;
    candidate.chosen = false;
    rest.push_back(std::move(candidate));
  }
  form.candidates = std::move(chosen);
  form.candidates.insert(form.candidates.end(), rest.begin(), rest.end());
  form.round_robin = true;
  form.sprt = false;
}

// Starts a match of `settings` as `phase` (playing or self-playing); play.error says why not.
static bool start_match(PlayTest& play, Expected<play::MatchSettings> settings, PlayPhase phase) {
  play.error.clear();
  if (!settings) {
    play.error = settings.error().message;
    return false;
  }
  play::Book book = play::default_book();
  play.book_size = book.openings.size();
  auto match = play::Match::create(std::move(*settings), std::move(book));
  if (!match) {
    play.error = match.error().message;
    return false;
  }
  enter_phase(play, phase);  // stops the workers of a match it replaces
  play.match = std::move(*match);
  play.history.clear();
  play.busy.clear();
  play.boards.clear();
  ensure_workers(play);
  play.started_ms = play.now_ms;
  play.ended_ms = 0;
  for (int worker = 0; worker < std::max(1, play.workers); ++worker) dispatch(play, worker);
  send_status(play);
  return true;
}

void start_play(PlayTest& play) {
  play.selfplay_rounds_left = 0;
  const bool started = start_match(play, play_settings(play.form), PlayPhase::kPlaying);
  if (!started && play.learning()) enter_phase(play, PlayPhase::kFinished);  // the loop's fit too
}

// Starts a self-play round: `played` (the last learned values, or the start's) against the
// start values, with the form's limit, pairs and seed. A round that cannot start ends the loop.
static void start_selfplay_round(PlayTest& play, const play::ValueSet& played,
                                 const std::string& source) {
  PlayForm form = play.form;  // the two sets chosen alone (a first set is enough here)
  form.candidates = {{played, source, true, {}, false},
                     {play.selfplay_start, "self-play start", true, {}, false}};
  form.sprt = false;
  auto settings = play_settings(form);
  if (settings) {
    settings->sets[1].name = "start";
    settings->schedule = play::Schedule::kGauntlet;
  }
  SelfPlayRound round;
  round.played = played;
  round.score = std::nan("");
  play.selfplay.push_back(round);
  if (start_match(play, std::move(settings), PlayPhase::kSelfPlaying)) return;
  play.selfplay.pop_back();
  enter_phase(play, PlayPhase::kFinished);  // from learning: the loop ends with the error
}

void start_selfplay(PlayTest& play, int rounds) {
  play.selfplay.clear();
  play.selfplay_rounds_left = std::max(0, rounds - 1);
  play.selfplay_start = *play::parse_value_set("learned-sample");
  for (const PlayCandidate& candidate : play.form.candidates) {
    if (candidate.chosen) {
      play.selfplay_start = candidate.set;
      break;
    }
  }
  start_selfplay_round(play, play.selfplay_start, "self-play start");
}

void selfplay_learned(PlayTest& play, const play::ValueSet& learned) {
  if (!play.learning() || play.selfplay.empty()) return;
  play::ValueSet set = learned;
  set.name = "round-" + std::to_string(play.selfplay.size());
  play.selfplay.back().learned = set;
  if (play.selfplay_rounds_left <= 0) {
    enter_phase(play, PlayPhase::kFinished);
    return;
  }
  --play.selfplay_rounds_left;
  start_selfplay_round(play, set, "self-play");
}

void cancel_play(PlayTest& play) {
  if (play.learning()) {
    enter_phase(play, PlayPhase::kFinished);  // the round was played out; its fit is not waited for
  } else if (play.running()) {
    end_match(play, true);
  }
}

void apply_play_message(PlayTest& play, PlayMessage type, const JsonValue& m) {
  const int worker = int_of(m, "worker", -1);
  switch (type) {
    case PlayMessage::kPool:
      play.workers = std::clamp(int_of(m, "workers", 1), 1, 64);
      if (!play.running()) {
        play.busy.clear();
        play.boards.clear();
      }
      ensure_workers(play);
      return;
    case PlayMessage::kBoard: {
      if (!play.running() || worker < 0 || worker >= static_cast<int>(play.boards.size())) return;
      PlayBoard& board = play.boards[static_cast<std::size_t>(worker)];
      board.fen = text_of(m, "fen");
      board.last_move = text_of(m, "lastMove");
      board.white = text_of(m, "white");
      board.black = text_of(m, "black");
      board.opening_plies = int_of(m, "openingPlies", 0);
      board.task = static_cast<std::size_t>(std::max(0, int_of(m, "task", 0)));
      board.san.clear();
      if (const JsonValue* san = m.find("san"); san != nullptr && san->is_array()) {
        for (const JsonValue& move : san->items()) board.san.push_back(move.as_string());
      }
      board.live = true;
      return;
    }
    case PlayMessage::kError:
      if (play.running()) fail_match(play, "A play worker failed: " + text_of(m, "message"));
      return;
    case PlayMessage::kResult:
      break;
  }
  if (!play.running() || !play.match || worker < 0 ||
      worker >= static_cast<int>(play.busy.size())) {
    return;  // a late result of a cancelled match
  }
  const std::string text = text_of(m, "result");
  auto index = play::pair_result_index(text);
  if (!index || *index >= play.match->task_count()) {
    fail_match(play, index ? "a play result for no task" : index.error().message);
    return;
  }
  auto decoded = play::decode_pair_result(text, play.match->task(*index));
  if (!decoded) {
    fail_match(play, decoded.error().message);
    return;
  }
  play.busy[static_cast<std::size_t>(worker)].reset();
  play.match->record(*index, std::move(decoded->result));
  record_point(play);
  if (play.match->finished()) {
    end_match(play, false);
    return;
  }
  dispatch(play, worker);
  if (std::none_of(play.busy.begin(), play.busy.end(),
                   [](const auto& b) { return b.has_value(); })) {
    end_match(play, false);  // nothing left to play (cannot happen while a result is missing)
  } else {
    send_status(play);
  }
}

double play_seconds(const PlayTest& play) {
  if (!play.match) return 0;
  const double end = play.running() ? play.now_ms : play.ended_ms;
  return std::max(0.0, (end - play.started_ms) / 1000.0);
}

std::optional<double> games_per_minute(const PlayTest& play) {
  const double seconds = play_seconds(play);
  if (!play.match || seconds < kRateSeconds) return std::nullopt;
  return 60.0 * static_cast<double>(play.match->games_done()) / seconds;
}

std::string play_pgn(const PlayTest& play) {
  return play.match ? play::match_pgn(*play.match) : std::string();
}

std::string play_json(const PlayTest& play) {
  if (!play.match) return "{}";
  return play::match_json(*play.match, play.book_size, play::kDefaultBookSource, play_seconds(play),
                          play.cancelled());
}

void save_text(PlayTest& play, const std::string& name, const std::string& mime,
               const std::string& text) {
  JsonWriter json;
  json.begin_object()
      .field("type", "save")
      .field("name", name)
      .field("mime", mime)
      .field("text", text)
      .end_object();
  play.outbox.push_back(json.take());
}

std::optional<play::Verdict> play_verdict(const PlayTest& play) {
  if (!play.match) return std::nullopt;
  return play::pairing_verdict(*play.match, play.match->stats().front(), play.cancelled());
}

EloAxis elo_chart_axis(const std::vector<PlayPoint>& history) {
  const auto last = std::find_if(history.rbegin(), history.rend(),
                                 [](const PlayPoint& p) { return std::isfinite(p.elo); });
  if (last == history.rend()) return {};
  double lo = std::min(0.0, last->elo), hi = std::max(0.0, last->elo);
  if (std::isfinite(last->error)) {
    lo = std::min(lo, last->elo - last->error);
    hi = std::max(hi, last->elo + last->error);
  }
  // The estimate's path over the later half of the games; the earlier, wilder half is clipped.
  for (const PlayPoint& p : history) {
    if (!std::isfinite(p.elo) || 2 * p.games < last->games) continue;
    lo = std::min(lo, p.elo);
    hi = std::max(hi, p.elo);
  }
  const double margin = 0.05 * (hi - lo);
  lo -= margin;
  hi += margin;
  if (hi - lo < kEloAxisMinSpan) {
    const double middle = (lo + hi) / 2;
    lo = middle - kEloAxisMinSpan / 2;
    hi = middle + kEloAxisMinSpan / 2;
  }
  return {std::max(-kEloAxisLimit, lo), std::min(kEloAxisLimit, hi)};
}

std::string play_status_json(const PlayTest& play) {
  JsonWriter json;
  json.begin_object().field("type", "play-status");
  json.field("running", play.running()).field("cancelled", play.cancelled());
  if (play.match) {
    const play::Match& match = *play.match;
    json.field("pairs", static_cast<std::uint64_t>(match.pairs_done()))
        .field("games", static_cast<std::uint64_t>(match.games_done()))
        .field("tasks", static_cast<std::uint64_t>(match.task_count()))
        .field("finished", match.finished())
        .field("seconds", play_seconds(play));
    if (const auto rate = games_per_minute(play)) json.field("gamesPerMinute", *rate);
    const play::PairingStats& first = match.stats().front();
    json.key("pentanomial").begin_array();
    for (const std::uint64_t count : first.pairs.counts) json.value(count);
    json.end_array();
    if (const auto estimate = play::pairing_estimate(first)) {
      json.field("elo", estimate->elo).field("eloError95", estimate->elo_error95);
    }
    if (const auto& sprt = match.sprt()) {
      json.field("llr", sprt->llr)
          .field("lower", sprt->lower)
          .field("upper", sprt->upper)
          .field("sprt", play::kSprtDecisionNames[static_cast<std::size_t>(sprt->decision)]);
    }
    const play::Verdict verdict = *play_verdict(play);
    json.field("verdict", verdict.text)
        .field("verdictKind", name_of(play::kVerdictKindNames, verdict.kind));
  }
  if (const std::string notes = fallback_notes(chosen_sets(play.form)); !notes.empty())
    json.field("fallback", notes);
  if (!play.selfplay.empty()) {
    json.key("selfplay").begin_array();
    for (const SelfPlayRound& round : play.selfplay) {
      json.begin_object().field("played", round.played.values_text()).field("games", round.games);
      if (std::isfinite(round.score)) json.field("score", round.score);
      if (round.learned) {
        json.field("learned", round.learned->values_text());
        if (round.learned->fallback_pieces != 0)
          json.field("fallback", play::fallback_text(*round.learned));
      }
      json.end_object();
    }
    json.end_array();
  }
  if (!play.error.empty()) json.field("error", play.error);
  json.end_object();
  return json.take();
}

std::vector<play::ValueSet> chosen_sets(const PlayForm& form) {
  std::vector<play::ValueSet> sets;
  for (const PlayCandidate& candidate : form.candidates) {
    if (candidate.chosen) sets.push_back(candidate.set);
  }
  return sets;
}

std::string fallback_notes(const std::vector<play::ValueSet>& sets) {
  std::string notes;
  for (const play::ValueSet& set : sets) {
    if (set.fallback_pieces == 0) continue;
    notes += (notes.empty() ? "" : "; ") + set.name + ": " + play::fallback_text(set);
  }
  return notes;
}

}  // namespace materialist::app
