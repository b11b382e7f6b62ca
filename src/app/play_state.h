// The play-test's state in the app (no browser, no ImGui; the native tests run it): the form
// (which value sets, the limit, pairs or an SPRT, gauntlet or round robin), the one play::Match
// that owns the tasks, the statistics and the SPRT, the live figures drawn from it, the boards
// the play workers report, and the commands for the page (JSON text, web/PROTOCOL.md "Play-test").
//
// The match's pairs are played by Web Workers (web/play-worker.js, materialist-play.js): the
// app hands each worker a task (`play-task`), takes its result (`play-result`) with
// Match::record and hands it the next task, so the statistics are the same whatever the number
// of workers and the order in which they finish, and equal `materialist match`'s for the same
// seed and settings.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/json_value.h"
#include "play/match.h"

namespace materialist::app {

// One value set the form offers; `chosen` ones play.
struct PlayCandidate {
  play::ValueSet set;
  std::string source;  // where it comes from ("the textbook 1-3-3-5-9", "fitted: merged")
  bool chosen = false;
  // Shown beside the name: "the bundled sample's fit" (learned-sample), "your fit".
  std::string origin;
  bool fitted = false;  // the user's fit (offer_fit)
};

inline constexpr const char* kSampleOrigin = "the bundled sample's fit";
inline constexpr const char* kFitOrigin = "your fit";

struct PlayForm {
  std::vector<PlayCandidate> candidates;       // the named sets first, then fits and custom ones
  std::string custom = "100,300,300,500,900";  // "P,N,B,R,Q" or "name:P,N,B,R,Q" to add
  std::string custom_error;
  bool by_depth = false;  // the limit: nodes per move (default) or a depth
  int nodes = 20000;
  int depth = 4;
  int pairs = 20;  // per pairing
  bool round_robin = false;
  bool sprt = false;
  double elo0 = 0, elo1 = 10;
  std::uint64_t seed = 1;
};

// The named sets (learned-sample and classic chosen), as the form starts.
PlayForm default_play_form();

// The first pairing's figures after each kept pair (the Elo ± band and the LLR against games).
struct PlayPoint {
  std::uint64_t games = 0;
  double elo = 0, error = 0;  // NaN / inf when undefined
  double llr = 0;
};

// What a play worker shows: the game it plays now.
struct PlayBoard {
  std::string fen;
  std::string last_move;         // UCI, "" before the first move
  std::vector<std::string> san;  // the game's moves, the opening's included
  std::string white, black;
  int opening_plies = 0;
  std::size_t task = 0;
  bool live = false;
};

// One round of the self-play loop: the set played (against the start set), how it scored, and
// the values learned from the round's games (the next round's set).
struct SelfPlayRound {
  play::ValueSet played;
  double score = 0;  // the played set's, NaN before a pair
  std::uint64_t games = 0;
  std::optional<play::ValueSet> learned;
};

// Where the play-test stands; play_state.cpp's enter_phase is the one place it changes.
//   any → playing, self-playing (a match starts: it replaces one running, or a loop's fit)
//   playing → finished, cancelled           self-playing → learning (its games are fitted),
//   cancelled learning → self-playing (the next round), finished (the last round, or the loop
//   cancelled)
enum class PlayPhase : std::uint8_t {
  kIdle,         // no match yet
  kPlaying,      // a match's pairs are with the workers
  kSelfPlaying,  // a self-play round's match is with the workers
  kLearning,     // a self-play round ended: the engine worker fits its games (fit-done comes)
  kFinished,     // the last match was played to its end
  kCancelled,    // the last match was stopped: cancelled, or a worker or a result failed
};

// The play workers' messages (web/PROTOCOL.md "Play-test"), by their "type".
enum class PlayMessage : std::uint8_t { kPool, kBoard, kError, kResult };
inline constexpr std::array kPlayMessageTypes = {"play-pool", "play-board", "play-error",
                                                 "play-result"};

struct PlayTest {
  PlayForm form = default_play_form();
  bool open = false;  // the Play-test window
  int workers = 1;    // play workers the page runs (one per core)
  std::optional<play::Match> match;
  std::size_t book_size = 0;
  PlayPhase phase = PlayPhase::kIdle;
  // A match's pairs are being played (a self-play round's included).
  bool running() const { return phase == PlayPhase::kPlaying || phase == PlayPhase::kSelfPlaying; }
  bool cancelled() const { return phase == PlayPhase::kCancelled; }
  bool learning() const { return phase == PlayPhase::kLearning; }
  // "Learn from these games" with data on the page: asking before the match's games replace it.
  bool learn_asking = false;
  std::string error;
  std::vector<std::optional<std::size_t>> busy;  // per worker: its task
  std::vector<PlayBoard> boards;                 // per worker
  std::vector<PlayPoint> history;
  double now_ms = 0;  // the page's clock, set every frame
  double started_ms = 0, ended_ms = 0;
  std::vector<std::string> outbox;  // commands for the page (JSON), sent after each frame
  // The self-play loop (the article's proposal: learn from the engine's own games): round r
  // plays the values learned in round r − 1 against the start values (round 1: the start values
  // against themselves); its games are read and fitted by the engine worker (`play-learn`), and
  // the fit's values are the next round's.
  play::ValueSet selfplay_start;
  std::vector<SelfPlayRound> selfplay;
  int selfplay_rounds_left = 0;  // rounds still to start after the current one
};

// The settings the form gives; errors: fewer than two sets chosen, pairs < 1, an SPRT with
// more than two sets, bad SPRT bounds.
Expected<play::MatchSettings> play_settings(const PlayForm& form);

// Adds the form's custom text as a chosen candidate (or sets custom_error).
void add_custom_set(PlayForm& form);
// Adds (or chooses again, when one with these values is there) a set to test, chosen.
void add_candidate(PlayForm& form, const play::ValueSet& set, const std::string& source);
// Whether a fit's values are worth a match: at least one piece identified (a set with none
// would only play 1-3-3-5-9's values under another name).
bool identifies_any_piece(const play::ValueSet& set);
// Offers a fit's values (not chosen), renamed "NAME#2", "NAME#3"… when another set has its name
// but other values, so that two sets are never offered under one name; a fit that identified
// no piece is not offered (false). `current` (the user's latest fit): it becomes the set under
// test, chosen first, in place of an earlier fit or the bundled sample's learned-sample.
bool offer_fit(PlayForm& form, play::ValueSet set, const std::string& source, bool current);
// The article's experiment: its four engine versions, learned-sample and classic, round robin.
void article_preset(PlayForm& form);

// Starts a match from the form (play.error says why not) and hands each worker a task.
void start_play(PlayTest& play);
// Stops the workers; what was played is kept (a self-play loop stops too).
void cancel_play(PlayTest& play);
// Starts a self-play loop of `rounds` rounds from the form's first chosen set, with its limit,
// pairs and seed.
void start_selfplay(PlayTest& play, int rounds);
// The fit of a round's games arrived (fit-done): its values end the round and start the next.
void selfplay_learned(PlayTest& play, const play::ValueSet& learned);
// A play worker's message.
void apply_play_message(PlayTest& play, PlayMessage type, const JsonValue& message);

// Seconds the match has run (to its end, or now).
double play_seconds(const PlayTest& play);
// Games finished per minute of the match, once it has run kRateSeconds (an earlier rate is the
// first pair's luck); none before.
inline constexpr double kRateSeconds = 5;
std::optional<double> games_per_minute(const PlayTest& play);
// The exports: the games as PGN (one Round per pair) and the statistics as JSON, the same
// writer as `materialist match --json` (play/match_report.h).
std::string play_pgn(const PlayTest& play);
std::string play_json(const PlayTest& play);
// Queues a download of `text` as `name` (the page's `save` command).
void save_text(PlayTest& play, const std::string& name, const std::string& mime,
               const std::string& text);
// The share link's query of the form ("play&sets=classic,learned-sample&nodes=2000&pairs=20").
// Learned tables (768 numbers) are left out: the panel says so.
std::string play_link(const PlayForm& form);
// A set of piece-square tables other than the published "simplified" one.
bool carries_learned_tables(const play::ValueSet& set);
// Reads a play link's parameters (as play_link writes them) into the form; an error names the
// parameter.
std::optional<Error> read_play_link(PlayForm& form, std::string_view query);
// The first pairing's verdict in words (play::pairing_verdict): playing while the match runs,
// finished, or cancelled; nullopt with no match.
std::optional<play::Verdict> play_verdict(const PlayTest& play);
// The Elo chart's vertical range: the latest point's 95% band, the estimates of the later half
// of the games and 0, at least kEloAxisMinSpan wide and within ±kEloAxisLimit. An early
// point's wide (or unbounded) band is clipped by the axis, not what fixes it.
inline constexpr double kEloAxisMinSpan = 50;
inline constexpr double kEloAxisLimit = 800;
struct EloAxis {
  double lo = -kEloAxisMinSpan / 2, hi = kEloAxisMinSpan / 2;
};
EloAxis elo_chart_axis(const std::vector<PlayPoint>& history);
// A one-line summary for the page's mirror (the `play-status` command's fields).
std::string play_status_json(const PlayTest& play);
// The form's chosen sets, in order.
std::vector<play::ValueSet> chosen_sets(const PlayForm& form);
// The pieces of these sets that play a fallback value because their fit could not identify
// them: "fit:merged: queen 900; round-1: knight 310" ("" when none).
std::string fallback_notes(const std::vector<play::ValueSet>& sets);

}  // namespace materialist::app
