// The app's state: the protocol's messages and settings (protocol/messages.h), kept as they
// arrive, plus what only the canvas needs (layout, drag, the filter form). apply_message() updates
// it once per frame from the worker's messages; UI code reads and edits it and returns commands.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/play_state.h"
#include "app/player_form.h"
#include "app/squares_result.h"
#include "learn/filter/game_filter.h"
#include "protocol/messages.h"

namespace materialist::app {

inline constexpr int kPieceCount = 5;                 // P N B R Q
using PieceValues = std::array<double, kPieceCount>;  // pawn = 100

// The i-th entry of a snapshot's or fit's vector, NaN past its end.
inline double entry(const std::vector<double>& values, int i) {
  return i >= 0 && static_cast<std::size_t>(i) < values.size()
             ? values[static_cast<std::size_t>(i)]
             : std::numeric_limits<double>::quiet_NaN();
}
// "Pawn" .. "Queen" and "P" .. "Q" (learn owns the names).
std::string piece_name(int piece);
const char* piece_letter(int piece);

// The live convergence view: every snapshot received for the current fit, then its results.
struct Trajectory {
  learn::SolverKind solver = learn::SolverKind::kGradientDescent;
  std::string preset;
  int planned_iterations = 0;
  bool done = false;
  std::string reason;  // why the worker chose its solver (fit-begin)
  std::vector<protocol::Snapshot> snapshots;
  std::vector<protocol::Fit> fits;  // fit-done: one per dataset
  // Every dataset is a band (learn/filter/bands.h): each fit is then named by its band
  // ("1400-1599").
  bool bands = false;
  std::vector<protocol::Difference> differences;
};

// The live view while reading: the first dataset's values (pawn = 100) and their errors after
// `games` games, one point per estimate message.
struct EstimatePoint {
  std::uint64_t games = 0;
  PieceValues values{}, se{};
};

// Screen rectangles (CSS pixels) of the main buttons, published for tests that click them.
struct ButtonRect {
  std::string label;
  float x = 0, y = 0, w = 0, h = 0;
};

struct AppState {
  protocol::Phase phase = protocol::Phase::kIdle;
  std::string status;  // one line: what is happening
  std::string error;   // last error shown in a banner until dismissed or a new read starts
  bool drag_over = false;
  int drag_file_count = 0;
  protocol::Progress progress;
  bool has_report = false;
  protocol::DataReport report;
  Trajectory trajectory;
  protocol::Balance balance;
  protocol::Estimate estimate;           // the latest estimate of this read
  std::vector<EstimatePoint> estimates;  // every estimate of this read, in order
  // What the controls hold: `settings.fit` and `settings.read.unknown` apply at once; the rest
  // of `settings.read` (the Read group of the settings) when applied.
  protocol::Settings settings;
  protocol::ReadOptions applied_read;    // the read options the worker has (last Apply)
  learn::GameFilterOptions filter_form;  // the filter as the panel edits it
  std::string filter_error;              // a filter text that did not parse (share link)
  std::string terminations_text;         // "Time forfeit, Abandoned" as typed
  bool settings_restored = false;        // the page passed settings (a share link)
  std::vector<std::string> link_files;   // a link made from local files: their names, to drop
  std::vector<ButtonRect> buttons;       // filled by the UI every frame
  float wheel_x = 0, wheel_y = 0;        // mouse wheel notches since the last frame (positive = up)
  std::string toast;                     // a short note shown for a few seconds ("Link copied")
  double toast_since = -1;               // ImGui time it appeared (-1: not drawn yet)
  bool settings_open = true;             // the settings panel (collapsible)
  bool about_open = false;               // the "About" window
  bool player_open = false;              // the "Player" window (player_panel.h)
  PlayerForm player_form;                // its fields
  bool touch = false;                    // a touch screen with no fine pointer: "Choose files"
  float zoom = 0;                        // text size factor (0: automatic, larger on wide screens)
  PlayTest play;                         // the Play-test window and its match (play_state.h)
  // Result vs evaluation (target_panel.h): the last comparison of the two targets on this data,
  // whether its window is open, and whether one was asked for and has not come back.
  std::optional<protocol::TargetCompare> target_compare;
  bool target_compare_open = false;
  bool target_compare_waiting = false;
  // Values by square (app/squares_panel.h): the last fit of this data, its window, the phase
  // shown (0 middlegame, 1 endgame).
  std::optional<SquaresResult> squares;
  bool squares_open = false;
  int squares_phase = 0;

