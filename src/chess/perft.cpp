#include "chess/perft.h"

#include "chess/movegen.h"

namespace materialist::chess {

std::uint64_t perft(const Position& pos, int depth) {
  if (depth <= 0) return 1;
  MoveList moves;
  generate_legal(pos, moves);
  if (depth == 1) return static_cast<std::uint64_t>(moves.size());  // bulk count at the frontier
  std::uint64_t nodes = 0;
  for (const Move move : moves) {
    Position child = pos;
    child.play(move);
    nodes += perft(child, depth - 1);
  }
  return nodes;
}

}  // namespace materialist::chess
