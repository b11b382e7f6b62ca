#include "app/fit_tables.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/theme.h"
#include "app/widgets.h"

namespace materialist::app {
namespace {

struct Shown {
  double value = 0, se = 0, low = 0, high = 0;
  bool interval = false;
};

// Every unit is sent; the bootstrap interval (pawn = 100) scales with the value.
Shown in_units(const protocol::Coefficient& c, protocol::Units units) {
  const bool interval = c.low.has_value() && c.high.has_value();
  const double low = c.low.value_or(0), high = c.high.value_or(0);
  Shown s{c.value, c.value_se, low, high, interval};
  if (units == protocol::Units::kPawn) return s;
  const double v = units == protocol::Units::kElo ? c.elo : c.theta;
  const double se = units == protocol::Units::kElo ? c.elo_se : c.theta_se;
  const double ratio = c.value != 0 ? v / c.value : 0;
  return {v, se, low * ratio, high * ratio, interval && c.value != 0};
}

const char* unit_name(protocol::Units units) {
  return units == protocol::Units::kElo       ? "Elo"
         : units == protocol::Units::kLogOdds ? "log-odds"
                                              : "pawn = 100";
}

std::string format_value(const Shown& s, protocol::Units units, bool with_interval) {
  const bool fine = units == protocol::Units::kLogOdds;
  char text[128];
  if (std::isfinite(s.se) && s.se > 0) {
    std::snprintf(text, sizeof text, fine ? "%.3f ± %.3f" : "%.0f ± %.0f", s.value, s.se);
  } else {
    std::snprintf(text, sizeof text, fine ? "%.3f" : "%.0f", s.value);
  }
  std::string out = text;
  if (with_interval && s.interval) {
    std::snprintf(text, sizeof text, fine ? "  [%.3f, %.3f]" : "  [%.0f, %.0f]", s.low, s.high);
    out += text;
  }
  return out;
}

ImU32 coefficient_color(const std::string& name) {
  constexpr const char* kNames[] = {"pawn", "knight", "bishop", "rook", "queen"};
  for (int i = 0; i < kPieceCount; ++i) {
    if (name.rfind(kNames[i], 0) == 0) return kPieceColors[i];
  }
  return IM_COL32(230, 233, 240, 255);
}

ImU32 verdict_color(const std::string& verdict) {
  return verdict == "holds" ? kGood : verdict == "violated" ? kBad : kMuted;
}

// An equality (B + N = R + 1.5P) that "holds" is consistent with the data, not proven.
const char* verdict_mark(const protocol::Relation& v) {
  if (v.verdict == "holds") return v.equality ? "✓ consistent" : "✓ holds";
  return v.verdict == "violated" ? "✗ violated" : "? undecided";
}

// The coefficient names of every fit, in first-seen order (datasets share a model).
std::vector<std::string> all_names(const std::vector<protocol::Fit>& fits) {
  std::vector<std::string> names;
  for (const protocol::Fit& fit : fits) {
    for (const protocol::Coefficient& c : fit.coefficients) {
      if (std::find(names.begin(), names.end(), c.name) == names.end()) names.push_back(c.name);
    }
  }
  return names;
}

// A row of the values table: every cell's text.
struct ValueRow {
  std::string label, value, se, interval;
  std::array<std::string, 3> refs;
};
using ValueHeaders = std::array<const char*, 6>;
using ValueWidths = std::array<float, 6>;

// The values table's rows: each coefficient's value, its ±, its interval and the reference sets
// in the chosen unit (scaled by the fit's own pawn).
std::vector<ValueRow> value_rows(const protocol::Fit& fit, protocol::Units units) {
  const bool fine = units == protocol::Units::kLogOdds;
  // Without an identified pawn there is no scale for another unit: no reference numbers then.
  double per_pawn = units == protocol::Units::kPawn ? 1 : std::nan("");
  if (const protocol::Coefficient* pawn = fit.find("pawn");
      pawn != nullptr && pawn->identified && pawn->value != 0)
    per_pawn = in_units(*pawn, units).value / pawn->value;
  constexpr const char* kNames[] = {"pawn", "knight", "bishop", "rook", "queen"};
  auto piece_of = [&](const std::string& name) {
    for (int i = 0; i < kPieceCount; ++i)
      if (name == kNames[i]) return i;
    return -1;
  };
  auto reference = [&](double value) {
    if (!std::isfinite(per_pawn)) return std::string("–");
    char text[32];
    std::snprintf(text, sizeof text, fine ? "%.2f" : "%.0f", value * per_pawn);
    return std::string(text);
  };
  std::vector<ValueRow> rows;
  for (const protocol::Coefficient& c : fit.coefficients) {
    const Shown s = in_units(c, units);
    ValueRow row;
    row.label = "■ " + c.label;
    char text[64];
    if (!c.identified) {
      row.value = "not identified";
    } else {
      std::snprintf(text, sizeof text, fine ? "%.3f" : "%.0f", s.value);
      row.value = text;
      if (std::isfinite(s.se) && s.se >= (fine ? 5e-4 : 0.5)) {  // the pawn's ± 0 says nothing
        std::snprintf(text, sizeof text, fine ? "± %.3f" : "± %.0f", s.se);
        row.se = text;
      }
      if (s.interval) {
        std::snprintf(text, sizeof text, fine ? "[%.3f, %.3f]" : "[%.0f, %.0f]", s.low, s.high);
        row.interval = text;
      }
    }
    if (const int i = piece_of(c.name); i >= 0)
      row.refs = {reference(kArticle[i]), reference(kTextbook[i]), reference(kCapablancaSet[i])};
    rows.push_back(row);
  }
  return rows;
}

// The values table's column widths: each column's widest cell (a value in the large font).
ValueWidths value_widths(const std::vector<ValueRow>& rows, const ValueHeaders& headers,
                         const UiFonts& fonts) {
  ValueWidths width{};
  for (int i = 0; i < 6; ++i) width[i] = ImGui::CalcTextSize(headers[i]).x;
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  for (const ValueRow& row : rows) {
    width[0] = std::max(width[0], ImGui::CalcTextSize(row.label.c_str()).x);
    ImGui::PushFont(fonts.large);
    float value = ImGui::CalcTextSize(row.value.c_str()).x;
    ImGui::PopFont();
    if (!row.se.empty()) value += gap + ImGui::CalcTextSize(row.se.c_str()).x;
    width[1] = std::max(width[1], value);
    width[2] = std::max(width[2], ImGui::CalcTextSize(row.interval.c_str()).x);
    for (int r = 0; r < 3; ++r)
      width[3 + r] = std::max(width[3 + r],
                              ImGui::CalcTextSize(row.refs[static_cast<std::size_t>(r)].c_str()).x);
  }
  return width;
}

// One row of the values table: the coefficient, its value and ±, its interval, the references.
void draw_value_row(const protocol::Coefficient& c, const ValueRow& row, bool bootstrap,
                    const UiFonts& fonts) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextColored(to_vec4(coefficient_color(c.name)), "%s", row.label.c_str());
  ImGui::TableNextColumn();
  if (!c.identified) {
    ImGui::TextColored(to_vec4(kBad), "not identified");
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("These games carry (almost) no information on this value.");
  } else {
    ImGui::PushFont(fonts.large);
    ImGui::TextUnformatted(row.value.c_str());
    ImGui::PopFont();
    if (!row.se.empty()) {
      ImGui::SameLine();
      ImGui::TextColored(to_vec4(kMuted), "%s", row.se.c_str());
    }
  }
  if (bootstrap) {
    ImGui::TableNextColumn();
    ImGui::TextColored(to_vec4(kMuted), "%s", row.interval.c_str());
  }
  for (const std::string& ref : row.refs) {
    ImGui::TableNextColumn();
    ImGui::TextColored(to_vec4(kMuted), "%s", ref.c_str());
  }
}

// The values table ("fit-values"), exactly as tall as its rows; false when it is not drawn.
bool draw_value_table(AppState& state, const protocol::Fit& fit, const std::vector<ValueRow>& rows,
                      const ValueHeaders& headers, const ValueWidths& width, bool bootstrap,
                      const UiFonts& fonts, float scale) {
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH |
                                ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX;
  const ImGuiStyle& style = ImGui::GetStyle();
  ImGui::PushFont(fonts.large);
  const float row_height = ImGui::GetTextLineHeight() + 2 * style.CellPadding.y;
  ImGui::PopFont();
  float total = 0;
  for (int i = 0; i < 6; ++i)
    total += (i == 2 && !bootstrap) ? 0 : width[i] + 2 * style.CellPadding.x;
  const bool scrolls = total > ImGui::GetContentRegionAvail().x;
  // The header row is a line of the body font (not a frame: a touch screen's frames are taller);
  // a value row is a line of the large font, "not identified" one of the body font.
  float height = ImGui::GetTextLineHeight() + 3 * style.CellPadding.y +
                 (scrolls ? style.ScrollbarSize : 0) + style.CellPadding.y;
  for (const protocol::Coefficient& c : fit.coefficients)
    height += c.identified ? row_height : ImGui::GetTextLineHeight() + 2 * style.CellPadding.y;
  if (!ImGui::BeginTable("fit-values", bootstrap ? 6 : 5, flags, ImVec2(0, height))) return false;
  for (int i = 0; i < 6; ++i) {
    if (i == 2 && !bootstrap) continue;
    ImGui::TableSetupColumn(headers[i], ImGuiTableColumnFlags_WidthFixed, width[i] + 1);
  }
  ImGui::TableSetupScrollFreeze(1, 0);
  ImGui::TableHeadersRow();
  for (std::size_t k = 0; k < rows.size(); ++k)
    draw_value_row(fit.coefficients[k], rows[k], bootstrap, fonts);
  publish_table_columns(state, "values", scale);
  ImGui::EndTable();
  return true;
}

// The bundled sample beside the article's column: why they differ by a centipawn.
void draw_article_note(AppState& state, const protocol::Fit& fit, float scale) {
  const std::vector<std::string>& files = state.report.files;
  if (files.size() == 1 && files[0] == "OpenRating.pgn" && fit.find("knight") != nullptr &&
      fit.coefficients.size() == static_cast<std::size_t>(kPieceCount)) {
    char text[400];
    std::snprintf(text, sizeof text,
                  "Why not exactly the article's 288 / 345 / 1077: these games give %s positions "
                  "here, %s to the article's tool, which skipped moves written \"O-O+\" and read "
                  "words in comments as moves. Fitted on the article's own rows, the values are "
                  "the article's to every printed digit (docs/METHOD.md: Fidelity to the article).",
                  grouped(state.report.rows).c_str(), "20,196");
    note(text, kMuted);
    publish(state, "note:article", scale);
  }
}

// The comparison's first column width: its widest label (unit, counts, coefficients, relations).
float comparison_first_width(const std::vector<protocol::Fit>& fits,
                             const std::vector<std::string>& names, protocol::Units units) {
  float first =
      std::max(ImGui::CalcTextSize(unit_name(units)).x, ImGui::CalcTextSize("games / rows").x);
  for (const std::string& name : names) {
    const protocol::Coefficient* c = nullptr;
    for (const protocol::Fit& fit : fits) c = c ? c : fit.find(name);
    first = std::max(first, ImGui::CalcTextSize(c ? c->label.c_str() : name.c_str()).x);
  }
  for (const protocol::Relation& r : fits.front().relations)
    first = std::max(first, ImGui::CalcTextSize(r.relation.c_str()).x);
  return first;
}

// Each dataset column's width: its widest cell.
std::vector<float> comparison_widths(const std::vector<protocol::Fit>& fits,
                                     protocol::Units units) {
  std::vector<float> widths;
  for (const protocol::Fit& fit : fits) {
    float w =
        std::max({ImGui::CalcTextSize(("■ " + fit.name).c_str()).x,
                  ImGui::CalcTextSize((grouped(fit.used) + " / " + grouped(fit.rows)).c_str()).x,
                  ImGui::CalcTextSize("not identified").x, ImGui::CalcTextSize("? undecided").x,
                  ImGui::CalcTextSize("✓ consistent").x});
    for (const protocol::Coefficient& c : fit.coefficients)
      w = std::max(w, ImGui::CalcTextSize(format_value(in_units(c, units), units, true).c_str()).x);
    widths.push_back(w + 1);
  }
  return widths;
}

// The comparison's header row (each dataset in its colour) and its games / rows row.
void draw_comparison_headers(const std::vector<protocol::Fit>& fits, protocol::Units units) {
  // Header cells in each dataset's colour (the charts use the same colours).
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  ImGui::TableNextColumn();
  ImGui::TextColored(to_vec4(kMuted), "%s", unit_name(units));
  for (std::size_t i = 0; i < fits.size(); ++i) {
    ImGui::TableNextColumn();
    ImGui::TextColored(to_vec4(dataset_color(static_cast<int>(i))), "■ %s", fits[i].name.c_str());
  }
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextColored(to_vec4(kMuted), "games / rows");
  for (const protocol::Fit& fit : fits) {
    ImGui::TableNextColumn();
    ImGui::TextColored(to_vec4(kMuted), "%s / %s", grouped(fit.used).c_str(),
                       grouped(fit.rows).c_str());
  }
}

// The comparison's coefficient rows: each dataset's value with its ± and interval.
void draw_comparison_values(const std::vector<protocol::Fit>& fits,
                            const std::vector<std::string>& names, protocol::Units units) {
  for (const std::string& name : names) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    const protocol::Coefficient* first = nullptr;
    for (const protocol::Fit& fit : fits) first = first ? first : fit.find(name);
    ImGui::TextColored(to_vec4(coefficient_color(name)), "%s",
                       first ? first->label.c_str() : name.c_str());
    for (const protocol::Fit& fit : fits) {
      ImGui::TableNextColumn();
      const protocol::Coefficient* c = fit.find(name);
      if (c != nullptr && !c->identified) {
        ImGui::TextColored(to_vec4(kBad), "not identified");
      } else if (c != nullptr) {
        ImGui::TextUnformatted(format_value(in_units(*c, units), units, true).c_str());
      }
    }
  }
}

