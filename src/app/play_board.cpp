// The play-test's game in progress: a board (the last move marked) and its move list.
#include "app/play_board.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <string_view>

#include "app/theme.h"
#include "app/widgets.h"

namespace materialist::app {
namespace {

constexpr ImU32 kLight = IM_COL32(222, 227, 235, 255);
constexpr ImU32 kDark = IM_COL32(125, 146, 170, 255);
constexpr ImU32 kMoveTint = IM_COL32(246, 214, 92, 150);

// The glyph of a FEN piece letter: the filled symbols (♚ … ♟), white ones outlined after.
const char* filled_glyph(char piece) {
  switch (piece | 0x20) {
    case 'k':
      return "\xE2\x99\x9A";
    case 'q':
      return "\xE2\x99\x9B";
    case 'r':
      return "\xE2\x99\x9C";
    case 'b':
      return "\xE2\x99\x9D";
    case 'n':
      return "\xE2\x99\x9E";
    default:
      return "\xE2\x99\x9F";
  }
}
const char* outline_glyph(char piece) {
  switch (piece | 0x20) {
    case 'k':
      return "\xE2\x99\x94";
    case 'q':
      return "\xE2\x99\x95";
    case 'r':
      return "\xE2\x99\x96";
    case 'b':
      return "\xE2\x99\x97";
    case 'n':
      return "\xE2\x99\x98";
    default:
      return "\xE2\x99\x99";
  }
}

int square_of(std::string_view name) {
  if (name.size() < 2 || name[0] < 'a' || name[0] > 'h' || name[1] < '1' || name[1] > '8')
    return -1;
  return (name[1] - '1') * 8 + (name[0] - 'a');
}

void draw_board(AppState& state, const PlayBoard& board, ImFont* large, float side, float scale) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImGui::Dummy(ImVec2(side, side));
  publish(state, "play:board", scale);
  const float square = side / 8;
  const int from = board.last_move.size() >= 4 ? square_of(board.last_move.substr(0, 2)) : -1;
  const int to = board.last_move.size() >= 4 ? square_of(board.last_move.substr(2, 2)) : -1;
  for (int rank = 0; rank < 8; ++rank) {
    for (int file = 0; file < 8; ++file) {
      const ImVec2 min(at.x + file * square, at.y + (7 - rank) * square);
      const ImVec2 max(min.x + square, min.y + square);
      draw->AddRectFilled(min, max, (rank + file) % 2 == 0 ? kDark : kLight);
      const int index = rank * 8 + file;
      if (index == from || index == to) draw->AddRectFilled(min, max, kMoveTint);
    }
  }
  // The placement field of the FEN, rank 8 first.
  int rank = 7, file = 0;
  const float size = square * 0.86f;
  for (const char c : board.fen) {
    if (c == ' ') break;
    if (c == '/') {
      --rank;
      file = 0;
      continue;
    }
    if (c >= '1' && c <= '8') {
      file += c - '0';
      continue;
    }
    if (rank < 0 || file > 7) break;
    const ImVec2 extent = large->CalcTextSizeA(size, 1e9f, 0, filled_glyph(c));
    const ImVec2 pos(at.x + file * square + (square - extent.x) * 0.5f,
                     at.y + (7 - rank) * square + (square - extent.y) * 0.5f);
    const bool white = c >= 'A' && c <= 'Z';
    draw->AddText(large, size, pos,
                  white ? IM_COL32(250, 250, 250, 255) : IM_COL32(20, 20, 24, 255),
                  filled_glyph(c));
    if (white) draw->AddText(large, size, pos, IM_COL32(20, 20, 24, 255), outline_glyph(c));
    ++file;
  }
  draw->AddRect(at, ImVec2(at.x + side, at.y + side), IM_COL32(0, 0, 0, 160));
}

}  // namespace

void draw_game(AppState& state, ImFont* large, float scale) {
  PlayTest& play = state.play;
  const PlayBoard* shown = nullptr;
  for (const PlayBoard& board : play.boards) {
    if (board.live && !board.fen.empty()) {
      shown = &board;
      break;
    }
  }
  if (shown == nullptr) {
    for (const PlayBoard& board : play.boards) {
      if (!board.fen.empty()) shown = &board;
    }
  }
  // Over the last position once the match is over, it says so.
  section(play.running() || !play.match ? "A game in progress"
          : play.cancelled()            ? "The last position (the match was cancelled)"
                                        : "The last position (the match is finished)");
  if (shown == nullptr) {
    note(play.running() ? "The first moves are on their way…" : "Start a match to watch a game.",
         kMuted);
    return;
  }
  ImGui::TextWrapped("%s (White) – %s (Black), pair %zu, %s", shown->white.c_str(),
                     shown->black.c_str(), shown->task + 1,
                     shown->san.size() <= static_cast<std::size_t>(shown->opening_plies)
                         ? "from the book"
                         : ("ply " + std::to_string(shown->san.size())).c_str());
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float line = ImGui::GetTextLineHeightWithSpacing();
  // The board beside its move list when there is room, else above it.
  const bool beside = avail.x >= 560 * scale;
  float side = std::min(avail.x * (beside ? 0.55f : 1.0f), 380 * scale);
  if (beside) side = std::max(160 * scale, std::min(side, avail.y - line));
  draw_board(state, *shown, large, side, scale);
  // The move list: its last moves, so the latest is always in view (the book's first plies are
  // the opening).
  const std::size_t keep = beside ? 80 : 36;
  const std::size_t first =
      shown->san.size() > keep ? (shown->san.size() - keep) & ~std::size_t{1} : 0;
  std::string text = first > 0 ? "… " : "";
  for (std::size_t i = first; i < shown->san.size(); ++i) {
    if (i % 2 == 0) text += std::to_string(i / 2 + 1) + ". ";
    text += shown->san[i] + " ";
  }
  if (beside) ImGui::SameLine();
  const float width = beside ? ImGui::GetContentRegionAvail().x : side;
  ImGui::BeginChild("play-moves", ImVec2(width, beside ? side : 5.5f * line), true);
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::Spacing();
  char book[64];
  std::snprintf(book, sizeof book, "(the book: the first %d plies)", shown->opening_plies);
  note(book, kMuted);
  ImGui::EndChild();
  publish(state, "play:moves", scale);
}

}  // namespace materialist::app
