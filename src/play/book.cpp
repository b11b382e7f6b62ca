#include "play/book.h"

#include <string>
#include <unordered_set>

#include "chess/movegen.h"
#include "chess/san.h"
#include "core/text.h"
#include "pgn/parser.h"
#include "play/zobrist.h"

namespace materialist::play {

namespace {

constexpr int kMaxBookPlies = 40;

// Keeps a position once: the first opening to reach it.
class Deduplicator {
 public:
  bool first_time(const chess::Position& position) {
    return seen_.insert(zobrist_key(position)).second;
  }

 private:
  std::unordered_set<std::uint64_t> seen_;
};

bool has_moves(const chess::Position& position) {
  chess::MoveList legal;
  chess::generate_legal(position, legal);
  return !legal.empty();
}

// Replays each game's first `plies` moves; the position there becomes an opening.
class BookVisitor : public pgn::Visitor {
 public:
  BookVisitor(int plies, Book& book) : plies_(plies), book_(book) {}

  void begin_game(pgn::Location) override {
    fen_.clear();
    opening_ = {};
    readable_ = true;
    plies_seen_ = 0;
  }
  void tag(std::string_view name, std::string_view value) override {
    if (equals_ignoring_case(name, "FEN")) fen_ = std::string(trim(value));
  }
  pgn::Action begin_moves() override {
    auto start = fen_.empty() ? Expected<chess::Position>(chess::Position::start())
                              : chess::Position::from_fen(fen_);
    if (!start) {
      readable_ = false;
      return pgn::Action::kSkipGame;
    }
    position_ = *start;
    opening_.fen = fen_;
    return plies_ == 0 ? pgn::Action::kSkipGame : pgn::Action::kContinue;
  }
  pgn::Action move(std::string_view san, pgn::Location) override {
    auto move = chess::parse_san(position_, san);
    if (!move || move->is_null()) {
      readable_ = false;
      return pgn::Action::kSkipGame;
    }
    position_.play(*move);
    opening_.moves.push_back(*move);
    return ++plies_seen_ >= plies_ ? pgn::Action::kSkipGame : pgn::Action::kContinue;
  }
  void end_game(const pgn::GameEnd&) override {
    ++book_.games_read;
    if (!readable_) {
      ++book_.unreadable;
    } else if (plies_seen_ < plies_) {
      ++book_.too_short;
    } else if (!has_moves(position_)) {
      ++book_.finished;
    } else if (!seen_.first_time(position_)) {
      ++book_.duplicates;
    } else {
      book_.openings.push_back(std::move(opening_));
    }
  }

