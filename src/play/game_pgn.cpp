#include "play/game_pgn.h"

#include <cstdio>
#include <cstdlib>

#include "chess/san.h"

namespace materialist::play {

namespace {

void add_tag(std::string& out, const char* name, std::string_view value) {
  out += '[';
  out += name;
  out += " \"";
  for (const char c : value) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  out += "\"]\n";
}

// Movetext lines of at most 80 characters, as the PGN standard asks.
class LineWriter {
 public:
  explicit LineWriter(std::string& out) : out_(out) {}
  void token(std::string_view text) {
    if (length_ > 0 && length_ + 1 + text.size() > 80) {
      out_ += '\n';
      length_ = 0;
    } else if (length_ > 0) {
      out_ += ' ';
      ++length_;
    }
    out_ += text;
    length_ += text.size();
  }
  void end() { out_ += "\n\n"; }

 private:
  std::string& out_;
  std::size_t length_ = 0;
};

bool is_termination_by_rule(Termination termination) {
  return termination != Termination::kAdjudicatedDraw &&
         termination != Termination::kAdjudicatedResign && termination != Termination::kMaxLength;
}

}  // namespace

const char* result_text(learn::Outcome outcome) {
  switch (outcome) {
    case learn::Outcome::kWhiteWin:
      return "1-0";
    case learn::Outcome::kBlackWin:
      return "0-1";
    default:
      return "1/2-1/2";
  }
}

std::string eval_annotation(int mover_score, chess::Color mover) {
  const int white_score = mover == chess::Color::kWhite ? mover_score : -mover_score;
  if (is_mate_score(white_score)) {
    // The score counts plies from the position before the move; one of them is played.
    const int plies_left = kMateScore - std::abs(white_score) - 1;
    if (plies_left <= 0) return "";  // the move mated: there is nothing left to evaluate
    const int moves = (plies_left + 1) / 2;
    return white_score > 0 ? "#" + std::to_string(moves) : "#-" + std::to_string(moves);
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", white_score / 100.0);
  return text;
}

std::string game_pgn(const GameRecord& game, const PgnHeader& header) {
  std::string out;
  add_tag(out, "Event", header.event);
  add_tag(out, "Site", "Materialist");
  add_tag(out, "Date", "????.??.??");  // the same games give the same file, any day
  add_tag(out, "Round", header.round.empty() ? "-" : header.round);
  add_tag(out, "White", game.white);
  add_tag(out, "Black", game.black);
  add_tag(out, "Result", result_text(game.result));
  add_tag(out, "WhiteValues", game.white_values);
  add_tag(out, "BlackValues", game.black_values);
  if (!game.opening.fen.empty()) {
    add_tag(out, "SetUp", "1");
    add_tag(out, "FEN", game.opening.fen);
  }
  add_tag(out, "PlyCount", std::to_string(game.opening.moves.size() + game.moves.size()));
  add_tag(out, "Termination", is_termination_by_rule(game.termination) ? "normal" : "adjudication");
  out += '\n';

  auto start = game.opening.fen.empty() ? Expected<chess::Position>(chess::Position::start())
                                        : chess::Position::from_fen(game.opening.fen);
  chess::Position position = start ? *start : chess::Position::start();
  LineWriter line(out);
  bool need_number = true;
  auto write_move = [&](chess::Move move) {
    if (position.side_to_move() == chess::Color::kWhite) {
      line.token(std::to_string(position.fullmove_number()) + ".");
    } else if (need_number) {
      line.token(std::to_string(position.fullmove_number()) + "...");
    }
    line.token(chess::to_san(position, move));
    position.play(move);
  };
  for (const chess::Move move : game.opening.moves) {
    write_move(move);
    need_number = false;
  }
  if (!game.opening.moves.empty()) line.token("{book}");
  need_number = true;
  for (const PlayedMove& played : game.moves) {
    const chess::Color mover = position.side_to_move();
    write_move(played.move);
    need_number = false;
    line.token("{[%eval " + eval_annotation(played.score, mover) + "," +
               std::to_string(played.depth) + "]}");
    need_number = true;  // a comment between moves: the next Black move repeats its number
  }
  line.token(std::string("{") + kTerminationNames[static_cast<int>(game.termination)] + "}");
  line.token(result_text(game.result));
  line.end();
  return out;
}

}  // namespace materialist::play
