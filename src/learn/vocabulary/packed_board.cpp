#include "learn/vocabulary/packed_board.h"

#include <cstdio>

namespace materialist::learn {

std::string epd_fields(const PackedBoard& board) {
  std::array<char, kBoardSquares> letters{};
  letters.fill('.');
  board.for_each_piece([&](int square, int type, bool black) {
    const char letter = kBoardPieceLetters[static_cast<std::size_t>(type)];
    letters[static_cast<std::size_t>(square)] = static_cast<char>(black ? letter | 0x20 : letter);
  });
  std::string text;
  text.reserve(90);
  for (int rank = 7; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < 8; ++file) {
      const char letter = letters[static_cast<std::size_t>(rank * 8 + file)];
      if (letter == '.') {
        ++empty;
        continue;
      }
      if (empty > 0) text += static_cast<char>('0' + empty);
      empty = 0;
      text += letter;
    }
    if (empty > 0) text += static_cast<char>('0' + empty);
    if (rank > 0) text += '/';
  }
  text += board.black_to_move() ? " b " : " w ";
  const std::size_t before = text.size();
  constexpr char kCastling[] = "KQkq";
  for (int right = 0; right < 4; ++right) {
    if ((board.state >> (1 + right) & 1) != 0) text += kCastling[right];
  }
  if (text.size() == before) text += '-';
  text += ' ';
  if (board.en_passant == kNoEnPassant) {
    text += '-';
  } else {
    text += static_cast<char>('a' + board.en_passant % 8);
    text += static_cast<char>('1' + board.en_passant / 8);
  }
  return text;
}

void append_labelled_epd(std::string& out, const PackedBoard& board, double white_score,
                         bool evaluation) {
  out += epd_fields(board);
  char label[32];
  if (evaluation) {
    std::snprintf(label, sizeof label, " [%.4f]\n", white_score);
  } else {
    std::snprintf(label, sizeof label, " [%s]\n",
                  white_score > 0.75 ? "1.0" : white_score > 0.25 ? "0.5" : "0.0");
  }
  out += label;
}

}  // namespace materialist::learn
