#include "learn/coefficient_names.h"

#include <array>
#include <cctype>

namespace materialist::learn {
namespace {

struct Label {
  std::string_view name, label;
};
constexpr std::array<Label, 6> kPieces = {{{"pawn", "Pawn"},
                                           {"knight", "Knight"},
                                           {"bishop", "Bishop"},
                                           {"rook", "Rook"},
                                           {"queen", "Queen"},
                                           {"king", "King"}}};

}  // namespace

std::string coefficient_label(std::string_view name, bool player_view) {
  if (name == "intercept") return player_view ? "Player's edge" : "White's first move";
  if (name == "bishop-pair") return "Bishop pair";
  if (name == "side-to-move") return "Side to move";
  if (name == "draw-margin") return "Draw margin";
  if (name == "rating-diff") return "Rating difference";
  for (const Label& piece : kPieces) {
    if (name == piece.name) return std::string(piece.label);
    if (name.size() == piece.name.size() + 3 && name.substr(0, piece.name.size()) == piece.name) {
      const std::string_view phase = name.substr(piece.name.size());
      if (phase == "-mg") return std::string(piece.label) + " (middlegame)";
      if (phase == "-eg") return std::string(piece.label) + " (endgame)";
    }
  }
  return std::string(name);
}

std::string code_identifier(std::string_view text) {
  std::string out;
  bool upper = true;
  for (const char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0) {
      upper = true;
      continue;
    }
    out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
  return out;
}

}  // namespace materialist::learn