  bool has_data() const { return has_report && report.rows > 0; }
  // Values from one player's point of view (the applied filter names a player, pov on): the
  // sides are "the player" and "the opponent", the intercept is the player's edge.
  bool player_view() const;
  bool busy() const {
    return phase == protocol::Phase::kReading || phase == protocol::Phase::kFitting;
  }
  // The index of settings.fit.preset in protocol::presets() (the last, "custom", if unknown).
  int preset_index() const;
};

// What the UI asks the worker (through the page) to do.
struct Command {
  enum class Kind : std::uint8_t {
    kOpenFiles,      // show the file picker
    kLoadSample,     // read the bundled sample
    kCancel,         // stop reading or fitting
    kFit,            // refit with `settings` from the kept histogram
    kExport,         // `format`: "mat", "csv", "json", "png", "provenance", "code"
    kReset,          // forget all data
    kDismissError,   // clear the error banner (app-only; the page resets data-state)
    kShare,          // the page writes a share link of `settings` ("link": the compact query)
    kLoadPlayer,     // read `player`'s games from lichess or chess.com with `settings`
    kUnits,          // the values' unit changed (`settings.units`): status line and exports
    kCompareTargets  // fit both targets on the annotated positions with `settings`' model
  };
  Kind kind;
  protocol::Settings settings{};  // with `read` as applied (kFit, kShare)
  std::string format{};
  PlayerForm player{};         // kLoadPlayer
  bool with_settings = false;  // kLoadSample: read with `settings` (else the worker's own)
};

// Applies one worker or page message (JSON text, web/PROTOCOL.md) to the state; returns false
// (and leaves the state as it was) when the text is not a message it understands.
bool apply_message(AppState& state, std::string_view json);

// The command's JSON for the page: {"type": "fit", "settings": {...}}, {"type": "export",
// "format": "csv"}, ...
std::string encode_command(const Command& command);

// The settings the worker should fit with: the controls' fit settings and unknown-result
// policy, with the read options last applied.
protocol::Settings applied_settings(const AppState& state);

// The settings a preset starts from: its fit settings and unknown-result policy, every read
// option at its default (no filter, the article's quiet filter, one dataset), pawn units.
// "custom" (or an unknown id) starts from the first preset, the article's.
protocol::Settings preset_settings(std::string_view preset_id);

// Reset: the data are forgotten and every setting returns to the preset's (the filter, a
// player's model, bootstrap and datasets included), with or without a fit; the command carries
// them to the worker, which takes them for the next read.
Command reset_to_preset(AppState& state);

// Load sample. A link made from local files (link_files) carries a game filter meant for those
// files (a player's name, an event): the sample is read without it, and a player's model with
// it, and a toast names what was left out; the command then carries the settings to read with.
Command load_sample(AppState& state);

// Applies the Read group's settings (its Apply button). "My values" has one meaning whichever way
// it is reached: a filter that newly takes a player's point of view turns on the Player window's
// model too (the player's edge: the intercept; own vs opponent's pieces), as Player… does.
void apply_read_settings(AppState& state);

// Why the exports of a fit are disabled now ("" when they are not): no data, a read running, a
// fit not done.
std::string export_hint(const AppState& state);

// After a comparison by speed or rating band whose data fill fewer than two bands: what ran and
// what it found ("Compared by speed: every game with rows is blitz: one fit, no comparison"), so
// a single fit is never taken for a comparison that did not run. "" otherwise.
std::string comparison_note(const AppState& state);
// A fit's piece values as a value set to play (pawn = 100; a piece the fit did not identify
// keeps the fallback's value, 1-3-3-5-9's without one, and is marked in `fallback_pieces`; a
// bishop pair when fitted), named `name`.
play::ValueSet fit_value_set(const protocol::Fit& fit, const std::string& name,
                             const play::ValueSet* fallback = nullptr);
// The name a fit's values play under: its dataset (the source file), its target and its solver,
// "fit:OpenRating.pgn/result/newton", so that two fits are never offered under one name.
std::string fit_set_name(const protocol::Fit& fit, learn::Target target, learn::SolverKind solver);

// A coefficient, and its standard error, in the chosen unit.
double in_unit(const protocol::Coefficient& c, protocol::Units units);
double se_in_unit(const protocol::Coefficient& c, protocol::Units units);
// The factor from pawn = 100 to the chosen unit: 1 in pawn units; in Elo and log-odds the ended
// fit's pawn (the player's own pawn for split sides, the middlegame pawn for tapered values),
// none while a fit runs or when that pawn is not identified or not positive.
std::optional<double> unit_scale(const AppState& state);
// unit_scale, or 1 when there is none (values then stay pawn = 100).
double unit_per_pawn_value(const AppState& state);

}  // namespace materialist::app
