// Value sets, books, games and matches: parsing and its errors, the default book's provenance,
// the rules that end a game, and matches whose results are fixed by their seed.
#include <doctest/doctest.h>

#include <string>

#include "chess/san.h"
#include "core/sha256.h"
#include "pgn/parser.h"
#include "play/book.h"
#include "play/game_pgn.h"
#include "play/match.h"
#include "test_util.h"

namespace materialist::play {

namespace {

std::string match_pgn_text(const Match& match) {
  std::string text;
  for (std::size_t i = 0; i < match.results().size(); ++i) {
    for (const GameRecord& game : match.results()[i].games) {
      text += game_pgn(game, {.event = "Materialist match", .round = std::to_string(i + 1)});
    }
  }
  return text;
}

Match play_whole(MatchSettings settings, Book book) {
  auto match = Match::create(std::move(settings), std::move(book));
  REQUIRE(match);
  while (auto task = match->next_task())
    match->record(task->index, play_pair(*task, match->settings().game));
  return std::move(*match);
}

GameSettings fast_games(std::uint64_t nodes) {
  GameSettings settings;
  settings.limits = {.nodes = nodes};
  settings.table_entries = 1u << 12;
  return settings;
}

}  // namespace

TEST_CASE("value sets: numbers, names and every error a user can make") {
  auto classic = parse_value_set("100,300,300,500,900");
  REQUIRE(classic);
  CHECK(classic->name == "classic");
  CHECK(classic->middlegame == PieceValues{100, 300, 300, 500, 900});
  auto named = parse_value_set("mine: 100, 289.4, 346, 480, 1078");
  REQUIRE(named);
  CHECK(named->name == "mine");
  CHECK(named->middlegame[1] == 289);
  CHECK(parse_value_set("article-c")->middlegame == PieceValues{100, 325, 325, 550, 1100});
  CHECK(parse_value_set("100-289-346-480-1078").error().message.find("five numbers") !=
        std::string::npos);
  CHECK(parse_value_set("100,300,abc,500,900").error().message.find("'abc' is not a number") !=
        std::string::npos);
  CHECK(parse_value_set("0,300,300,500,900").error().message.find("pawn of 0") !=
        std::string::npos);
  CHECK(parse_value_set("100,-300,300,500,900").error().message.find("less than nothing") !=
        std::string::npos);
  CHECK(parse_value_set("100,300,300,500").error().code == ErrorCode::kInvalidArgument);
  CHECK(parse_value_set("fruit").error().message.find("named sets: classic") != std::string::npos);
  CHECK(parse_value_set(":100,300,300,500,900").error().code == ErrorCode::kInvalidArgument);
}

TEST_CASE("value sets: read from a fit's JSON, tapered, with the bishop pair and imbalance terms") {
  auto plain = value_set_from_fit_json(
      R"({"values": {"P": 100, "N": 289.1, "B": 345.5, "R": 480.4, "Q": 1077.8}})", "");
  REQUIRE(plain);
  CHECK(plain->middlegame == PieceValues{100, 289, 346, 480, 1078});
  CHECK_FALSE(plain->tapered());
  auto phased = value_set_from_fit_json(
      R"({"values": {"pawn-mg": 100, "knight-mg": 310, "bishop-mg": 320, "rook-mg": 450, "queen-mg": 950,
                     "pawn-eg": 100, "knight-eg": 280, "bishop-eg": 330, "rook-eg": 520, "queen-eg": 1000,
                     "bishop-pair": 40, "rook-pair": -20}})",
      "phased");
  REQUIRE(phased);
  CHECK(phased->tapered());
  CHECK(phased->endgame[3] == 520);
  CHECK(phased->bishop_pair_middlegame == 40);
  CHECK(phased->imbalance[static_cast<int>(learn::ImbalanceTerm::kRookPair)] == -20);
  CHECK(phased->values_text() == "100/100,310/280,320/330,450/520,950/1000");
  CHECK_FALSE(value_set_from_fit_json(R"({"games": 3})", ""));
  CHECK_FALSE(value_set_from_fit_json("not json", ""));
  const auto negative = value_set_from_fit_json(
      R"({"values": {"P": 100, "N": 289, "B": 345, "R": 480, "Q": -5}})", "");
  REQUIRE_FALSE(negative);
  CHECK(negative.error().message.find("queen") != std::string::npos);
}

