// The play engine's speed: nodes per second of one search thread over fixed positions at a fixed
// node count, the same program natively and compiled to WebAssembly for Node (bench/play.sh
// runs both). Prints one line: "positions P nodes N seconds S nps X".
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "play/search.h"

int main(int argc, char** argv) {
  using namespace materialist;
  const std::uint64_t nodes = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 2000000;
  // The start, two middlegames (kiwipete among them) and an endgame.
  const char* const fens[] = {
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
      "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
      "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
  };
  const auto values = play::parse_value_set("classic");
  play::Searcher searcher(*values, {});
  std::uint64_t total = 0;
  const auto start = std::chrono::steady_clock::now();
  for (const char* fen : fens) {
    searcher.new_game();
    total += searcher.search(*chess::Position::from_fen(fen), {}, {.nodes = nodes}).nodes;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("positions 4 nodes %llu seconds %.3f nps %.0f\n",
              static_cast<unsigned long long>(total), seconds, total / seconds);
  return 0;
}
