// parse_san's fast path against the full-generator reader (parse_san_reference), on the plies of
// the PGN fixtures, of seeded random games (standard and Chess960 starts) and around the perft
// positions: the tokens as written, legal moves' SAN, spelling variants of them, and tokens that
// name no legal move (pinned pieces, moves into check, wrong or missing disambiguation) must give
// the same move, or the same error code and message, from both.
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "chess/movegen.h"
#include "chess/san.h"
#include "chess/san_reference.h"
#include "pgn/parser.h"
#include "test_util.h"

namespace materialist::chess {
namespace {

using enum PieceType;

// How much work: every ply of the fixtures has its written token compared, one in
// kFixtureSampleEvery gets a sample of tokens and one in kFixtureFullEvery every legal move's;
// random games get a sample on every ply and every legal move on one in kRandomFullEvery.
// Tokens that name no legal move cost most (both readers word the error, with the FEN). This
// keeps the native Release run under two seconds; ASan and WebAssembly runs are up to ten times
// slower.
constexpr int kFixtureSampleEvery = 2;
constexpr int kFixtureFullEvery = 32;
constexpr int kRandomFullEvery = 16;
constexpr int kRandomGames = 2000;

// MATERIALIST_SAN_GAMES=N runs N random games instead, and MATERIALIST_SAN_SEED=S starts the
// random number generator elsewhere (S > 0): the test command's stage sanlong runs the few
// hundred thousand games of the long run as two processes with different seeds, one per core;
// the default keeps every build's run of the unit tests short.
int random_games() {
  const char* text = std::getenv("MATERIALIST_SAN_GAMES");
  const int games = text != nullptr ? std::atoi(text) : 0;
  return games >= 40 ? games : kRandomGames;
}

std::uint64_t seed_setting() {
  const char* text = std::getenv("MATERIALIST_SAN_SEED");
  return text != nullptr ? std::strtoull(text, nullptr, 10) : 0;
}

// The generator's start for a seed (0: the default games); odd, as xorshift must not start at 0.
std::uint64_t random_start(std::uint64_t seed) {
  return (0x9E3779B97F4A7C15ULL ^ (seed * 0xD1B54A32D192ED03ULL)) | 1;
}

std::uint64_t san_next_random(std::uint64_t& state) {
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return state;
}

int pick(std::uint64_t& state, int count) {
  return static_cast<int>(san_next_random(state) % static_cast<std::uint64_t>(count));
}

struct Tally {
  long games = 0;
  long positions = 0;
  long tokens = 0;
  long disagreements = 0;
};

std::string describe(const Expected<Move>& result) {
  if (result.ok()) return result->uci();
  return std::string(error_code_name(result.error().code)) + ": " + result.error().message;
}

// Both readers on one token: the same move, or the same error code and message.
void compare(const Position& pos, std::string_view token, Tally& tally) {
  const Expected<Move> fast = parse_san(pos, token);
  const Expected<Move> reference = parse_san_reference(pos, token);
  ++tally.tokens;
  const bool same = fast.ok() == reference.ok() &&
                    (fast.ok() ? *fast == *reference
                               : fast.error().code == reference.error().code &&
                                     fast.error().message == reference.error().message);
  if (same) return;
  if (++tally.disagreements <= 20) {
    FAIL_CHECK(pos.fen(), " '", token, "': fast ", describe(fast), ", reference ",
               describe(reference));
  }
}

char file_char(int file) {
  return static_cast<char>('a' + file);
}
char rank_char(int rank) {
  return static_cast<char>('1' + rank);
}

// SAN without a check suffix, disambiguated from the legal move list (cheaper than to_san).
std::string plain_san(const Position& pos, Move move, const MoveList& legal) {
  const Square from = move.from(), to = move.to();
  if (move.is_castling()) return to.file() > from.file() ? "O-O" : "O-O-O";
  const PieceType type = pos.piece_on(from).type();
  const bool capture = !pos.piece_on(to).is_none() || move.is_en_passant();
  std::string san;
  if (type == kPawn) {
    if (capture) san = {file_char(from.file()), 'x'};
  } else {
    san += piece_letter(type);
    bool clash = false, same_file = false, same_rank = false;
    for (const Move other : legal) {
      if (other.to() != to || other.from() == from || other.is_castling() ||
          pos.piece_on(other.from()).type() != type) {
        continue;
      }
      clash = true;
      same_file |= other.from().file() == from.file();
      same_rank |= other.from().rank() == from.rank();
    }
    if (clash && (!same_file || same_rank)) san += file_char(from.file());
    if (clash && same_file) san += rank_char(from.rank());
    if (capture) san += 'x';
  }
  san += to.name();
  if (move.is_promotion()) {
    san += '=';
    san += piece_letter(move.promoted_to());
  }
  return san;
}

// One spelling variant of a legal move's SAN, chosen at random: some name the same move, some
// another one, some none or several. (Built with += throughout: GCC 12 warns falsely about
// chains of std::string operator+.)
std::string variant(const Position& pos, Move move, const std::string& san, std::uint64_t& rng) {
  const Square from = move.from(), to = move.to();
  const PieceType type = pos.piece_on(from).type();
  std::string text;
  if (type != kPawn) text += piece_letter(type);
  const std::string promotion =
      move.is_promotion() ? std::string(1, piece_letter(move.promoted_to())) : "";
  switch (pick(rng, 14)) {
    case 0: {  // check, mate and annotation suffixes
      constexpr std::array<const char*, 6> kSuffixes = {"+", "#", "!", "?!", "+!!", " "};
      text = san;
      text += kSuffixes[static_cast<size_t>(pick(rng, 6))];
      return text;
    }
    case 1:  // no disambiguation at all
      if (!pos.piece_on(to).is_none()) text += 'x';
      break;
    case 2:  // a wrong or extra origin file
      text += file_char(pick(rng, 8));
      break;
    case 3:  // an origin rank, right or wrong
      text += rank_char(pick(rng, 2) ? from.rank() : pick(rng, 8));
      text += 'x';
      break;
    case 4:  // long algebraic with a letter
      text += from.name();
      text += pick(rng, 2) ? '-' : 'x';
      break;
    case 5:  // coordinates, castling also as the king's two-square step
      if (move.is_castling() && pick(rng, 2)) {
        text = from.name();
        text += Square::at(to.file() > from.file() ? 6 : 2, from.rank()).name();
        return text;
      }
      return move.uci();
    case 6: {  // the capture sign toggled, or written as ':'
      text = san;
      const size_t x = text.find('x');
      if (x != std::string::npos) {
        if (pick(rng, 2)) {
          text.erase(x, 1);
        } else {
          text[x] = ':';
        }
      } else if (text.size() >= 2) {
        text.insert(text.size() - 2 - (move.is_promotion() ? 2 : 0), "x");
      }
      return text;
    }
    case 7: {  // promotion spellings: no '=', lower case, brackets, missing, a king or pawn
      constexpr std::array<const char*, 8> kEndings = {"Q", "=q", "n", "(R)", "/B", "", "=K", "=P"};
      if (type == kPawn && from.file() != to.file()) {
        text += file_char(from.file());
        text += 'x';
      }
      text += to.name();
      text += kEndings[static_cast<size_t>(pick(rng, 8))];
      return text;
    }
    case 8: {  // another piece letter, or any printable character in its place
      constexpr std::array<const char*, 7> kLetters = {"", "P", "N", "B", "R", "Q", "K"};
      text = pick(rng, 2) ? std::string(kLetters[static_cast<size_t>(pick(rng, 7))])
                          : std::string(1, static_cast<char>(' ' + pick(rng, 95)));
      text += to.name();
      return text;
    }
    case 9: {  // castling spellings
      constexpr std::array<const char*, 8> kCastles = {"O-O",   "O-O-O", "0-0",    "0-0-0",
                                                       "o-o-o", "O-O+",  "O-O-O#", "OO"};
      return kCastles[static_cast<size_t>(pick(rng, 8))];
    }
    case 10:  // the king's letter with the move's squares (king takes rook, or a plain step)
      text = "K";
      text += from.name();
      text += to.name();
      return text;
    case 11: {  // leading blank, e.p., null moves and junk
      constexpr std::array<const char*, 8> kJunk = {"--", "Z0", "0000", "@@@@", "x", "Nx", "", "e"};
      constexpr std::array<const char*, 4> kTails = {"e.p.", "ep", " ", "\t"};
      switch (pick(rng, 3)) {
        case 0:
          return kJunk[static_cast<size_t>(pick(rng, 8))];
        case 1:
          text = " ";
          text += san;
          return text;
        default:
          text = san;
          text += kTails[static_cast<size_t>(pick(rng, 4))];
          return text;
      }
    }
    default:
      return san;
  }
  text += to.name();
  text += promotion;
  return text;
}

// Tokens that name no legal move: each of our pieces to every square it attacks or pushes to
// (pinned pieces, moves into check, moves that leave a check unanswered), with and without its
// origin file; only a random sample, to bound the work.
void compare_pseudo_moves(const Position& pos, std::uint64_t& rng, int samples, Tally& tally) {
  const Color us = pos.side_to_move();
  std::vector<std::string> tokens;
  for (const Square from : pos.pieces(us)) {
    const PieceType type = pos.piece_on(from).type();
    Bitboard reach;
    switch (type) {
      case kPawn: {
        const int forward = us == Color::kWhite ? 1 : -1;
        const int rank = from.rank() + forward;
        if (rank >= 0 && rank < 8) reach |= Square::at(from.file(), rank);
        reach |= pawn_attacks(us, from);
        break;
      }
      case kKnight:
        reach = knight_attacks(from);
        break;
      case kBishop:
        reach = bishop_attacks(from, pos.pieces());
        break;
      case kRook:
        reach = rook_attacks(from, pos.pieces());
        break;
      case kQueen:
        reach = queen_attacks(from, pos.pieces());
        break;
      case kKing:
        reach = king_attacks(from);
        break;
    }
    for (const Square to : reach) {
      std::string token;
      if (type != kPawn) token += piece_letter(type);
      if (type == kPawn ? from.file() != to.file() : pick(rng, 2) == 0) {
        token += file_char(from.file());
        token += 'x';
      }
      token += to.name();
      if (type == kPawn && (to.rank() == 0 || to.rank() == 7)) token += "=Q";
      tokens.push_back(std::move(token));
    }
  }
  for (int i = 0; i < samples && !tokens.empty(); ++i) {
    compare(pos, tokens[static_cast<size_t>(pick(rng, static_cast<int>(tokens.size())))], tally);
  }
}

// Every legal move's SAN with a variant of each, pseudo moves and a random token; or, when not
// `full`, one legal move's SAN with a variant and one pseudo move.
void exercise(const Position& pos, bool full, std::uint64_t& rng, Tally& tally) {
  ++tally.positions;
  MoveList legal;
  generate_legal(pos, legal);
  auto compare_move = [&](Move move) {
    const std::string san = plain_san(pos, move, legal);
    compare(pos, san, tally);
    compare(pos, variant(pos, move, san, rng), tally);
  };
  if (!full) {
    if (!legal.empty()) compare_move(legal[pick(rng, legal.size())]);
    compare_pseudo_moves(pos, rng, 1, tally);
    return;
  }
  for (const Move move : legal) compare_move(move);
  compare_pseudo_moves(pos, rng, 6, tally);
  std::string token(1, "PNBRQK"[pick(rng, 6)]);
  token += Square(pick(rng, 64)).name();
  compare(pos, token, tally);
}

// ---- the PGN fixtures ----

struct FixtureReplayer : pgn::Visitor {
  Tally* tally = nullptr;
  std::uint64_t rng = 0x2545F4914F6CDD1DULL;
  long plies = 0;
  Position pos;
  std::string fen;