TEST_CASE("value sets: a piece the fit could not identify keeps the fallback's value, named") {
  const std::string json =
      R"({"values": {"P": 100, "N": null, "B": 345.5, "R": 480.4, "Q": null}})";
  CHECK_FALSE(value_set_from_fit_json(json, ""));  // no fallback: an error, never a guess
  const ValueSet previous = *parse_value_set("100,310,320,490,950");
  auto kept = value_set_from_fit_json(json, "round-1", &previous);
  REQUIRE(kept);
  CHECK(kept->middlegame == PieceValues{100, 310, 346, 480, 950});
  CHECK(kept->fallback_pieces == ((1u << 1) | (1u << 4)));
  CHECK(fallback_text(*kept) == "knight 310, queen 950");
  CHECK(fallback_text(previous).empty());
  auto whole = value_set_from_fit_json(
      R"({"values": {"P": 100, "N": 300, "B": 300, "R": 500, "Q": 900}})", "", &previous);
  REQUIRE(whole);
  CHECK(whole->fallback_pieces == 0);
  // A fit that identifies nothing keeps every piece; the pawn, the unit, is not among them.
  auto none = value_set_from_fit_json(
      R"({"values": {"P": null, "N": null, "B": null, "R": null, "Q": null}})", "", &previous);
  REQUIRE(none);
  CHECK(fallback_text(*none) == "knight 310, bishop 320, rook 490, queen 950");
}

TEST_CASE("evaluation: material follows the set, the positional part is the same for every set") {
  auto position =
      chess::Position::from_fen("4k3/8/8/8/8/8/8/R3K2N w - - 0 1");  // rook and knight up
  REQUIRE(position);
  const Evaluator classic(*parse_value_set("classic"), {});
  const Evaluator heavy(*parse_value_set("100,400,400,600,1200"), {});
  CHECK(classic.material(*position) == 800);
  CHECK(heavy.material(*position) == 1000);
  CHECK(heavy.evaluate(*position) - classic.evaluate(*position) == 200);
  const Evaluator material_only(*parse_value_set("classic"), {.material_only = true});
  CHECK(material_only.evaluate(*position) == 800);
  // The side to move's view: the same position with Black to move reads the negation.
  auto black = chess::Position::from_fen("4k3/8/8/8/8/8/8/R3K2N b - - 0 1");
  CHECK(material_only.evaluate(*black) == -800);
  // Mirrored colours give the mirrored score.
  auto mirrored = chess::Position::from_fen("r3k2n/8/8/8/8/8/8/4K3 b - - 0 1");
  CHECK(classic.evaluate(*mirrored) == classic.evaluate(*position));
}

TEST_CASE("book: the bundled book is the sample's positions 8 plies in, de-duplicated") {
  const std::string sample = materialist::testing::read_fixture("pgn/OpenRating.pgn");
  auto book = openings_from_pgn(sample, kDefaultBookPlies);
  REQUIRE(book);
  CHECK(book->games_read == 2997);
  CHECK(book->openings.size() + book->duplicates + book->too_short + book->unreadable +
            book->finished ==
        2997);
  // src/play/default_book.inc is this file's output: regenerate it if the rule changes.
  CHECK(book_text(*book) == default_book_text());
  const Book bundled = default_book();
  CHECK(bundled.openings.size() == book->openings.size());
  CHECK(bundled.openings.front().moves.size() == 8);
}

TEST_CASE("book: EPD and PGN books, and the errors of a missing or empty one") {
  auto epd = openings_from_file_text(
      "openings.epd",
      "# two positions and a repeat\n"
      "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5; id \"1\";\n"
      "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq -\n"
      "\n"
      "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n",
      8);
  REQUIRE(epd);
  CHECK(epd->openings.size() == 2);
  CHECK(epd->duplicates == 1);
  const auto bad_line = openings_from_epd("rnbqkbnr/pppppppp/8/8 w\n");
  REQUIRE_FALSE(bad_line);
  CHECK(bad_line.error().message.find("book line 1") != std::string::npos);
  CHECK(openings_from_file_text("x.pgn", "  \n", 8).error().message == "the book is empty");
  const auto short_games = openings_from_pgn("1. e4 e5 1-0\n\n1. d4 1-0\n", 8);
  REQUIRE_FALSE(short_games);
  CHECK(short_games.error().message.find("2 are shorter than 8 plies") != std::string::npos);
  auto two_plies =
      openings_from_pgn("1. e4 e5 2. Nf3 1-0\n\n1. e4 e5 2. Bc4 1-0\n\n1. d4 d5 1-0\n", 2);
  REQUIRE(two_plies);
  CHECK(two_plies->openings.size() == 2);
  CHECK(book_text(*two_plies) == "e4 e5\nd4 d5\n");
}

