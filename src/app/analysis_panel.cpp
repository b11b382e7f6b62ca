#include "app/analysis_panel.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "app/band_chart.h"
#include "app/fit_panel.h"
#include "app/theme.h"
#include "app/widgets.h"
#include "core/text.h"
#include "imgui_stdlib.h"
#include "learn/vocabulary/time_control.h"

namespace materialist::app {
namespace {

// An optional whole number: an empty field (showing "any") means no limit. The text is rebuilt
// from the value every frame, which is exact because every keystroke updates the value.
void optional_int(AppState& state, const char* label, std::optional<int>& value, float width,
                  const char* published_as, float scale) {
  std::string text = value ? std::to_string(*value) : std::string();
  ImGui::SetNextItemWidth(width);
  if (ImGui::InputTextWithHint(label, "any", &text, ImGuiInputTextFlags_CharsDecimal)) {
    const long parsed = text.empty() ? 0 : std::strtol(text.c_str(), nullptr, 10);
    value =
        parsed > 0 && parsed < 100000 ? std::optional<int>(static_cast<int>(parsed)) : std::nullopt;
  }
  publish(state, published_as, scale);
}

// A whole-number field kept within [low, high], published for tests under `published_as`.
void clamped_int(AppState& state, const char* label, int& value, int low, int high, int step,
                 const char* published_as, float scale) {
  ImGui::InputInt(label, &value, step, step * 10);
  publish(state, published_as, scale);
  value = std::clamp(value, low, high);
}

void text_field(AppState& state, const char* label, std::string& value, float width,
                const char* published_as, float scale, const char* hint = "") {
  ImGui::SetNextItemWidth(width);
  ImGui::InputTextWithHint(label, hint, &value);
  publish(state, published_as, scale);
}

std::string date_text(const std::optional<learn::PgnDate>& date) {
  return date ? learn::format_pgn_date(*date) : std::string();
}

// A date field: typed text, read when it parses ("2021.10.01", "2021", empty = open).
void date_field(AppState& state, const char* label, std::optional<learn::PgnDate>& date,
                float width, const char* published_as, float scale) {
  std::string text = date_text(date);
  ImGui::SetNextItemWidth(width);
  ImGui::PushID(label);
  if (ImGui::InputTextWithHint(label, "yyyy.mm.dd", &text, ImGuiInputTextFlags_EnterReturnsTrue)) {
    if (text.empty()) date.reset();
    if (auto parsed = learn::parse_pgn_date(text)) date = *parsed;
  }
  ImGui::PopID();
  publish(state, published_as, scale);
}

// The fit's target is a read option (only positions with an [%eval] become rows): like the
// other read settings it waits for Apply, which reads the files again.
void target_choice(AppState& state, float scale) {
  constexpr const char* kAbout =
      "Engine evaluation: each position's target is the [%eval] written after the move that led "
      "to it (lichess's analysis), as White's expected score, instead of the game's result. Only "
      "annotated positions count; Apply reads the files again.";
  ImGui::BeginGroup();
  ImGui::AlignTextToFramePadding();
  ImGui::TextColored(to_vec4(kMuted), "Target");
  ImGui::SameLine();
  constexpr std::array<Choice, 2> kTargets = {
      {{"result", "game result"}, {"eval", "engine evaluation ([%eval])"}}};
  int target = static_cast<int>(state.settings.read.target);
  radio_row(state, "target", kTargets, target, scale);
  state.settings.read.target = static_cast<learn::Target>(target);
  ImGui::EndGroup();
  if (ImGui::IsItemHovered()) tooltip(kAbout);
  // Said in words too while chosen (a phone has no pointer to hover with).
  if (state.settings.read.target == learn::Target::kEval) note(kAbout, kMuted);
}

void bootstrap(AppState& state, float scale) {
  constexpr std::array<int, 4> kReplicates = {0, 100, 200, 500};
  ImGui::AlignTextToFramePadding();
  ImGui::TextColored(to_vec4(kMuted), "Bootstrap replicates");
  for (int replicates : kReplicates) {
    const std::string label = std::to_string(replicates);
    same_line_or_wrap(toggle_width(label.c_str()));
    ImGui::PushID("bootstrap");
    if (ImGui::RadioButton(label.c_str(), state.settings.read.bootstrap == replicates)) {
      state.settings.read.bootstrap = replicates;
    }
    ImGui::PopID();
    publish(state, ("bootstrap:" + label).c_str(), scale);
  }
}

void position_options(AppState& state, float field, float scale) {
  learn::QuietFilterOptions& quiet = state.settings.read.quiet;
  ImGui::TextColored(to_vec4(kMuted), "Positions");
  // Never narrower than three digits beside their +/- buttons (a phone's large targets).
  const float number = std::max(field * 0.5f, int_field_width(3));
  ImGui::SetNextItemWidth(number);
  clamped_int(state, "quiet plies", quiet.quiet_plies, 0, 20, 1, "quiet:plies", scale);
  same_line_or_wrap(number + ImGui::GetStyle().ItemInnerSpacing.x +
                    ImGui::CalcTextSize("skip first plies").x);
  ImGui::SetNextItemWidth(number);
  clamped_int(state, "skip first plies", quiet.skip_first_plies, 0, 400, 1, "quiet:skip-first",
              scale);
  checkbox(state, "checks break quietness", quiet.checks_break_quiet, "quiet:checks", scale);
  same_line_or_wrap(toggle_width("one row per material vector"));
  checkbox(state, "one row per material vector", quiet.distinct_per_game, "quiet:distinct", scale);
}

void game_filters(AppState& state, float field, float scale) {
  learn::GameFilterOptions& f = state.filter_form;
  const bool player_view_before = learn::player_view(f);
  ImGui::TextColored(to_vec4(kMuted), "Game filters");
  text_field(state, "player", f.player, field, "filter:player", scale, "name, or prefix*");
  constexpr std::array<Choice, 3> kSides = {
      {{"either", "either side"}, {"white", "white"}, {"black", "black"}}};
  int side = static_cast<int>(f.player_side);
  radio_row(state, "filter:side", kSides, side, scale);
  f.player_side = static_cast<learn::PlayerSide>(side);
  checkbox(state, "values from the player's point of view", f.player_perspective, "filter:pov",
           scale);
  // From one player's side the intercept is that player's edge over the opponent (without it the
  // fit is the same as White's, by the model's symmetry): choosing a player turns it on.
  if (!player_view_before && learn::player_view(f)) state.settings.fit.model.intercept = true;
  text_field(state, "opponent", f.opponent, field, "filter:opponent", scale, "name, or prefix*");

  optional_int(state, "Elo min", f.elo.min, field * 0.42f, "filter:elo-min", scale);
  same_line_or_wrap(field * 0.42f + ImGui::CalcTextSize(" max").x);
  optional_int(state, "max", f.elo.max, field * 0.42f, "filter:elo-max", scale);
  optional_int(state, "max rating difference", f.max_rating_difference, field * 0.42f,
               "filter:max-diff", scale);
  same_line_or_wrap(toggle_width("keep unrated"));
  checkbox(state, "keep unrated", f.keep_unrated, "filter:unrated", scale);

  constexpr std::array<const char*, 6> kSpeeds = {"ultrabullet", "bullet",    "blitz",
                                                  "rapid",       "classical", "correspondence"};
  for (std::size_t i = 0; i < kSpeeds.size(); ++i) {
    if (i % 3 != 0) same_line_or_wrap(toggle_width(kSpeeds[i]));
    bool kept = (f.speeds >> i) & 1u;
    if (ImGui::Checkbox(kSpeeds[i], &kept)) {
      f.speeds = static_cast<std::uint8_t>(kept ? f.speeds | (1u << i) : f.speeds & ~(1u << i));
    }
    publish(state, (std::string("tc:") + kSpeeds[i]).c_str(), scale);
  }
  date_field(state, "from", f.date_from, field * 0.5f, "filter:date-from", scale);
  same_line_or_wrap(field * 0.5f + ImGui::CalcTextSize(" to").x);
  date_field(state, "to", f.date_to, field * 0.5f, "filter:date-to", scale);
  text_field(state, "event contains", f.event_contains, field, "filter:event", scale);
  ImGui::SetNextItemWidth(field);
  ImGui::InputTextWithHint("exclude terminations", "Time forfeit, Abandoned",
                           &state.terminations_text);
  publish(state, "filter:terminations", scale);
  f.excluded_terminations.clear();
  std::size_t start = 0;
  const std::string& list = state.terminations_text;
  while (start <= list.size()) {
    std::size_t end = list.find(',', start);
    if (end == std::string::npos) end = list.size();
    std::string item = list.substr(start, end - start);
    item.erase(0, item.find_first_not_of(' '));
    item.erase(item.find_last_not_of(' ') + 1);
    if (!item.empty()) f.excluded_terminations.push_back(item);
    start = end + 1;
  }
  ImGui::SetNextItemWidth(field * 0.42f);
  clamped_int(state, "min plies", f.min_plies, 0, 1000, 0, "filter:min-plies", scale);
  checkbox(state, "keep Chess960", f.keep_chess960, "filter:chess960", scale);
  same_line_or_wrap(toggle_width("keep FEN-started games"));
  checkbox(state, "keep FEN-started games", f.keep_set_up, "filter:setup", scale);
}

void dataset_options(AppState& state, float field, float scale) {
  protocol::ReadOptions& read = state.settings.read;
  ImGui::TextColored(to_vec4(kMuted), "Datasets");
  constexpr std::array<Choice, 3> kModes = {{{"merge", "merge all files"},
                                             {"per-file", "each file a dataset"},
                                             {"per-filter", "one per filter"}}};
  int mode = static_cast<int>(read.datasets);
  radio_row(state, "datasets", kModes, mode, scale);
  read.datasets = static_cast<protocol::DatasetMode>(mode);
  band_presets(state, scale);
  if (read.datasets != protocol::DatasetMode::kPerFilter) return;
  int remove = -1;
  for (std::size_t i = 0; i < read.each_filter.size(); ++i) {
    ImGui::PushID(static_cast<int>(i));
    ImGui::ColorButton("##colour", to_vec4(dataset_color(static_cast<int>(i))),
                       ImGuiColorEditFlags_NoTooltip);
    ImGui::SameLine();
    const float room = ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize("remove").x -
                       4 * ImGui::GetStyle().ItemSpacing.x;
    ImGui::SetNextItemWidth(std::max(std::min(field * 1.3f, room), 6 * ImGui::GetFontSize()));
    ImGui::InputTextWithHint("##filter", "e.g. tc=blitz", &read.each_filter[i]);
    publish(state, ("each:" + std::to_string(i)).c_str(), scale);
    ImGui::SameLine();
    if (ImGui::SmallButton("remove")) remove = static_cast<int>(i);
    ImGui::PopID();
  }
  if (remove >= 0) read.each_filter.erase(read.each_filter.begin() + remove);
  if (button(state, "+ filter", scale)) read.each_filter.emplace_back();
  same_line_or_wrap(button_width("bullet vs blitz vs rapid"));
  if (button(state, "bullet vs blitz vs rapid", scale, true, "each:speeds")) {
    read.each_filter = {"tc=bullet", "tc=blitz", "tc=rapid"};
  }
  same_line_or_wrap(button_width("Elo bands"));
  if (button(state, "Elo bands", scale, true, "each:elo")) {
    read.each_filter = {"elo=-1599", "elo=1600-1999", "elo=2000-"};
  }
}

// "Stop after N games / the first N MB": for a first look at a month of lichess. An empty field
// (showing "all") reads everything.
void read_limits(AppState& state, float field, float scale) {
  protocol::ReadOptions& read = state.settings.read;
  ImGui::TextColored(to_vec4(kMuted), "Read only the first (empty: everything)");
  std::string games = read.max_games ? std::to_string(read.max_games) : std::string();
  ImGui::SetNextItemWidth(field * 0.5f);
  if (ImGui::InputTextWithHint("games, or", "all", &games, ImGuiInputTextFlags_CharsDecimal)) {
    read.max_games = games.empty() ? 0 : std::strtoull(games.c_str(), nullptr, 10);
  }
  publish(state, "limit:games", scale);
  same_line_or_wrap(field * 0.5f + ImGui::CalcTextSize(" MB of the files").x);
  char shown[32] = "";
  if (read.max_megabytes > 0) std::snprintf(shown, sizeof shown, "%g", read.max_megabytes);
  std::string megabytes = shown;
  ImGui::SetNextItemWidth(field * 0.5f);
  if (ImGui::InputTextWithHint("MB of the files", "all", &megabytes,
                               ImGuiInputTextFlags_CharsDecimal)) {
    read.max_megabytes = parse_real(megabytes).value_or(0);  // empty or unfinished: all
  }
  publish(state, "limit:megabytes", scale);
}

}  // namespace

void filtered_counts(const AppState& state) {
  const protocol::DataReport& r = state.report;
  if (!state.has_report || r.filtered_by.empty()) return;
  std::string line = "Removed by the filters: ";
  for (std::size_t i = 0; i < r.filtered_by.size(); ++i) {
    if (i > 0) line += ", ";
    line += r.filtered_by[i].reason + " " + grouped(r.filtered_by[i].games);
  }
  line += " (of " + grouped(r.games) + " games)";
  ImGui::PushTextWrapPos(0);
  ImGui::TextColored(to_vec4(kMuted), "%s", line.c_str());
  ImGui::PopTextWrapPos();
}

namespace {

void sharing(AppState& state, std::vector<Command>& commands, float scale) {
  if (button(state, "Copy share link", scale)) {
    Command share = fit_command(state);
    share.kind = Command::Kind::kShare;
    commands.push_back(share);
  }
  same_line_or_wrap(button_width("Analysis JSON"));
  const bool fitted = !state.trajectory.fits.empty() && !state.busy();
  const std::string why = export_hint(state);
  if (button_or_why(state, "Analysis JSON", scale, fitted, why)) {
    Command export_command{Command::Kind::kExport};
    export_command.format = "provenance";
    commands.push_back(export_command);
  }
  same_line_or_wrap(button_width("Copy as code"));
  if (button_or_why(state, "Copy as code", scale, fitted, why)) {
    Command export_command{Command::Kind::kExport};
    export_command.format = "code";
    commands.push_back(export_command);
  }
  // Said in words too (a phone has no pointer to hover with).
  if (!fitted && !why.empty()) note(why.c_str(), kMuted);
}

// "Apply (re-reads the files)" with the group's state beside it: pending edits in red.
void apply_row(AppState& state, std::vector<Command>& commands, bool pending, const char* published,
               float scale) {
  if (button(state, "Apply (re-reads the files)", scale, !state.busy() && pending, published)) {
    apply_read_settings(state);
    commands.push_back(fit_command(state));
  }
  same_line_or_wrap(ImGui::CalcTextSize("■ changed, not applied").x);
  if (pending) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextColored(to_vec4(kBad), "■ changed, not applied");
    publish(state, (std::string(published) + ":pending").c_str(), scale);
  } else {
    const std::string applied =
        "applied · filter: " +
        (state.applied_read.filter.empty() ? std::string("every game") : state.applied_read.filter);
    note(applied.c_str(), kMuted);
  }
}

}  // namespace