// The comparison's relation rows: each dataset's verdict, its margin in a tooltip.
void draw_comparison_relations(const std::vector<protocol::Fit>& fits, std::size_t relation_rows) {
  for (std::size_t r = 0; r < relation_rows; ++r) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(fits.front().relations[r].relation.c_str());
    for (const protocol::Fit& fit : fits) {
      ImGui::TableNextColumn();
      if (r >= fit.relations.size()) continue;
      const protocol::Relation& v = fit.relations[r];
      ImGui::TextColored(to_vec4(verdict_color(v.verdict)), "%s", verdict_mark(v));
      if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("margin %.1f ± %.1f (pawn = 100)", v.margin, v.se);
      }
    }
  }
}

// The tested differences between datasets, a line each (the significant ones in the accent).
void draw_differences(const AppState& state, const std::vector<protocol::Fit>& fits) {
  for (const protocol::Difference& d : state.trajectory.differences) {
    if (d.a < 0 || d.b < 0 || d.a >= static_cast<int>(fits.size()) ||
        d.b >= static_cast<int>(fits.size()))
      continue;
    const bool significant = d.p < 0.05;
    ImGui::TextColored(to_vec4(dataset_color(d.b)), "■");
    ImGui::SameLine();
    char bootstrap_p[48] = "";
    if (d.bootstrap_p)
      std::snprintf(bootstrap_p, sizeof bootstrap_p, ", bootstrap p = %.3f", *d.bootstrap_p);
    char line[512];
    std::snprintf(line, sizeof line, "%s: %s vs %s differs by %+.0f ± %.0f, p = %.3f%s",
                  d.contrast.c_str(), fits[d.b].name.c_str(), fits[d.a].name.c_str(), d.diff, d.se,
                  d.p, bootstrap_p);
    note(line, significant ? kAccent : kMuted);
  }
}

}  // namespace