TEST_CASE("game: every rule that ends a game, with its reason") {
  const ValueSet classic = *parse_value_set("classic");
  const GameSettings settings = fast_games(2000);
  auto ended = [&](const Opening& opening) {
    GamePlayer game(opening, classic, classic, settings);
    game.play_to_end();
    return game.record();
  };
  Opening repeat;
  for (const char* uci : {"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"}) {
    chess::Position position = *opening_position(repeat);
    repeat.moves.push_back(*chess::parse_san(position, uci));
  }
  CHECK(ended(repeat).termination == Termination::kRepetition);
  CHECK(ended(repeat).moves.empty());
  CHECK(ended({"8/8/4k3/8/8/8/8/4K1N1 w - - 0 1", {}}).termination ==
        Termination::kInsufficientMaterial);
  CHECK(ended({"4k3/8/8/8/8/8/8/R3K3 w - - 100 80", {}}).termination == Termination::kFiftyMoves);
  CHECK(ended({"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", {}}).termination == Termination::kStalemate);
  const GameRecord mate = ended({"6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", {}});
  CHECK(mate.termination == Termination::kCheckmate);
  CHECK(mate.result == learn::Outcome::kWhiteWin);
  CHECK(mate.moves.size() == 1);
  // A queen up: resigned by both engines' agreement within a few moves.
  const GameRecord resign = ended({"3qk3/8/8/8/8/8/3PPP2/4K3 w - - 0 1", {}});
  CHECK(resign.result == learn::Outcome::kBlackWin);
  // With adjudication off, the same game goes on to a rule's end (or its maximum length).
  GameSettings no_adjudication = settings;
  no_adjudication.adjudication = {.draw = false, .resign = false, .max_plies = 60};
  GamePlayer long_game({"3qk3/8/8/8/8/8/3PPP2/4K3 w - - 0 1", {}}, classic, classic,
                       no_adjudication);
  long_game.play_to_end();
  CHECK(long_game.record().termination != Termination::kAdjudicatedResign);
  CHECK(long_game.record().moves.size() <= 60);
}

TEST_CASE("game: its PGN is read back by the project's own parser and replays to the same end") {
  const ValueSet classic = *parse_value_set("classic");
  GamePlayer game({"", {}}, classic, *parse_value_set("kaufman"), fast_games(1500));
  game.play_to_end();
  const std::string pgn = game_pgn(game.record(), {.event = "test", .round = "1"});
  CHECK(pgn.find("[WhiteValues \"100,300,300,500,900\"]") != std::string::npos);
  CHECK(pgn.find("[BlackValues \"100,325,325,500,975\"]") != std::string::npos);
  CHECK(pgn.find("[%eval ") != std::string::npos);
  // Every move read back legal, the final position the game's.
  auto replay = openings_from_pgn(pgn, 40);
  (void)replay;
  struct Replayer : pgn::Visitor {
    chess::Position position;
    bool legal = true;
    std::string result;
    pgn::Action move(std::string_view san, pgn::Location) override {
      auto move = chess::parse_san(position, san);
      if (!move) legal = false;
      if (move) position.play(*move);
      return pgn::Action::kContinue;
    }
    void end_game(const pgn::GameEnd& end) override { result = end.result; }
  } replayer;
  pgn::Parser parser(replayer);
  parser.feed(pgn.data(), pgn.size());
  parser.finish();
  CHECK(replayer.legal);
  CHECK(replayer.position.fen() == game.record().final_fen);
  CHECK(replayer.result == result_text(game.record().result));
}

TEST_CASE("eval annotations: pawns and mates from White's side, as lichess writes them") {
  CHECK(eval_annotation(35, chess::Color::kWhite) == "0.35");
  CHECK(eval_annotation(35, chess::Color::kBlack) == "-0.35");
  CHECK(eval_annotation(kMateScore - 1, chess::Color::kWhite).empty());  // the move mated
  CHECK(eval_annotation(kMateScore - 3, chess::Color::kWhite) == "#1");
  CHECK(eval_annotation(kMateScore - 3, chess::Color::kBlack) == "#-1");
  CHECK(eval_annotation(-(kMateScore - 2), chess::Color::kWhite) == "#-1");
}