bool read_settings_pending(const AppState& state) {
  // The unknown-result policy applies at once (the Fit section): not part of what waits here.
  protocol::ReadOptions waiting = state.settings.read;
  waiting.unknown = state.applied_read.unknown;
  return !(waiting == state.applied_read);
}

void draw_analysis_panel(AppState& state, std::vector<Command>& commands, float scale) {
  const bool pending = read_settings_pending(state);
  ImGui::Spacing();
  section("Read: these need the files read again");
  const ImVec2 top = ImGui::GetCursorScreenPos();
  apply_row(state, commands, pending, "Apply filters", scale);
  // Fields grow with the text size (A+, wide screens), within the panel.
  const float field =
      std::min(15.5f * ImGui::GetFontSize(), ImGui::GetContentRegionAvail().x * 0.45f);
  ImGui::Indent(8 * scale);
  target_choice(state, scale);
  ImGui::Separator();
  bootstrap(state, scale);
  ImGui::Separator();
  position_options(state, field, scale);
  ImGui::Separator();
  game_filters(state, field, scale);
  state.settings.read.filter = learn::format_game_filter(state.filter_form);
  ImGui::Separator();
  dataset_options(state, field, scale);
  read_limits(state, field, scale);
  ImGui::Unindent(8 * scale);
  if (!state.filter_error.empty()) {
    note(("shared filter not understood: " + state.filter_error).c_str(), kBad);
  }
  apply_row(state, commands, read_settings_pending(state), "Apply filters:bottom", scale);
  // A frame around the group: red while edits wait for Apply.
  const ImVec2 bottom = ImGui::GetItemRectMax();
  ImGui::GetWindowDrawList()->AddRect(
      ImVec2(top.x - 4 * scale, top.y - 4 * scale),
      ImVec2(top.x + ImGui::GetContentRegionAvail().x + 2 * scale, bottom.y + 4 * scale),
      pending ? kBad : IM_COL32(80, 86, 100, 160), 6 * scale, 0, 1.5f * scale);
  ImGui::Spacing();
  filtered_counts(state);
  sharing(state, commands, scale);
  if (read_settings_pending(state)) {
    note("The share link holds the applied settings only: apply the changes to share them.",
         kMuted);
  }
}

}  // namespace materialist::app
