#include "app/squares_panel.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>

#include "app/theme.h"
#include "app/widgets.h"

namespace materialist::app {
namespace {

constexpr std::array<const char*, kSquareTypes> kPieceNames = {"Pawn", "Knight", "Bishop",
                                                               "Rook", "Queen",  "King"};
constexpr std::array<const char*, 5> kMaterialLetters = {"P", "N", "B", "R", "Q"};

std::string square_name(int square) {
  return {static_cast<char>('a' + square % 8), static_cast<char>('1' + square / 8)};
}

// A value in the unit: "342", "0.57"; with the unit's suffix when `suffix`.
std::string square_text(double log_odds, const SquaresScale& unit, bool suffix = false) {
  char text[48];
  std::snprintf(text, sizeof text, unit.decimals ? "%.2f%s" : "%.0f%s",
                log_odds * unit.per_log_odds, suffix ? unit.suffix : "");
  return text;
}

// The mean of a piece's table over the squares with enough positions (the colours' centre).
double table_mean(const SquaresResult& r, int phase, int type) {
  double sum = 0;
  int count = 0;
  for (int s = 0; s < kSquareCount; ++s) {
    if (r.sparse(type, s)) continue;
    sum += r.value[phase][type][s];
    ++count;
  }
  return count > 0 ? sum / count : 0;
}

// The colour scale's half-width in log-odds: the 95th percentile of the squares' distances from
// their piece's mean (one scale for every piece and phase, so colours compare; an outlier on a
// rare square does not wash out the rest).
double colour_spread(const SquaresResult& r) {
  std::vector<double> distances;
  for (int phase = 0; phase < 2; ++phase) {
    for (int type = 0; type < kSquareTypes; ++type) {
      const double mean = table_mean(r, phase, type);
      for (int s = 0; s < kSquareCount; ++s) {
        if (!r.sparse(type, s)) distances.push_back(std::abs(r.value[phase][type][s] - mean));
      }
    }
  }
  if (distances.empty()) return 1;
  const std::size_t at = distances.size() * 95 / 100;
  std::nth_element(distances.begin(), distances.begin() + static_cast<std::ptrdiff_t>(at),
                   distances.end());
  return std::max(distances[std::min(at, distances.size() - 1)], 1e-6);
}

// Blue below the piece's mean, orange above, grey at it (t in −1..1).
ImU32 heat_color(double t) {
  t = std::clamp(t, -1.0, 1.0);
  const std::array<double, 3> base = {52, 56, 66};
  const std::array<double, 3> warm = {236, 138, 52};
  const std::array<double, 3> cool = {64, 132, 236};
  const std::array<double, 3>& end = t >= 0 ? warm : cool;
  const double a = std::abs(t);
  const auto mix = [&](int i) {
    return static_cast<int>(base[static_cast<std::size_t>(i)] +
                            (end[static_cast<std::size_t>(i)] - base[static_cast<std::size_t>(i)]) *
                                a);
  };
  return IM_COL32(mix(0), mix(1), mix(2), 255);
}

struct BoardLayout {
  float cell = 0;
  float margin = 0;  // for the rank and file labels
};

// One piece's table as an 8×8 heat map (a8 top left, as a board is printed), its title above.
void draw_board(AppState& state, const SquaresResult& r, int phase, int type,
                const SquaresScale& unit, double spread, const BoardLayout& layout, float scale) {
  const double mean = table_mean(r, phase, type);
  // Both phases' means: the taper between them is what a board alone cannot show.
  const std::string title =
      std::string(kPieceNames[static_cast<std::size_t>(type)]) +
      (type < 5 ? " · means: mg " + square_text(table_mean(r, 0, type), unit) + ", eg " +
                      square_text(table_mean(r, 1, type), unit) + " · material " +
                      square_text(r.material[static_cast<std::size_t>(type)], unit)
                : " · centred (its worth is not identified)");
  ImGui::TextUnformatted(title.c_str());
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float cell = layout.cell;
  const ImVec2 board_min(origin.x + layout.margin, origin.y);
  const bool labels = cell >= 26 * scale;
  int hovered = -1;
  ImVec2 hovered_min, hovered_max;
  for (int row = 0; row < 8; ++row) {
    const int rank = 7 - row;
    for (int file = 0; file < 8; ++file) {
      const int square = rank * 8 + file;
      const ImVec2 min(board_min.x + file * cell, board_min.y + row * cell);
      const ImVec2 max(min.x + cell - 1, min.y + cell - 1);
      const bool sparse = r.sparse(type, square);
      const double value = r.value[phase][type][square];
      draw->AddRectFilled(min, max,
                          sparse ? IM_COL32(30, 32, 37, 255) : heat_color((value - mean) / spread));
      if (sparse) {
        draw->AddLine(min, max, IM_COL32(60, 63, 70, 255));  // greyed and struck: not a finding
      } else if (labels) {
        const std::string text = square_text(value, unit);
        const ImVec2 size = ImGui::CalcTextSize(text.c_str());
        if (size.x < cell - 2) {
          draw->AddText(ImVec2(min.x + (cell - size.x) / 2, min.y + (cell - size.y) / 2),
                        IM_COL32(245, 246, 248, 255), text.c_str());
        }
      }
      if (ImGui::IsMouseHoveringRect(min, max)) {
        hovered = square;
        hovered_min = min;
        hovered_max = max;
      }
    }
  }
  // Rank numbers on the left, files under the board.
  for (int row = 0; row < 8; ++row) {
    const char label[2] = {static_cast<char>('8' - row), 0};
    const ImVec2 size = ImGui::CalcTextSize(label);
    draw->AddText(ImVec2(origin.x + (layout.margin - size.x) / 2,
                         board_min.y + row * cell + (cell - size.y) / 2),
                  kMuted, label);
  }
  for (int file = 0; file < 8; ++file) {
    const char label[2] = {static_cast<char>('a' + file), 0};
    const ImVec2 size = ImGui::CalcTextSize(label);
    draw->AddText(ImVec2(board_min.x + file * cell + (cell - size.x) / 2, board_min.y + 8 * cell),
                  kMuted, label);
  }
  const float height = 8 * cell + ImGui::GetTextLineHeight() + 4 * scale;
  ImGui::Dummy(ImVec2(layout.margin + 8 * cell, height));
  publish(state, (std::string("squares:") + kPieceNames[static_cast<std::size_t>(type)]).c_str(),
          scale);
  if (hovered >= 0 && ImGui::IsWindowHovered(ImGuiHoveredFlags_AllowWhenBlockedByActiveItem)) {
    const std::uint64_t positions = r.positions[type][hovered];
    std::string text = std::string(kPieceNames[static_cast<std::size_t>(type)]) + " on " +
                       square_name(hovered) + (phase == 0 ? ", middlegame: " : ", endgame: ") +
                       square_text(r.value[phase][type][hovered], unit) + " ± " +
                       square_text(r.se[phase][type][hovered], unit, true) + "\n" +
                       grouped(positions) + " training positions with it there";
    if (r.sparse(type, hovered)) {
      text += "\nFewer than " + grouped(r.min_positions) +
              " positions: shrunk to the piece's mean, not a finding";
    }
    tooltip(text.c_str());
    // Tests read which square the pointer is on ("squares:hover:N:f3").
    publish_rect(state, std::string("squares:hover:") + "PNBRQK"[type] + ":" + square_name(hovered),
                 hovered_min, hovered_max, scale);
  }
}

// The colour scale: a gradient from −spread to +spread around each piece's mean.
void draw_legend(const SquaresScale& unit, double spread, float width, float scale) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float bar = std::min(width, 360 * scale);
  const float height = 10 * scale;
  constexpr int kSteps = 32;
  for (int i = 0; i < kSteps; ++i) {
    const float x0 = origin.x + bar * static_cast<float>(i) / kSteps;
    const float x1 = origin.x + bar * static_cast<float>(i + 1) / kSteps;
    draw->AddRectFilled(ImVec2(x0, origin.y), ImVec2(x1, origin.y + height),
                        heat_color(-1 + 2.0 * (i + 0.5) / kSteps));
  }
  const std::string low = "−" + square_text(spread, unit, true);
  const std::string high = "+" + square_text(spread, unit, true);
  const char* middle = "the piece's mean";
  const float y = origin.y + height + 2 * scale;
  draw->AddText(ImVec2(origin.x, y), kMuted, low.c_str());
  draw->AddText(ImVec2(origin.x + bar / 2 - ImGui::CalcTextSize(middle).x / 2, y), kMuted, middle);
  draw->AddText(ImVec2(origin.x + bar - ImGui::CalcTextSize(high.c_str()).x, y), kMuted,
                high.c_str());
  ImGui::Dummy(ImVec2(bar, height + 4 * scale + ImGui::GetTextLineHeight()));
}

// What was fitted and how well it predicts the held-out games, against material only.
void fit_notes(const SquaresResult& r, const SquaresScale& unit, bool one_per_vector) {
  if (r.live) {
    note(
        "Live: a sample of the games read so far (at most 100,000 positions), fitted at one "
        "penalty (λ = 16). The fit after the read, its penalty chosen on the held-out games, "
        "replaces it.",
        kAccent);
  }
  std::string data = grouped(r.training_positions) + " training positions, " +
                     grouped(r.validation_positions) + " held out (" + grouped(r.held_out_games) +
                     " games, a fixed tenth by a hash of their moves)";
  if (r.sampled) {
    data += "; a uniform sample of " + grouped(r.positions_offered) + " positions: the cap of " +
            grouped(r.max_positions) + " was reached";
  }
  note(data.c_str(), kMuted);
  if (one_per_vector) {
    note(
        "One position per material vector and game (Settings, Read: \"one row per material "
        "vector\"): switch it off to fit every quiet position, as tuners do (about 20 times "
        "the positions).",
        kAccent);
  }
  const double gain = r.material_log_loss - r.log_loss;
  char check[200];
  std::snprintf(check, sizeof check,
                "Held-out log-loss %.4f against %.4f with material only (%s%.4f): %s. Penalty "
                "λ = %g, chosen on the held-out games.",
                r.log_loss, r.material_log_loss, gain >= 0 ? "−" : "+", std::abs(gain),
                gain > 0 ? "the squares predict better" : "no better than material: not findings",
                r.lambda);
  note(check, gain > 0 ? kGood : kBad);
  std::string material = "Material only:";
  for (std::size_t t = 0; t < kMaterialLetters.size(); ++t) {
    material += std::string(" ") + kMaterialLetters[t] + " " + square_text(r.material[t], unit);
  }
  material += unit.suffix[0] != 0 ? std::string(" (") + (unit.suffix + 1) + ")" : " (log-odds)";
  note(material.c_str(), kMuted);
}

void export_buttons(AppState& state, std::vector<Command>& commands, float scale) {
  constexpr std::array<std::array<const char*, 3>, 4> kExports = {{
      {"CSV", "squares-csv", "Every square's value, error and positions, in the chosen unit"},
      {"C++ header", "squares-code",
       "constexpr tables in the order engines use (a8 first, PeSTO's), tapered by phase"},
      {"JSON", "squares-json", "The tables, errors, counts and the held-out check"},
      {"Positions (EPD)", "positions",
       "The kept quiet positions labelled [1.0] [0.5] [0.0]: the data for your own tuner"},
  }};
  for (std::size_t i = 0; i < kExports.size(); ++i) {
    if (i > 0) same_line_or_wrap(button_width(kExports[i][0]));
    const std::string id = std::string("squares-export:") + kExports[i][1];
    if (button(state, kExports[i][0], scale, !state.busy(), id.c_str())) {
      Command command{Command::Kind::kExport};
      command.format = kExports[i][1];
      commands.push_back(command);
    }
    if (ImGui::IsItemHovered()) tooltip(kExports[i][2]);
  }
}

}  // namespace

