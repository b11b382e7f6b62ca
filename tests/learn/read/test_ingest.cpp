#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "learn/fit/design.h"
#include "learn/fit/solvers.h"
#include "learn/learn_test_util.h"
#include "learn/read/ingest.h"
#include "learn/stats/mat_io.h"

using namespace materialist::learn;
using materialist::learn::testing::first_games;
using materialist::learn::testing::read_fixture;
using materialist::learn::testing::replace_all;

namespace {

struct IngestRun {
  std::vector<Row> rows;
  IngestReport report;
  Histogram histogram;
};

// Ingests `text` in chunks of `chunk` bytes, collecting every row the sink sees.
IngestRun ingest(const std::string& text, IngestOptions options = IngestOptions::defaults(),
                 std::size_t chunk = 4093) {
  IngestRun run;
  Ingestor ingestor(std::move(options));
  ingestor.set_row_sink([&run](const Row& row) { run.rows.push_back(row); });
  for (std::size_t at = 0; at < text.size(); at += chunk) {
    ingestor.feed(text.data() + at, std::min(chunk, text.size() - at));
  }
  ingestor.finish();
  run.report = ingestor.report();
  run.histogram = ingestor.histogram();
  return run;
}

std::vector<MaterialVector> deltas(const std::vector<Row>& rows) {
  std::vector<MaterialVector> out;
  for (const Row& row : rows) out.push_back(row.key.delta);
  return out;
}

const GameIssue* issue_of_game(const IngestReport& report, std::uint64_t game) {
  for (const GameIssue& issue : report.issues) {
    if (issue.game == game) return &issue;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("the article's worked example: seven rows from OpenRating.pgn's first game") {
  const std::string pgn = read_fixture("pgn/OpenRating.pgn");
  REQUIRE(!pgn.empty());
  const IngestRun run = ingest(first_games(pgn, 1), IngestOptions::article());
  CHECK(run.report.games_read == 1);
  CHECK(run.report.games_used == 1);
  CHECK(run.report.plies_replayed == 96);  // [PlyCount "96"]
  const std::vector<MaterialVector> expected = {
      {0, 0, 0, 0, 0},  {1, 0, 0, 0, 0},  {2, 0, 0, 0, 0},  {2, -1, 0, 0, 0},
      {2, 0, 0, -1, 0}, {1, 0, 0, -1, 0}, {1, 1, 0, -2, 0},
  };
  CHECK(deltas(run.rows) == expected);
  for (const Row& row : run.rows) CHECK(row.outcome == Outcome::kBlackWin);
  std::string mat;
  for (const Row& row : run.rows) append_mat_row(mat, row.key.delta, row.outcome);
  CHECK(mat == read_fixture("learn/OpenRating.article.mat").substr(0, mat.size()));
}

TEST_CASE("ingest: OpenRating.pgn gives the article's rows and values") {
  const std::string pgn = read_fixture("pgn/OpenRating.pgn");
  REQUIRE(!pgn.empty());
  const IngestRun run = ingest(pgn, IngestOptions::article());
  const IngestReport& report = run.report;
  CHECK(report.games_read == 2997);
  CHECK(report.games_used + report.games_partial == 2997);
  CHECK(report.bytes == pgn.size());
  // A correct replay records about 0.1% more rows than the original tool's 20196.
  CHECK(std::fabs(static_cast<double>(report.rows) - 20196.0) <= 0.002 * 20196);
  CHECK(report.rows == run.histogram.totals().total());
  CHECK(report.rows_by_outcome == run.histogram.totals());
  CHECK(report.rows == run.rows.size());

  const Design design = build_design(run.histogram, ModelSpec::article());
  const FitResult fit = fit_gradient_descent(make_logistic_data(design, DrawHandling::kLeaveOut));
  const std::vector<double> values = relative_values(fit.theta);
  CHECK(std::fabs(values[1] - 288) <= 2);
  CHECK(std::fabs(values[2] - 345) <= 2);
  CHECK(std::fabs(values[3] - 480) <= 2);
  CHECK(std::fabs(values[4] - 1077) <= 2);
}

TEST_CASE("ingest: odd chunk sizes give the same rows") {
  const std::string head = first_games(read_fixture("pgn/OpenRating.pgn"), 40);
  const IngestRun whole = ingest(head, IngestOptions::article(), head.size());
  const IngestRun bytewise = ingest(head, IngestOptions::article(), 1);
  CHECK(bytewise.histogram == whole.histogram);
  CHECK(deltas(bytewise.rows) == deltas(whole.rows));
  CHECK(whole.report.games_read == 40);
  CHECK(whole.report.rows > 0);
}

TEST_CASE("ingest: the default preset skips OpenRating.pgn's games whose result is '*'") {
  const IngestRun strict =
      ingest(read_fixture("pgn/OpenRating.pgn"), IngestOptions::defaults(), 65536);
  CHECK(strict.report.games_read == 2997);
  CHECK(strict.report.skipped(IssueReason::kUnknownResult) == 21);  // 21 [Result "*"]
  CHECK(strict.report.games_skipped == 21);
  CHECK(strict.report.games_used + strict.report.games_partial == 2997 - 21);
  const GameIssue& first = strict.report.issues.front();
  CHECK(first.reason == IssueReason::kUnknownResult);
  CHECK(first.detail == "result \"*\"");
  CHECK(first.line == 2640);  // the game's [Event tag (its [Result "*"] is on line 2646)
}

TEST_CASE("ingest: the game-end hook follows every game's rows; the latest game start is kept") {
  const std::string text =
      "[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 d5 2. exd5 Qxd5 3. Nc3 1-0\n\n"  // rows
      "[Event \"b\"]\n[Result \"0-1\"]\n\n1. e5 0-1\n\n"                         // skipped
      "[Event \"c\"]\n[Variant \"Atomic\"]\n\n1. e4 *\n\n"                       // filtered
      "[Event \"d\"]\n[Result \"1/2-1/2\"]\n\n1. d4 d5 1/2-1/2\n";
  Ingestor ingestor;
  CHECK_FALSE(ingestor.last_game_start().has_value());
  std::vector<std::size_t> rows_at_game_end;
  std::size_t rows = 0;
  ingestor.set_row_sink([&rows](const Row&) { ++rows; });
  ingestor.set_game_end_hook([&] { rows_at_game_end.push_back(rows); });
  ingestor.feed(text.data(), text.size());
  ingestor.finish();
  REQUIRE(rows_at_game_end.size() == 4);
  CHECK(rows_at_game_end[0] > 0);  // the first game's rows came before its hook
  CHECK(rows_at_game_end[1] == rows_at_game_end[0]);
  CHECK(rows_at_game_end[2] == rows_at_game_end[0]);
  CHECK(rows_at_game_end[3] == rows);
  REQUIRE(ingestor.last_game_start().has_value());
  CHECK(ingestor.last_game_start()->offset == text.find("[Event \"d\"]"));
  CHECK(ingestor.last_game_start()->line == 16);
}

TEST_CASE("ingest survives broken games and goes on with the next") {
  const std::string text =
      "[Event \"illegal move mid-game\"]\n"  // line 1, game 1
      "[Result \"1-0\"]\n"
      "\n"
      "1. e4 e5 2. Nf3 Nc6\n"                               // line 4
      "3. Bb5 a6 4. Bxc6 dxc6 5. d3 Bd6 6. Qxe5 Nf6 1-0\n"  // line 5: 6. Qxe5 is illegal
      "\n"
      "[Event \"garbage\"]\n"  // game 2
      "[Result \"0-1\"]\n"
      "\n"
      "1. e4 @@@ #$%^ ((( }}} 0-1\n"
      "\n"
      "[Event \"ambiguous\"]\n"  // game 3
      "[Result \"1/2-1/2\"]\n"
      "\n"
      "1. Nc3 e6 2. Nf3 e5 3. Nb5 d6 4. Nd4 1/2-1/2\n"  // line 15: Nd4 from b5 or f3
      "\n"
      "[Event \"fine\"]\n"  // game 4
      "[Result \"0-1\"]\n"
      "\n"
      "1. f3 e5 2. g4 Qh4# 0-1\n"
      "\n"
      "[Event \"illegal first move\"]\n"  // game 5
      "[Result \"1-0\"]\n"
      "\n"
      "1. e5 e5 1-0\n"
      "\n"
      "[Event \"bad FEN\"]\n"  // game 6, line 27
      "[SetUp \"1\"]\n"
      "[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n"
      "[Result \"1-0\"]\n"
      "\n"
      "1. e4 1-0\n"
      "\n"
      "\x01\x02 binary junk \xff\xfe\n";
  const IngestRun run = ingest(text, IngestOptions::defaults(), 5);
  const IngestReport& report = run.report;
  CHECK(report.games_used == 1);
  CHECK(report.games_partial == 2);
  CHECK(report.games_skipped >= 3);
  CHECK(report.games_read ==
        report.games_used + report.games_partial + report.games_skipped + report.games_filtered);
  CHECK(report.issue_count == report.games_partial + report.games_skipped);

  const GameIssue* illegal = issue_of_game(report, 1);
  REQUIRE(illegal != nullptr);
  CHECK(illegal->status == GameStatus::kPartial);
  CHECK(illegal->reason == IssueReason::kIllegalMove);
  CHECK(illegal->line == 5);
  CHECK(illegal->detail.find("Qxe5") == 0);
  CHECK(illegal->rows_kept ==
        2);  // 0 0 0 0 0 after 1...e5, then pawn-for-bishop after 4...dxc6? no: see below

  const GameIssue* garbage = issue_of_game(report, 2);
  REQUIRE(garbage != nullptr);
  CHECK(garbage->status == GameStatus::kSkipped);
  CHECK(garbage->reason == IssueReason::kPgnSyntax);
  CHECK(garbage->line == 10);
  CHECK_FALSE(garbage->detail.empty());

  const GameIssue* ambiguous = issue_of_game(report, 3);
  REQUIRE(ambiguous != nullptr);
  CHECK(ambiguous->status == GameStatus::kPartial);
  CHECK(ambiguous->reason == IssueReason::kAmbiguousMove);
  CHECK(ambiguous->line == 15);

  CHECK(issue_of_game(report, 4) == nullptr);  // the fine game was used

  const GameIssue* first_move = issue_of_game(report, 5);
  REQUIRE(first_move != nullptr);
  CHECK(first_move->status == GameStatus::kSkipped);
  CHECK(first_move->reason == IssueReason::kIllegalMove);

  const GameIssue* fen = issue_of_game(report, 6);
  REQUIRE(fen != nullptr);
  CHECK(fen->status == GameStatus::kSkipped);
  CHECK(fen->reason == IssueReason::kBadFen);
  CHECK(fen->line == 27);

  // Rows of partial games are kept, with their results.
  CHECK(report.rows == run.rows.size());
  CHECK(report.rows_by_outcome[Outcome::kWhiteWin] == illegal->rows_kept);
  CHECK(report.rows_by_outcome[Outcome::kDraw] == ambiguous->rows_kept);
}

TEST_CASE("games from a FEN, unknown results and the presets") {
  const std::string text =
      "[Event \"from a FEN\"]\n"
      "[SetUp \"1\"]\n"
      "[FEN \"4k3/8/8/8/8/8/4P3/R3K3 w - - 0 1\"]\n"
      "[Result \"1-0\"]\n"
      "\n"
      "1. e4 Kd7 2. Kd2 Ke6 1-0\n"
      "\n"
      "[Event \"unfinished\"]\n"
      "[Result \"*\"]\n"
      "\n"
      "1. e4 e5 2. Nf3 Nc6 *\n";
  const IngestRun strict = ingest(text);
  REQUIRE(strict.rows.size() == 1);
  CHECK(strict.rows[0].key.delta == MaterialVector{1, 0, 0, 1, 0});
  CHECK(strict.rows[0].key.phase == 2);
  CHECK(strict.rows[0].outcome == Outcome::kWhiteWin);
  CHECK(strict.report.games_used == 1);
  CHECK(strict.report.skipped(IssueReason::kUnknownResult) == 1);

  const IngestRun article = ingest(text, IngestOptions::article());
  CHECK(article.report.games_used == 2);
  CHECK(article.report.rows_by_outcome[Outcome::kDraw] == 1);
}

TEST_CASE("a bare '...' stops the replay only when a move was really lost, or on request") {
  const std::string text =
      "[Event \"marker only\"]\n"
      "[Result \"1-0\"]\n"
      "\n"
      "1. e4 e5 2. Nf3 ... {a comment} Nc6 3. Bc4 Nf6 1-0\n"
      "\n"
      "[Event \"a real gap\"]\n"
      "[Result \"1-0\"]\n"
      "\n"
      "1. e4 e5 2. Nf3 ...\n"
      "3. Bc4 Nc6 1-0\n"
      "\n"
      "[Event \"gap at the end\"]\n"
      "[Result \"1-0\"]\n"
      "\n"
      "1. e4 e5 2. Nf3 ... 1-0\n";
  const IngestRun lenient = ingest(text);
  CHECK(lenient.report.games_used == 2);
  CHECK(lenient.report.games_partial == 1);
  const GameIssue* gap = issue_of_game(lenient.report, 2);
  REQUIRE(gap != nullptr);
  CHECK(gap->reason == IssueReason::kMissingMove);
  CHECK(gap->line == 10);

  IngestOptions options;
  options.stop_at_missing_move = true;
  const IngestRun strict = ingest(text, options);
  CHECK(strict.report.games_used == 1);  // the trailing "..." loses nothing
  CHECK(strict.report.partial(IssueReason::kMissingMove) == 2);
  CHECK(issue_of_game(strict.report, 1)->line == 4);
}

TEST_CASE("row keys carry side to move, phase and ratings; filters and caps apply") {
  const std::string text =
      "[Event \"rated\"]\n"
      "[WhiteElo \"2100\"]\n"
      "[BlackElo \"1950\"]\n"
      "[Result \"0-1\"]\n"
      "\n"
      "1. e4 e5 2. Nf3 1-0\n"
      "\n"
      "[Event \"too long\"]\n"
      "[Result \"1-0\"]\n"
      "\n"
      "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 1-0\n"
      "\n"
      "[Event \"illegal\"]\n"
      "[Result \"1-0\"]\n"
      "\n"
      "1. e4 e5 2. Ke3 1-0\n";
  IngestOptions options;
  options.fields = KeyFields::all();
  options.parser.max_plies = 4;
  options.max_reported_issues = 1;
  const IngestRun run = ingest(text, options);
  REQUIRE(!run.rows.empty());
  const RowKey& first = run.rows[0].key;
  CHECK(first.rating_known == 1);
  CHECK(first.rating_diff == 150);
  CHECK(first.phase == 24);
  CHECK(first.black_to_move == 0);                   // after 1...e5
  CHECK(run.rows[0].outcome == Outcome::kBlackWin);  // the Result tag wins over the token
  CHECK(run.report.partial(IssueReason::kPlyLimit) == 1);
  CHECK(run.report.partial(IssueReason::kIllegalMove) == 1);
  CHECK(run.report.issue_count == 2);
  CHECK(run.report.issues.size() == 1);  // capped; the count stays exact

  options.games = *parse_game_filter("elo=2000-");
  const IngestRun filtered = ingest(text, options);
  CHECK(filtered.report.games_filtered == 1);  // the unrated games pass (keep_unrated)
  CHECK(filtered.report.filter_tally.count(FilterReason::kElo) == 1);

  // A rating of 0 is no rating: the rating difference stays unknown, as with "?".
  const IngestRun zero = ingest(replace_all(text, "[BlackElo \"1950\"]", "[BlackElo \"0\"]"), {});
  REQUIRE(!zero.rows.empty());
  CHECK(zero.rows[0].key.rating_known == 0);
  CHECK(zero.rows[0].key.rating_diff == 0);

  IngestOptions narrow;
  narrow.fields = {false, false, false, false};
  const IngestRun plain = ingest(text, narrow);
  CHECK(plain.rows[0].key == RowKey::from_delta({0, 0, 0, 0, 0}));
}

TEST_CASE("row keys carry each side's counts when kept, turned to the player's side") {
  // White gives a knight for a pawn (3. Nxe5? Nxe5): White keeps 8 pawns and 1 knight, Black 7
  // pawns and 2 knights.
  const std::string text =
      "[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"0-1\"]\n\n"
      "1. e4 e5 2. Nf3 Nc6 3. Nxe5 Nxe5 4. d4 Nc6 5. a3 a6 6. h3 h6 0-1\n";
  IngestOptions options;
  options.fields = KeyFields::none();
  options.fields.counts = true;
  const IngestRun white = ingest(text, options);
  REQUIRE(!white.rows.empty());
  const RowKey& last = white.rows.back().key;
  CHECK(last.counts_known == 1);
  CHECK(last.white_counts == std::array<std::uint8_t, kPieceKinds>{8, 1, 2, 2, 1});
  CHECK(last.counts().black == std::array<std::uint8_t, kPieceKinds>{7, 2, 2, 2, 1});
  CHECK(white.rows.back().outcome == Outcome::kBlackWin);

  options.games = *parse_game_filter("player=Bob;pov=1");
  const IngestRun bob = ingest(text, options);
  REQUIRE(!bob.rows.empty());
  const RowKey& turned = bob.rows.back().key;
  CHECK(turned.white_counts == std::array<std::uint8_t, kPieceKinds>{7, 2, 2, 2, 1});  // Bob's
  CHECK(turned.counts().black == std::array<std::uint8_t, kPieceKinds>{8, 1, 2, 2, 1});
  CHECK(turned.delta == MaterialVector{-1, 1, 0, 0, 0});
  CHECK(bob.rows.back().outcome == Outcome::kWhiteWin);  // the player's win

  // Without the field the keys are today's: no counts.
  CHECK(ingest(text, IngestOptions::defaults()).rows.back().key.counts_known == 0);
}