 private:
  int plies_;
  Book& book_;
  Deduplicator seen_;
  std::string fen_;
  Opening opening_;
  chess::Position position_;
  bool readable_ = true;
  int plies_seen_ = 0;
};

Error no_openings(const Book& book, int plies) {
  if (book.games_read == 0) {
    return make_error(ErrorCode::kInvalidArgument,
                      "the book has no games: is it a PGN or EPD file?");
  }
  return make_error(ErrorCode::kInvalidArgument,
                    "the book gives no opening: of its " + std::to_string(book.games_read) +
                        " games, " + std::to_string(book.too_short) + " are shorter than " +
                        std::to_string(plies) + " plies and " + std::to_string(book.unreadable) +
                        " have an illegal move or a bad FEN");
}

}  // namespace

Expected<Book> openings_from_pgn(std::string_view pgn_text, int plies) {
  if (plies < 0 || plies > kMaxBookPlies) {
    return make_error(ErrorCode::kInvalidArgument,
                      "book plies must be 0 to " + std::to_string(kMaxBookPlies));
  }
  Book book;
  BookVisitor visitor(plies, book);
  pgn::Parser parser(visitor);
  parser.feed(pgn_text.data(), pgn_text.size());
  parser.finish();
  if (book.openings.empty()) return no_openings(book, plies);
  return book;
}

Expected<Book> openings_from_epd(std::string_view epd_text) {
  Book book;
  Deduplicator seen;
  std::size_t line_number = 0;
  std::size_t start = 0;
  while (start < epd_text.size()) {
    std::size_t end = epd_text.find('\n', start);
    if (end == std::string_view::npos) end = epd_text.size();
    const std::string_view line = trim(epd_text.substr(start, end - start));
    start = end + 1;
    ++line_number;
    if (line.empty() || line.front() == '#') continue;
    // The four position fields; EPD operations ("bm e4; id ...") follow them.
    std::size_t fields_end = 0;
    for (int field = 0; field < 4 && fields_end != std::string_view::npos; ++field) {
      fields_end = line.find(' ', fields_end == 0 ? 0 : fields_end + 1);
    }
    const std::string_view fen =
        fields_end == std::string_view::npos ? line : line.substr(0, fields_end);
    auto position = chess::Position::from_fen(fen);
    if (!position) {
      return make_error(ErrorCode::kInvalidArgument, "book line " + std::to_string(line_number) +
                                                         ": not a FEN or EPD position (" +
                                                         position.error().message + ")");
    }
    ++book.games_read;
    if (!has_moves(*position)) {
      ++book.finished;
    } else if (!seen.first_time(*position)) {
      ++book.duplicates;
    } else {
      book.openings.push_back({std::string(fen), {}});
    }
  }
  if (book.openings.empty()) {
    return make_error(ErrorCode::kInvalidArgument,
                      book.games_read == 0
                          ? "the book has no positions: is it an EPD file?"
                          : "the book's positions are all finished games or repeats");
  }
  return book;
}

Expected<Book> openings_from_file_text(std::string_view name, std::string_view text, int plies) {
  if (trim(text).empty()) return make_error(ErrorCode::kInvalidArgument, "the book is empty");
  const bool epd_name = name.size() >= 4 && ends_with_ignoring_case(name, ".epd");
  // PGN has tags or move numbers; an EPD line starts with a rank of pieces and digits.
  const std::string_view first = trim(text.substr(0, text.find('\n')));
  const bool looks_like_epd =
      !first.empty() && first.front() != '[' && first.find('/') != std::string_view::npos;
  if (epd_name || looks_like_epd) return openings_from_epd(text);
  return openings_from_pgn(text, plies);
}

std::string book_text(const Book& book) {
  std::string text;
  for (const Opening& opening : book.openings) {
    auto position = opening.fen.empty() ? Expected<chess::Position>(chess::Position::start())
                                        : chess::Position::from_fen(opening.fen);
    if (!position) continue;
    if (!opening.fen.empty()) text += opening.fen + " |";
    // The start position without moves: a bar alone, which an empty line would not be.
    if (opening.fen.empty() && opening.moves.empty()) text += '|';
    for (std::size_t i = 0; i < opening.moves.size(); ++i) {
      if (i > 0 || !opening.fen.empty()) text += ' ';
      text += chess::to_san(*position, opening.moves[i]);
      position->play(opening.moves[i]);
    }
    text += '\n';
  }
  return text;
}

Expected<Book> openings_from_book_text(std::string_view text) {
  Book book;
  std::size_t line_number = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = trim(text.substr(start, end - start));
    start = end + 1;
    ++line_number;
    if (line.empty()) continue;
    Opening opening;
    if (const std::size_t bar = line.find('|'); bar != std::string_view::npos) {
      opening.fen = std::string(trim(line.substr(0, bar)));
      line = trim(line.substr(bar + 1));
    }
    auto position = opening.fen.empty() ? Expected<chess::Position>(chess::Position::start())
                                        : chess::Position::from_fen(opening.fen);
    if (!position) {
      return make_error(ErrorCode::kInvalidArgument, "book line " + std::to_string(line_number) +
                                                         ": " + position.error().message);
    }
    std::size_t at = 0;
    while (at < line.size()) {
      std::size_t space = line.find(' ', at);
      if (space == std::string_view::npos) space = line.size();
      const std::string_view san = line.substr(at, space - at);
      at = space + 1;
      if (san.empty()) continue;
      auto move = chess::parse_san(*position, san);
      if (!move || move->is_null()) {
        return make_error(ErrorCode::kInvalidArgument, "book line " + std::to_string(line_number) +
                                                           ": move '" + std::string(san) +
                                                           "' is not legal there");
      }
      position->play(*move);
      opening.moves.push_back(*move);
    }
    ++book.games_read;
    book.openings.push_back(std::move(opening));
  }
  if (book.openings.empty()) return make_error(ErrorCode::kInvalidArgument, "the book is empty");
  return book;
}

std::string_view default_book_text() {
  // Generated by `materialist book tests/fixtures/pgn/OpenRating.pgn` (tests/play check it).
  static constexpr char kText[] =
#include "play/default_book.inc"
      ;
  return {kText, sizeof(kText) - 1};
}

Book default_book() {
  auto book = openings_from_book_text(default_book_text());
  return book ? *book : Book{};
}

}  // namespace materialist::play