void draw_fit_notes(AppState& state, const protocol::Fit& fit, bool several, float scale) {
  const std::string who = several ? fit.name + ": " : std::string();
  if (fit.state == "failed") {
    ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(kBad));
    ImGui::TextWrapped("%sno fit: %s", who.c_str(), fit.error.c_str());
    ImGui::PopStyleColor();
    return;
  }
  for (std::size_t k = 0; k < fit.warnings.size(); ++k) {
    ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(kBad));
    ImGui::TextWrapped("Warning: %s%s", who.c_str(), fit.warnings[k].message.c_str());
    ImGui::PopStyleColor();
    publish(state, ("warning:" + (several ? fit.name + ":" : "") + std::to_string(k)).c_str(),
            scale);
  }
  if (several) return;
  ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(kMuted));
  if (fit.errors == "game-clustered") {
    ImGui::TextWrapped(
        "± game-clustered standard errors (%s games: positions of one game are "
        "not independent)",
        grouped(fit.clusters).c_str());
  } else {
    ImGui::TextWrapped("± model-based standard errors (positions treated as independent)");
  }
  ImGui::PopStyleColor();
}

void draw_fit_values(AppState& state, const protocol::Fit& fit, const UiFonts& fonts, float scale) {
  const protocol::Units units = state.settings.units;
  const bool bootstrap =
      std::any_of(fit.coefficients.begin(), fit.coefficients.end(),
                  [](const protocol::Coefficient& c) { return c.low.has_value(); });
  // Every cell's text first: the columns are sized to their widest cell on the very first frame.
  const std::vector<ValueRow> rows = value_rows(fit, units);
  ValueHeaders headers = {"Coefficient", unit_name(units), "bootstrap 95%",
                          "Article",     "1-3-3-5-9",      "Capablanca"};
  ValueWidths width = value_widths(rows, headers, fonts);
  // A phone's width: the rows name their coefficients, so the first header goes, the intervals'
  // header shortens and the cells' padding narrows, so that every column is in view.
  const ImGuiStyle& style = ImGui::GetStyle();
  float total = 0;
  for (int i = 0; i < 6; ++i)
    total += (i == 2 && !bootstrap) ? 0 : width[i] + 2 * style.CellPadding.x;
  const bool narrow = total > ImGui::GetContentRegionAvail().x;
  if (narrow) {
    headers[0] = "";
    headers[2] = "95%";
    width = value_widths(rows, headers, fonts);
    ImGui::PushStyleVar(ImGuiStyleVar_CellPadding,
                        ImVec2(style.CellPadding.x * 0.25f, style.CellPadding.y));
  }
  const bool drawn = draw_value_table(state, fit, rows, headers, width, bootstrap, fonts, scale);
  if (narrow) ImGui::PopStyleVar();
  if (!drawn) return;
  draw_fit_notes(state, fit, false, scale);
  draw_article_note(state, fit, scale);
}

