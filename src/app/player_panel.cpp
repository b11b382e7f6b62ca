#include "app/player_panel.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <string>

#include "app/player_form.h"
#include "app/theme.h"
#include "app/widgets.h"
#include "imgui.h"
#include "imgui_stdlib.h"

namespace materialist::app {
namespace {

// A text field after its label; only the field is published (tests click its middle).
bool field(AppState& state, const char* label, std::string& value, const char* hint, float width,
           const char* published_as, float scale, ImGuiInputTextFlags flags = 0) {
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(label);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(width);
  ImGui::PushID(published_as);
  const bool changed = ImGui::InputTextWithHint("", hint, &value, flags);
  ImGui::PopID();
  publish(state, published_as, scale);
  return changed;
}

}  // namespace

void draw_player_panel(AppState& state, std::vector<Command>& commands, float scale) {
  if (!state.player_open) return;
  PlayerForm& form = state.player_form;
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  // Centred, as wide as fits (up to 560), as tall as its contents (a height of 0 fits them).
  begin_centred_window("Load a player's games",
                       ImVec2(std::min(display.x - 24 * scale, 560 * scale), 0));
  const float width =
      std::min(16.0f * ImGui::GetFontSize(), ImGui::GetContentRegionAvail().x * 0.6f);

  int service = form.chesscom ? 1 : 0;
  constexpr std::array<Choice, 2> kServices = {{{"lichess", "lichess"}, {"chesscom", "chess.com"}}};
  radio_row(state, "player", kServices, service, scale);
  form.chesscom = service == 1;
  field(state, "username", form.user, "e.g. DrNykterstein", width, "player:user", scale);
  ImGui::Spacing();

  constexpr std::array<Choice, 5> kSpeeds = {{{"any", "any speed"},
                                              {"bullet", "bullet"},
                                              {"blitz", "blitz"},
                                              {"rapid", "rapid"},
                                              {"classical", "classical"}}};
  radio_row(state, "player:speed", kSpeeds, form.speed, scale);
  if (!form.chesscom) {
    checkbox(state, "rated games only", form.rated, "player:rated", scale);
  } else {
    note(
        "chess.com's archives are whole months of every speed: the speed and the days filter "
        "the games here",
        kMuted);
  }
  field(state, "from", form.since, "YYYY-MM-DD", width * 0.5f, "player:since", scale);
  ImGui::SameLine();
  field(state, "to", form.until, "YYYY-MM-DD", width * 0.5f, "player:until", scale);
  std::string max_text = form.max_games ? std::to_string(form.max_games) : std::string();
  if (field(state, "most games (newest first)", max_text, "all", width * 0.5f, "player:max", scale,
            ImGuiInputTextFlags_CharsDecimal)) {
    form.max_games = max_text.empty() ? 0 : std::strtoull(max_text.c_str(), nullptr, 10);
  }
  checkbox(state, "My values: from this player's side", form.mine, "player:mine", scale);
  ImGui::Indent(ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x);
  note(
      "+ is the player's material and a win is theirs; the intercept is their edge over the "
      "opponents. Off: White against Black, as for any games.",
      kMuted);
  ImGui::Unindent(ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x);

  ImGui::Spacing();
  const std::string problem = player_form_problem(form);
  if (button(state, "Load games", scale, problem.empty() && !state.busy(), "player:load")) {
    commands.push_back(load_player(state, form));
    state.player_open = false;
  }
  ImGui::SameLine();
  if (button(state, "Close", scale, true, "player:close")) state.player_open = false;
  if (!problem.empty()) note(problem.c_str(), kMuted);
  note(form.chesscom
           ? "chess.com: the months are read one by one, newest first (chess.com asks for one "
             "request at a time)."
           : "lichess: the games stream newest first; after too many requests lichess asks to "
             "wait a minute.",
       kMuted);
  end_centred_window();
}

}  // namespace materialist::app