void draw_squares_summary(AppState& state, float scale) {
  if (!state.settings.fit.model.squares && !state.squares) return;
  if (!state.squares) {
    note("Values by square: fitted after the values (the read keeps every position's board).",
         kMuted);
    return;
  }
  const SquaresResult& r = *state.squares;
  if (!r.fitted()) {
    note(("No values by square: " + r.error).c_str(), kBad);
    return;
  }
  char line[200];
  std::snprintf(line, sizeof line,
                "Values by square%s: held-out log-loss %.4f (material only %.4f), %s positions",
                r.live ? " (live, a sample of the games read so far)" : "", r.log_loss,
                r.material_log_loss, grouped(r.training_positions).c_str());
  note(line, r.log_loss < r.material_log_loss ? kMuted : kBad);
  if (button(state, "Values by square", scale, true, "squares:open")) state.squares_open = true;
  if (ImGui::IsItemHovered()) {
    tooltip("Piece-square tables, middlegame and endgame, fitted from these games");
  }
}

void draw_squares_window(AppState& state, std::vector<Command>& commands, float scale) {
  if (!state.squares_open || !state.squares) return;
  const SquaresResult& r = *state.squares;
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  begin_centred_window("Values by square", ImVec2(std::min(display.x - 16 * scale, 1180 * scale),
                                                  std::min(display.y - 16 * scale, 900 * scale)));
  if (button(state, "Close", scale, true, "squares:close")) state.squares_open = false;
  if (!r.fitted()) {
    note(("No values by square: " + r.error).c_str(), kBad);
  } else {
    const SquaresScale unit = squares_scale(r, state.settings.units);
    ImGui::SameLine();
    constexpr std::array<Choice, 2> kPhases = {
        {{"mg", "middlegame (all pieces on)"}, {"eg", "endgame (no pieces)"}}};
    radio_row(state, "squares-phase", kPhases, state.squares_phase, scale);
    fit_notes(r, unit, state.applied_read.quiet.distinct_per_game);
    const float avail = ImGui::GetContentRegionAvail().x;
    draw_legend(unit, colour_spread(r), avail, scale);
    export_buttons(state, commands, scale);
    ImGui::Spacing();
    const float gap = 18 * scale;
    const float least = 230 * scale;
    const int columns = std::clamp(static_cast<int>((avail + gap) / (least + gap)), 1, 3);
    const float board = std::min((avail - gap * (columns - 1)) / columns, 380 * scale);
    BoardLayout layout;
    layout.margin = 14 * scale;
    layout.cell = std::floor((board - layout.margin) / 8);
    const double spread = colour_spread(r);
    const int phase = state.squares_phase == 1 ? 1 : 0;
    for (int type = 0; type < kSquareTypes; ++type) {
      if (type % columns != 0) ImGui::SameLine(0, gap);
      ImGui::BeginGroup();
      draw_board(state, r, phase, type, unit, spread, layout, scale);
      ImGui::EndGroup();
    }
    note(
        "Each square's value is the piece's whole worth there, from White's side (Black's pieces "
        "read the mirrored square), blended by the game phase: N, B 1, R 2, Q 4, at most 24. "
        "The phases' levels differ: an edge in material decides more games in the endgame than "
        "with every piece on. Dark, struck squares had too few positions to be findings.",
        kMuted);
  }
  end_centred_window();
}

}  // namespace materialist::app