void draw_comparison(AppState& state, float scale) {
  const std::vector<protocol::Fit>& fits = state.trajectory.fits;
  const protocol::Units units = state.settings.units;
  section("Comparison of datasets");
  const int columns = static_cast<int>(fits.size()) + 1;
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH |
                                ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX;
  // A table row is one line of text plus the cell padding above and below it.
  const float row = ImGui::GetTextLineHeight() + 2 * ImGui::GetStyle().CellPadding.y;
  const std::vector<std::string> names = all_names(fits);
  const std::size_t relation_rows = fits.front().relations.size();
  // Header, games/rows, coefficients (the draw margin among them), relations, the scroll bar.
  const std::size_t rows = 2 + names.size() + relation_rows;
  const float height = row * static_cast<float>(rows) + ImGui::GetStyle().ScrollbarSize;
  // Columns sized to their widest cell (measured here: right on the first frame, never cut).
  const float first = comparison_first_width(fits, names, units);
  const std::vector<float> widths = comparison_widths(fits, units);
  if (ImGui::BeginTable("comparison", columns, flags, ImVec2(0, height))) {
    ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, first + 1);
    for (std::size_t i = 0; i < fits.size(); ++i) {
      ImGui::TableSetupColumn(fits[i].name.c_str(), ImGuiTableColumnFlags_WidthFixed, widths[i]);
    }
    ImGui::TableSetupScrollFreeze(1, 0);
    draw_comparison_headers(fits, units);
    draw_comparison_values(fits, names, units);
    draw_comparison_relations(fits, relation_rows);
    publish_table_columns(state, "comparison", scale);
    ImGui::EndTable();
  }
  for (const protocol::Fit& fit : fits) draw_fit_notes(state, fit, true, scale);
  if (!fits.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(kMuted));
    ImGui::TextWrapped(fits.front().errors == "game-clustered"
                           ? "± game-clustered standard errors (positions of one game are not "
                             "independent); the differences below use them"
                           : "± model-based standard errors (positions treated as independent)");
    ImGui::PopStyleColor();
  }
  draw_differences(state, fits);
}

}  // namespace materialist::app