TEST_CASE("match: identical sets score exactly even, pair by pair (no colour bias)") {
  MatchSettings settings;
  settings.sets = {*parse_value_set("classic"), *parse_value_set("classic")};
  settings.pairs = 8;
  settings.game = fast_games(500);
  const Match match = play_whole(settings, default_book());
  const PairingStats& stats = match.stats().front();
  CHECK(stats.pairs.counts[2] == 8);  // each pair: the same game twice, colours swapped
  const auto estimate = pairing_estimate(stats);
  REQUIRE(estimate);
  CHECK(estimate->elo == 0);
  CHECK(match.settings().sets[1].name == "classic#2");
}

TEST_CASE("match: a queen worth a pawn loses clearly") {
  MatchSettings settings;
  settings.sets = {*parse_value_set("weak-queen:100,300,300,500,100"), *parse_value_set("classic")};
  settings.pairs = 10;
  settings.game = fast_games(600);
  const Match match = play_whole(settings, default_book());
  const auto estimate = pairing_estimate(match.stats().front());
  REQUIRE(estimate);
  CHECK(estimate->score < 0.3);
  CHECK(estimate->los < 0.01);
}

TEST_CASE("match: the seed fixes every game; results taken in any order give the same match") {
  MatchSettings settings;
  settings.sets = {*parse_value_set("learned-sample"), *parse_value_set("classic"),
                   *parse_value_set("article-12.5")};
  settings.schedule = Schedule::kRoundRobin;
  settings.pairs = 2;
  settings.game = fast_games(600);
  settings.seed = 7;
  const Match in_order = play_whole(settings, default_book());
  REQUIRE(in_order.games_done() == 12);
  // Played last task first, as a slow thread would hand them back.
  auto reversed = Match::create(settings, default_book());
  REQUIRE(reversed);
  std::vector<PairTask> tasks;
  while (auto task = reversed->next_task()) tasks.push_back(*task);
  for (auto it = tasks.rbegin(); it != tasks.rend(); ++it) {
    reversed->record(it->index, play_pair(*it, settings.game));
  }
  const std::string pgn = match_pgn_text(in_order);
  CHECK(match_pgn_text(*reversed) == pgn);
  // The same digest natively and in WebAssembly: the engine is deterministic at fixed nodes.
  Sha256 digest;
  digest.update(pgn.data(), pgn.size());
  // A change to the engine, the book or the PGN writer changes it: update it here then.
  CHECK(digest.hex() == "fd8b897ac28787195f706b69e613e2625eb6313bb43109fe961d4cb882cc4d9e");
  auto ratings = match_ratings(in_order);
  REQUIRE(ratings);
  CHECK(ratings->sets.size() == 3);
}

TEST_CASE("match: an SPRT ends the match at the same pair whatever the order of results") {
  MatchSettings settings;
  settings.sets = {*parse_value_set("weak-queen:100,300,300,500,100"), *parse_value_set("classic")};
  settings.pairs = 200;
  settings.game = fast_games(300);
  settings.sprt = SprtSettings{.elo0 = 0, .elo1 = 40};
  const Match match = play_whole(settings, default_book());
  REQUIRE(match.sprt());
  CHECK(match.sprt()->decision == SprtDecision::kH0);
  CHECK(match.pairs_done() < 200);
  CHECK(match.finished());
  // Five pairs more handed out than needed, results back last first: the same stopping point.
  auto shuffled = Match::create(settings, default_book());
  REQUIRE(shuffled);
  std::vector<PairTask> tasks;
  for (std::size_t i = 0; i < match.pairs_done() + 5; ++i) tasks.push_back(*shuffled->next_task());
  for (auto it = tasks.rbegin(); it != tasks.rend(); ++it) {
    shuffled->record(it->index, play_pair(*it, settings.game));
  }
  CHECK(shuffled->finished());
  CHECK(shuffled->pairs_done() == match.pairs_done());
  CHECK(shuffled->stats().front().pairs == match.stats().front().pairs);
  MatchSettings three = settings;
  three.sets.push_back(*parse_value_set("kaufman"));
  CHECK(Match::create(three, default_book()).error().message.find("two sets") != std::string::npos);
  MatchSettings bad = settings;
  bad.sprt = SprtSettings{.elo0 = 5, .elo1 = 0};
  CHECK_FALSE(Match::create(bad, default_book()));
}

}  // namespace materialist::play
