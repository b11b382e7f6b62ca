// The app's palette, reference values and number formatting, shared by the window and the charts.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "app/app_state.h"
#include "core/text.h"  // grouped(): every count the page shows
#include "imgui.h"

namespace materialist::app {

inline constexpr std::array<ImU32, kPieceCount> kPieceColors = {
    IM_COL32(170, 176, 186, 255),  // pawn
    IM_COL32(242, 142, 43, 255),   // knight
    IM_COL32(89, 180, 90, 255),    // bishop
    IM_COL32(78, 145, 220, 255),   // rook
    IM_COL32(230, 87, 89, 255),    // queen
};
inline constexpr ImU32 kAccent = IM_COL32(92, 170, 255, 255);
inline constexpr ImU32 kMuted = IM_COL32(150, 156, 168, 255);
inline constexpr ImU32 kGood = IM_COL32(110, 200, 120, 255);
inline constexpr ImU32 kBad = IM_COL32(235, 110, 100, 255);
inline constexpr ImU32 kWarn = IM_COL32(240, 190, 90, 255);  // a note to heed: fallback values
inline constexpr PieceValues kTextbook = {100, 300, 300, 500, 900};
inline constexpr PieceValues kCapablancaSet = {100, 320, 330, 500, 900};
inline constexpr PieceValues kArticle = {100, 288, 345, 480, 1077};

inline ImVec4 to_vec4(ImU32 color) {
  return ImGui::ColorConvertU32ToFloat4(color);
}

// "2.8 MB", "1.25 GB", "438 KB"
std::string megabytes(double bytes);
// "3 s", "2 min 05 s", "…" when unknown (negative)
std::string duration(double seconds);
// "gradient descent" or "Newton"
const char* solver_label(learn::SolverKind solver);

}  // namespace materialist::app
