#include "app/fit_panel.h"

#include <algorithm>
#include <array>
#include <string>

#include "app/imbalance_controls.h"
#include "app/target_panel.h"
#include "app/theme.h"
#include "app/widgets.h"
#include "learn/filter/game_filter.h"

namespace materialist::app {
namespace {

// The fit settings and unknown-result policy equal a preset's (the model is not part of one).
bool matches_preset(const protocol::FitSettings& fit, learn::UnknownResultPolicy unknown,
                    const protocol::Preset& preset) {
  protocol::FitSettings as_preset = preset.fit;
  as_preset.model = fit.model;
  as_preset.preset = fit.preset;
  return fit == as_preset && unknown == preset.unknown;
}

// Any edit away from the preset's values makes the settings custom.
void mark_custom(AppState& state) {
  const std::vector<protocol::Preset>& presets = protocol::presets();
  const protocol::Preset& preset = presets[static_cast<std::size_t>(state.preset_index())];
  if (!matches_preset(state.settings.fit, state.settings.read.unknown, preset))
    state.settings.fit.preset = presets.back().id;
}

// The outcome coding: one control for draws (the draw handling follows it).
bool outcome_options(AppState& state, float scale) {
  protocol::FitSettings& fit = state.settings.fit;
  protocol::ModelChoice& model = fit.model;
  constexpr std::array<Choice, 3> kOutcomes = {{{"draws-out", "draws left out"},
                                                {"fractional", "draws = ½ point"},
                                                {"ordinal", "ordinal (W/D/L)"}}};
  int outcomes = model.outcomes == learn::OutcomeModel::kOrdinal ? 2
                 : model.outcomes == learn::OutcomeModel::kFractional ||
                         fit.draws == learn::DrawHandling::kHalfPoint
                     ? 1
                     : 0;
  if (!radio_row(state, "model", kOutcomes, outcomes, scale)) return false;
  model.outcomes = static_cast<learn::OutcomeModel>(outcomes);
  if (outcomes == 0) fit.draws = learn::DrawHandling::kLeaveOut;
  if (outcomes == 1) fit.draws = learn::DrawHandling::kHalfPoint;
  return true;
}

bool model_terms(AppState& state, float scale) {
  protocol::ModelChoice& model = state.settings.fit.model;
  const bool player_view = learn::player_view(state.filter_form);
  bool changed = false;
  changed |=
      checkbox(state, player_view ? "player's edge (intercept)" : "intercept (White's first move)",
               model.intercept, "model:intercept", scale);
  same_line_or_wrap(toggle_width("bishop pair"));
  changed |= checkbox(state, "bishop pair", model.bishop_pair, "model:bishop-pair", scale);
  changed |= checkbox(state, "game phase (tapered)", model.phase, "model:phase", scale);
  same_line_or_wrap(toggle_width("rating offset (Elo)"));
  changed |= checkbox(state, "rating offset (Elo)", model.elo_offset, "model:elo", scale);
  changed |= checkbox(state, "side to move", model.side_to_move, "model:side-to-move", scale);
  same_line_or_wrap(toggle_width("own vs opponent's pieces"));
  changed |= split_sides_checkbox(state, scale);
  changed |= imbalance_checkboxes(state, scale);
  changed |= checkbox(state, "values by square (piece-square tables)", model.squares,
                      "model:squares", scale);
  if (ImGui::IsItemHovered()) {
    tooltip("A middlegame and an endgame value for every piece on every square, fitted beside "
            "the values (the files are read again: the read keeps each position's board)");
  }
  return changed;
}

void units(AppState& state, std::vector<Command>& commands, float scale) {
  constexpr std::array<Choice, 3> kUnits = {
      {{"pawn", "pawn = 100"}, {"elo", "Elo"}, {"logodds", "log-odds"}}};
  ImGui::AlignTextToFramePadding();
  ImGui::TextColored(to_vec4(kMuted), "Units");
  ImGui::SameLine();
  int picked = static_cast<int>(state.settings.units);
  if (radio_row(state, "units", kUnits, picked, scale)) {
    state.settings.units = static_cast<protocol::Units>(picked);
    // No refit: the worker says the fit in this unit (status line) and exports in it.
    commands.push_back(Command{Command::Kind::kUnits, applied_settings(state)});
  }
}

// The solver radio buttons (what ran when the worker overrode the choice, with its reason; the
// choice itself otherwise) and gradient descent's fields. True when the user picked a solver.
bool solver_choice(AppState& state, bool overridden, float field, bool& edited, float scale) {
  protocol::FitSettings& s = state.settings.fit;
  const Trajectory& t = state.trajectory;
  bool changed = false;
  ImGui::AlignTextToFramePadding();
  ImGui::TextColored(to_vec4(kMuted), "Solver");
  same_line_or_wrap(toggle_width("Gradient descent"));
  int solver = static_cast<int>(overridden ? t.solver : s.solver);
  ImGui::BeginDisabled(overridden);
  if (ImGui::RadioButton("Gradient descent", &solver, 0)) changed = true;
  publish(state, "solver:gd", scale);
  same_line_or_wrap(toggle_width("Newton (exact)"));
  if (ImGui::RadioButton("Newton (exact)", &solver, 1)) changed = true;
  publish(state, "Newton", scale);
  ImGui::EndDisabled();
  if (!overridden) s.solver = static_cast<learn::SolverKind>(solver);
  if (overridden) {
    note((solver_label(t.solver) + std::string(" ran: ") + t.reason).c_str(), kAccent);
    publish(state, "fit:overridden", scale);
  }
  // Gradient descent's step and iterations; edited once the user leaves a field.
  ImGui::BeginDisabled(s.solver == learn::SolverKind::kNewton || overridden);
  ImGui::SetNextItemWidth(field * 0.75f);
  ImGui::InputDouble("step α", &s.step, 0, 0, "%.3g");
  edited |= ImGui::IsItemDeactivatedAfterEdit();
  // Wide enough for "1000000" with its +/- buttons.
  const float iterations_width = std::max(field * 0.75f, int_field_width(7));
  same_line_or_wrap(iterations_width + ImGui::GetStyle().ItemInnerSpacing.x +
                    ImGui::CalcTextSize("iterations").x);
  ImGui::SetNextItemWidth(iterations_width);
  ImGui::InputInt("iterations", &s.iterations, 1000, 10000);
  edited |= ImGui::IsItemDeactivatedAfterEdit();
  publish(state, "fit:iterations", scale);
  ImGui::EndDisabled();
  return changed;
}

// The Preset combo; true when a preset was picked (its fit settings and unknown-result policy
// are then set). The combo and its items are published like buttons ("Preset", "preset:exact")
// for tests.
bool preset_combo(AppState& state, bool overridden, float field, float scale) {
  protocol::FitSettings& s = state.settings.fit;
  const std::vector<protocol::Preset>& presets = protocol::presets();
  const Trajectory& t = state.trajectory;
  bool apply_now = false;
  ImGui::SetNextItemWidth(field * 1.6f);
  const int current = state.preset_index();
  std::string preview = presets[static_cast<std::size_t>(current)].label;
  // The preset's solver did not run: say what did (the reason is under the solver).
  if (overridden)
    preview = std::string(solver_label(t.solver)) +
              " for this model (preset: " + presets[static_cast<std::size_t>(current)].id + ")";
  if (ImGui::BeginCombo("Preset", preview.c_str())) {
    for (int i = 0; i < static_cast<int>(presets.size()); ++i) {
      const protocol::Preset& preset = presets[static_cast<std::size_t>(i)];
      const bool picked = ImGui::Selectable(preset.label, current == i);
      publish(state, (std::string("preset:") + preset.id).c_str(), scale);
      if (picked && current != i) {
        const protocol::ModelChoice model = s.model;
        s = preset.fit;
        s.model = model;
        // A preset names its draw handling: the outcome coding follows it (ordinal stays).
        if (s.model.outcomes == learn::OutcomeModel::kFractional &&
            s.draws == learn::DrawHandling::kLeaveOut)
          s.model.outcomes = learn::OutcomeModel::kDrawsOut;
        state.settings.read.unknown = preset.unknown;
        apply_now = true;
      }
    }
    ImGui::EndCombo();
  } else {
    publish(state, "Preset", scale);
  }
  return apply_now;
}

// The Model row: the outcome coding, the evaluation target's refusals and the model's terms;
// true when the model changed (the settings then leave a preset whose draws differ).
bool model_controls(AppState& state, float scale) {
  protocol::FitSettings& s = state.settings.fit;
  ImGui::AlignTextToFramePadding();
  ImGui::TextColored(to_vec4(kMuted), "Model");
  ImGui::SameLine();
  const bool model_changed = outcome_options(state, scale);
  // Beside the outcome coding and above the terms, where the refused choices are.
  if (const std::string refusal = target_refusal(state); !refusal.empty()) {
    note(("Not with the evaluation target: " + refusal).c_str(), kBad);
  }
  const bool terms_changed = model_terms(state, scale);
  if (!model_changed && !terms_changed) return false;
  const protocol::Preset* preset = protocol::find_preset(s.preset);
  if (preset == nullptr || s.draws != preset->fit.draws) s.preset = protocol::presets().back().id;
  return true;
}

// The λ (L2) field and the unknown-result combo beside it; true when the combo changed, `edited`
// set when λ was edited.
bool regularisation_and_unknown(AppState& state, float field, bool& edited) {
  protocol::FitSettings& s = state.settings.fit;
  bool apply_now = false;
  ImGui::SetNextItemWidth(field * 0.75f);
  ImGui::InputDouble("λ (L2)", &s.lambda, 0, 0, "%.3g");
  edited |= ImGui::IsItemDeactivatedAfterEdit();
  s.step = std::clamp(s.step, 1e-4, 100.0);
  s.iterations = std::clamp(s.iterations, 1, 1000000);
  s.lambda = std::clamp(s.lambda, 0.0, 10.0);
  // Beside λ when there is room (not on a phone); never narrower than its longest choice.
  const char* unknown_modes[] = {"skip \"*\" games", "\"*\" as draw (article)"};
  const float unknown_width =
      std::max(field * 0.85f, ImGui::CalcTextSize(unknown_modes[1]).x + ImGui::GetFrameHeight() +
                                  2 * ImGui::GetStyle().FramePadding.x);
  same_line_or_wrap(unknown_width + ImGui::GetStyle().ItemInnerSpacing.x +
                    ImGui::CalcTextSize("unknown").x);
  int unknown = static_cast<int>(state.settings.read.unknown);
  ImGui::SetNextItemWidth(unknown_width);
  if (ImGui::Combo("unknown", &unknown, unknown_modes, 2)) apply_now = true;
  state.settings.read.unknown = static_cast<learn::UnknownResultPolicy>(unknown);
  return apply_now;
}

}  // namespace

Command fit_command(const AppState& state) {
  return Command{Command::Kind::kFit, applied_settings(state)};
}

void draw_fit_settings(AppState& state, std::vector<Command>& commands, float scale) {
  section("Fit: applies at once (refits the kept positions, no re-reading)");
  protocol::FitSettings& s = state.settings.fit;
  const protocol::FitSettings before = s;
  const learn::UnknownResultPolicy unknown_before = state.settings.read.unknown;
  const Trajectory& t = state.trajectory;
  // The worker says why it ran another solver than the one asked for (the ordinal model needs
  // Newton): the controls then show what ran, disabled, with that reason.
  const bool overridden = !t.reason.empty() && t.solver != s.solver;
  bool apply_now = false;
  // Fields grow with the text size (A+, wide screens), within the panel.
  const float field =
      std::min(15.5f * ImGui::GetFontSize(), ImGui::GetContentRegionAvail().x * 0.45f);

  if (preset_combo(state, overridden, field, scale)) apply_now = true;
  // The solver first: the model's many terms below would push it out of a laptop's view.
  bool edited = false;
  if (solver_choice(state, overridden, field, edited, scale)) apply_now = true;
  if (model_controls(state, scale)) apply_now = true;
  if (regularisation_and_unknown(state, field, edited)) apply_now = true;
  units(state, commands, scale);

  if ((!(s == before) || state.settings.read.unknown != unknown_before) &&
      s.preset == before.preset)
    mark_custom(state);
  const bool can_fit = state.has_data() && state.phase != protocol::Phase::kReading;
  // Sent even without data: the worker keeps the settings for the next read.
  if (apply_now || edited) commands.push_back(fit_command(state));
  if (button(state, "Refit", scale, can_fit)) commands.push_back(fit_command(state));
}

}  // namespace materialist::app
