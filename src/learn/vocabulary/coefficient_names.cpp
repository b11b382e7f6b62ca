#include "learn/vocabulary/coefficient_names.h"

#include <cctype>
#include <optional>

#include "learn/vocabulary/imbalance.h"
#include "learn/vocabulary/pieces.h"

namespace materialist::learn {
std::string coefficient_label(std::string_view name, bool player_view) {
  if (name == "intercept") return player_view ? "Player's edge" : "White's first move";
  if (name == "bishop-pair") return "Bishop pair";
  if (name == "side-to-move") return "Side to move";
  if (name == "draw-margin") return "Draw margin";
  if (name == "rating-diff") return "Rating difference";
  if (const int term = imbalance_index(name); term >= 0) return kImbalanceLabels[term];
  const auto side_label = [name](std::string_view prefix) -> std::optional<int> {
    if (name.substr(0, prefix.size()) != prefix) return std::nullopt;
    return piece_index(name.substr(prefix.size()));
  };
  if (const auto own = side_label("own-")) {
    return std::string(player_view ? "Player's " : "White's ") +
           static_cast<char>(std::tolower(static_cast<unsigned char>(kPieces[*own].label[0]))) +
           std::string(kPieces[*own].label.substr(1));
  }
  if (const auto opponent = side_label("opponent-")) {
    return std::string(player_view ? "Opponent's " : "Black's ") +
           static_cast<char>(
               std::tolower(static_cast<unsigned char>(kPieces[*opponent].label[0]))) +
           std::string(kPieces[*opponent].label.substr(1));
  }
  for (const PieceNames& piece : kPieces) {
    if (name == piece.column) return std::string(piece.label);
    if (name.size() == piece.column.size() + 3 &&
        name.substr(0, piece.column.size()) == piece.column) {
      const std::string_view phase = name.substr(piece.column.size());
      if (phase == "-mg") return std::string(piece.label) + " (middlegame)";
      if (phase == "-eg") return std::string(piece.label) + " (endgame)";
    }
  }
  return std::string(name);
}

std::string coefficient_unit(std::string_view name) {
  const int term = imbalance_index(name);
  return term >= 0 ? kImbalanceUnits[term] : "";
}

std::string coefficient_label_with_unit(std::string_view name, bool player_view) {
  const std::string unit = coefficient_unit(name);
  const std::string label = coefficient_label(name, player_view);
  return unit.empty() ? label : label + " (" + unit + ")";
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
