#include "cli/replay_command.h"

#include <memory>
#include <string>
#include <vector>

#include "chess/position.h"
#include "chess/san.h"
#include "cli/arguments.h"
#include "cli/file_closer.h"
#include "pgn/parser.h"

namespace materialist::cli {

namespace {

// Replays each game as the ingest does (start position from SetUp/FEN, every SAN through
// parse_san) and prints its line at the game's end.
class Replayer final : public pgn::Visitor {
 public:
  explicit Replayer(std::FILE* out) : out_(out) {}

  void begin_game(pgn::Location /*start*/) override {
    ++game_;
    set_up_tag_.clear();
    fen_tag_.clear();
    position_ = chess::Position::start();
    plies_ = 0;
    started_ = false;
    stop_.clear();
    why_ = "ok";
  }
  void tag(std::string_view name, std::string_view value) override {
    if (name == "SetUp") set_up_tag_ = value;
    if (name == "FEN") fen_tag_ = value;
  }
  pgn::Action begin_moves() override {
    started_ = true;
    if (set_up_tag_ != "1" && fen_tag_.empty()) return pgn::Action::kContinue;
    const Expected<chess::Position> position = chess::Position::from_fen(fen_tag_);
    if (!position) return stop("fen", "bad-fen");
    position_ = *position;
    return pgn::Action::kContinue;
  }
  pgn::Action move(std::string_view san, pgn::Location /*where*/) override {
    if (!started_ && begin_moves() == pgn::Action::kSkipGame) return pgn::Action::kSkipGame;
    if (!stop_.empty()) return pgn::Action::kSkipGame;
    const Expected<chess::Move> move = chess::parse_san(position_, san);
    if (!move) return stop(next_ply(), std::string(error_code_name(move.error().code)));
    // A pass while in check would leave the side that moved in check: not a legal null move.
    if (move->is_null() && position_.in_check()) return stop(next_ply(), "null-move-in-check");
    position_.play(*move);
    ++plies_;
    return pgn::Action::kContinue;
  }
  void end_game(const pgn::GameEnd& end) override {
    if (!started_) begin_moves();  // a game of tags only: its start position still counts
    // The parser's errors stop the moves it reports (pgn/parser.h): the next ply is not played.
    if (stop_.empty() && end.error_count > 0) stop(next_ply(), "pgn-syntax");
    std::fprintf(out_, "%llu\t%u\t%s\t%s\t%s\n", static_cast<unsigned long long>(game_), plies_,
                 stop_.empty() ? "-" : stop_.c_str(), position_.fen().c_str(), why_.c_str());
  }

 private:
  std::string next_ply() const { return std::to_string(plies_ + 1); }
  pgn::Action stop(std::string where, std::string why) {
    stop_ = std::move(where);
    why_ = std::move(why);
    return pgn::Action::kSkipGame;
  }

  std::FILE* out_;
  std::uint64_t game_ = 0;
  std::string set_up_tag_, fen_tag_;
  chess::Position position_;
  std::uint32_t plies_ = 0;
  bool started_ = false;
  std::string stop_;  // "" while every move plays
  std::string why_;
};

}  // namespace

int run_replay(const std::vector<std::string>& args, std::FILE* out, std::FILE* err) {
  const auto parsed = parse_arguments(Verb::kReplay, std::span(args).subspan(1));
  if (!parsed || parsed->operands.empty()) {
    std::fprintf(
        err, "materialist replay: %s\n",
        parsed ? "needs FILE... (see materialist replay --help)" : parsed.error().message.c_str());
    return kExitBadOptions;
  }
  int status = 0;
  std::vector<char> buffer(1 << 16);
  for (const std::string& path : parsed->operands) {
    std::unique_ptr<std::FILE, FileCloser> owned(path == "-" ? nullptr
                                                             : std::fopen(path.c_str(), "rb"));
    std::FILE* file = path == "-" ? stdin : owned.get();
    if (file == nullptr) {
      std::fprintf(err, "materialist replay: cannot read %s\n", path.c_str());
      status = 1;
      continue;
    }
    Replayer replayer(out);
    pgn::Parser parser(replayer);
    std::size_t n = 0;
    while ((n = std::fread(buffer.data(), 1, buffer.size(), file)) > 0)
      parser.feed(buffer.data(), n);
    parser.finish();
  }
  return status;
}

}  // namespace materialist::cli