  void begin_game(pgn::Location) override { fen.clear(); }
  void tag(std::string_view name, std::string_view value) override {
    if (name == "FEN") fen = std::string(value);
  }
  pgn::Action begin_moves() override {
    if (fen.empty()) {
      pos = Position::start();
      return pgn::Action::kContinue;
    }
    const auto parsed = Position::from_fen(fen);
    if (!parsed.ok()) return pgn::Action::kSkipGame;
    pos = *parsed;
    return pgn::Action::kContinue;
  }
  pgn::Action move(std::string_view san, pgn::Location) override {
    ++plies;
    if (plies % kFixtureFullEvery == 0 || plies % kFixtureSampleEvery == 0) {
      exercise(pos, plies % kFixtureFullEvery == 0, rng, *tally);
    }
    compare(pos, san, *tally);
    const Expected<Move> move = parse_san_reference(pos, san);
    if (!move.ok() || move->is_null()) return pgn::Action::kSkipGame;
    pos.play(*move);
    return pgn::Action::kContinue;
  }
};

TEST_CASE("san fast path: agrees with the reference on the PGN fixtures") {
  Tally tally;
  long plies = 0;
  for (const char* name : {"lichess-100.pgn", "lichess-2021-10-first999.pgn", "OpenRating.pgn"}) {
    const std::string text = materialist::testing::read_fixture(std::string("pgn/") + name);
    REQUIRE(!text.empty());
    FixtureReplayer replayer;
    replayer.tally = &tally;
    pgn::Parser parser(replayer);
    parser.feed(text.data(), text.size());
    parser.finish();
    plies += replayer.plies;
  }
  MESSAGE("PGN fixtures: ", plies, " plies, ", tally.positions, " positions exercised, ",
          tally.tokens, " tokens compared, ", tally.disagreements, " disagreements");
  CHECK(tally.tokens > 300000);
  CHECK(tally.disagreements == 0);
}

// ---- random games ----

// The Chess960 start position numbered `index` (0..959, Scharnagl's numbering), Shredder-FEN.
std::string chess960_fen(int index) {
  std::array<char, 8> rank{};
  auto place_in_empty = [&rank](int nth, char piece) {
    for (char& square : rank) {
      if (square == 0 && nth-- == 0) {
        square = piece;
        return;
      }
    }
  };
  rank[static_cast<size_t>(2 * (index % 4) + 1)] = 'B';
  index /= 4;
  rank[static_cast<size_t>(2 * (index % 4))] = 'B';
  index /= 4;
  place_in_empty(index % 6, 'Q');
  index /= 6;
  constexpr int kKnights[10][2] = {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2},
                                   {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}};
  place_in_empty(kKnights[index][1], 'N');  // the later one first, so the earlier index holds
  place_in_empty(kKnights[index][0], 'N');
  place_in_empty(0, 'R');
  place_in_empty(0, 'K');
  place_in_empty(0, 'R');
  std::string white(rank.begin(), rank.end()), black, rights;
  for (size_t file = 0; file < 8; ++file) {
    black += static_cast<char>(white[file] | 0x20);
    if (white[file] == 'R') rights += static_cast<char>('A' + file);
  }
  for (size_t i = 0, n = rights.size(); i < n; ++i) rights += static_cast<char>(rights[i] | 0x20);
  return black + "/pppppppp/8/8/8/8/PPPPPPPP/" + white + " w " + rights + " - 0 1";
}

// Castling, promotions and en passant are rare in random play: take one half the time it exists.
Move choose_move(const MoveList& legal, std::uint64_t& rng) {
  int special[MoveList::kCapacity];
  int specials = 0;
  for (int i = 0; i < legal.size(); ++i) {
    if (legal[i].kind() != Move::Kind::kNormal) special[specials++] = i;
  }
  if (specials > 0 && pick(rng, 2) == 0) return legal[special[pick(rng, specials)]];
  return legal[pick(rng, legal.size())];
}

void play_random_games(const Position& start, int games, std::uint64_t& rng, Tally& tally) {
  for (int game = 0; game < games; ++game) {
    ++tally.games;
    Position pos = start;
    for (int ply = 0; ply < 160; ++ply) {
      MoveList legal;
      generate_legal(pos, legal);
      if (legal.empty() || pos.halfmove_clock() >= 100) break;
      exercise(pos, ply % kRandomFullEvery == 0, rng, tally);
      pos.play(choose_move(legal, rng));
    }
  }
}

TEST_CASE("san fast path: agrees with the reference along random games") {
  Tally tally;
  const std::uint64_t seed = seed_setting();
  std::uint64_t rng = random_start(seed);
  const int games = random_games();
  play_random_games(Position::start(), games / 2, rng, tally);
  for (const std::string& line : materialist::testing::lines_of(materialist::testing::read_fixture("perft/chess960.epd"))) {
    const auto start = Position::from_fen(line.substr(0, line.find(';')));
    REQUIRE(start.ok());
    play_random_games(*start, games / 40, rng, tally);
  }
  for (int i = 0; i < games / 16; ++i) {
    const auto start = Position::from_fen(chess960_fen(pick(rng, 960)));
    REQUIRE(start.ok());
    play_random_games(*start, 4, rng, tally);
  }
  MESSAGE("random games (seed ", seed, "): ", tally.games, " games, ", tally.positions,
          " positions, ", tally.tokens, " tokens compared, ", tally.disagreements,
          " disagreements");
  CHECK(tally.positions > 100L * games);
  CHECK(tally.disagreements == 0);
}

// ---- perft positions and hand-picked corner cases ----

// Exercises `pos` and, `depth` plies deep, every position reached from it: in full near the
// root, lightly at the last ply.
void walk(const Position& pos, int depth, std::uint64_t& rng, Tally& tally) {
  exercise(pos, depth > 0, rng, tally);
  if (depth == 0) return;
  MoveList legal;
  generate_legal(pos, legal);
  for (const Move move : legal) {
    Position after = pos;
    after.play(move);
    walk(after, depth - 1, rng, tally);
  }
}

TEST_CASE("san fast path: agrees with the reference around perft and corner-case positions") {
  std::vector<std::string> fens = {
      // En passant: along a rank through both pawns, off a diagonal pin, as the answer to the
      // pawn's check, while another piece gives check, and when it discovers a check.
      "8/8/8/KPp4r/8/8/8/7k w - c6 0 1",
      "8/1k6/8/8/3Pp3/8/8/4K2B b - d3 0 1",
      "8/8/8/4k3/2pP4/8/8/4K3 b - d3 0 1",
      "8/8/8/8/2pP4/8/k7/R3K3 b - d3 0 1",
      "8/8/8/2k5/3Pp3/8/8/4KQ2 b - d3 0 1",
      "4k3/8/8/r2pP2K/8/8/8/8 w - d6 0 1",
      // Pins on every line, double check, a king among attacked squares.
      "4k3/4r3/8/b6q/8/2N1N3/3BR3/r3K2r w - - 0 1",
      "4k3/8/8/8/1b6/8/3N4/4K1Nr w - - 0 1",
      "4k3/8/8/8/8/5n2/8/r3K3 w - - 0 1",
      "8/8/8/3k4/8/2q1r3/8/3K4 w - - 0 1",
      // Promotions with captures on both sides and a pinned promoting pawn.
      "1n1qk3/2P5/8/8/8/8/8/4K3 w - - 0 1",
      "4k3/8/8/8/8/8/2p2K2/1N1Q4 b - - 0 1",
      "r3k3/1P6/8/8/8/8/8/1K6 w - - 0 1",
  };
  for (const char* file : {"perft/standard.epd", "perft/chess960.epd"}) {
    for (const std::string& line : materialist::testing::lines_of(materialist::testing::read_fixture(file))) {
      fens.push_back(line.substr(0, line.find(';')));
    }
  }
  Tally tally;
  std::uint64_t rng = 0xD1B54A32D192ED03ULL;
  for (const std::string& fen : fens) {
    const auto pos = Position::from_fen(fen);
    REQUIRE_MESSAGE(pos.ok(), fen);
    if (pos.ok()) walk(*pos, 2, rng, tally);
  }
  MESSAGE("perft and corner-case walks: ", tally.positions, " positions, ", tally.tokens,
          " tokens compared, ", tally.disagreements, " disagreements");
  CHECK(tally.disagreements == 0);
}

}  // namespace
}  // namespace materialist::chess
