// The ingest glue: PGN bytes → parser → legal replay → quiet filter → histogram rows.
//
//   Ingestor ingestor(IngestOptions::defaults());
//   ingestor.set_row_sink([&](const Row& row) { append_mat_row(mat, row.key.delta, row.outcome);
//   }); while (read a chunk) ingestor.feed(chunk.data(), chunk.size()); ingestor.finish(); const
//   Histogram& rows = ingestor.histogram(); const IngestReport& report = ingestor.report();   //
//   games used / partial / skipped, why, where
//
// Per game: the tags are read (Result, SetUp/FEN, Variant, ratings, the game filter's tags); the
// replay starts from the FEN when there is one; every SAN is resolved with parse_san and played;
// the quiet filter decides which positions become rows. A game's rows are held until its end,
// when its outcome and status are known, then added to the histogram and sent to the row sink in
// order. A move that cannot be replayed stops the replay: the game is "partial" if it already
// recorded rows (they are kept) and "skipped" otherwise. Everything is deterministic.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "chess/position.h"
#include "learn/filter/game_filter.h"
#include "learn/stats/histogram.h"
#include "learn/stats/key_fields.h"
#include "learn/vocabulary/eval_target.h"
#include "learn/vocabulary/quiet_filter.h"
#include "learn/vocabulary/result.h"
#include "pgn/parser.h"

namespace materialist::learn {

// Why a game was skipped or only partly used.
enum class IssueReason : std::uint8_t {
  kUnknownResult,   // '*', no result or anything else (default policy)
  kBadFen,          // the FEN tag does not parse, or SetUp "1" without a FEN
  kIllegalMove,     // a well-formed move no legal move matches
  kAmbiguousMove,   // a move several legal moves match
  kUnparsableMove,  // a token parse_san cannot read
  kNullMove,        // "--" / "Z0": a pass the replay does not follow
  kMissingMove,     // a bare "..." where a move is missing, followed by more moves
  kPgnSyntax,       // the parser's syntax errors
  kPgnLimit,        // the parser's limits (token length, nesting, tags)
  kPlyLimit,        // more plies than the parser's max_plies
  kTruncated,       // the input ended inside the game
};
inline constexpr int kIssueReasonCount = 11;

// Names a reason for reports: "unknown-result", "bad-fen", "illegal-move", ...
const char* issue_reason_name(IssueReason reason);

enum class GameStatus : std::uint8_t {
  kUsed,      // replayed to the end
  kPartial,   // replay stopped early; the rows recorded before are kept
  kSkipped,   // nothing kept
  kFiltered,  // removed by the game filter (not an error)
};
const char* game_status_name(GameStatus status);

struct GameIssue {
  std::uint64_t game = 0;  // 1-based game number in the stream
  std::uint64_t line = 0;  // 1-based line of the offending move, error or game start
  GameStatus status = GameStatus::kSkipped;
  IssueReason reason = IssueReason::kPgnSyntax;
  std::string detail;  // e.g. "Nxe5: illegal-move: ..." or the parser's message
  std::uint32_t rows_kept = 0;
};

inline constexpr std::size_t kMaxNamedVariants = 8;
// Adds a variant's name to `names` unless it is there or they are kMaxNamedVariants.
void add_variant_name(std::vector<std::string>& names, std::string_view name);

struct IngestReport {
  std::uint64_t bytes = 0;
  std::uint64_t games_read = 0;  // = used + partial + skipped + filtered
  std::uint64_t games_used = 0;
  std::uint64_t games_partial = 0;
  std::uint64_t games_skipped = 0;
  std::uint64_t games_filtered = 0;
  std::array<std::uint64_t, kIssueReasonCount> skipped_by_reason{};
  std::array<std::uint64_t, kIssueReasonCount> partial_by_reason{};
  std::uint64_t issue_count = 0;  // partial + skipped games, exact
  std::vector<GameIssue> issues;  // the first max_reported_issues of them
  FilterTally filter_tally;       // games per filter reason (kKept: passed)
  std::uint64_t rows = 0;
  OutcomeCounts rows_by_outcome;
  std::uint64_t plies_replayed = 0;  // every ply played, in every game
  // The evaluation target (IngestOptions::target kEval): `rows` are the annotated positions;
  // these count what was left out. A game "without evaluations" has no [%eval] on any move.
  std::uint64_t rows_without_eval = 0;    // recorded positions whose move had no [%eval]
  std::uint64_t games_with_evals = 0;     // used or partial games with at least one [%eval]
  std::uint64_t games_without_evals = 0;  // used or partial games with none (no rows kept)
  std::uint64_t malformed_evals = 0;      // [%eval] commands that could not be read
  // The Variant tags (as written) of the games filtered for their variant, each once, in the
  // order first met, at most kMaxNamedVariants: what a read of nothing else names
  // (learn/read/empty_read.h).
  std::vector<std::string> filtered_variants;

  std::uint64_t skipped(IssueReason reason) const {
    return skipped_by_reason[static_cast<int>(reason)];
  }
  std::uint64_t partial(IssueReason reason) const {
    return partial_by_reason[static_cast<int>(reason)];
  }
};

struct IngestOptions {
  // The fit's target: with kEval the parser reports comments, each recorded row takes the
  // [%eval] of the move that led to it, and rows without one are left out (counted).
  Target target = Target::kResult;
  QuietFilterOptions quiet;
  UnknownResultPolicy unknown_results = UnknownResultPolicy::kSkip;
  GameFilterOptions games;  // tag filters; the default keeps every replayable game
  // The RowKey fields the ingest fills (the others stay 0, so the histogram keeps only what the
  // model reads); the rating difference in bins of rating_bin_elo.
  KeyFields fields;
  int rating_bin_elo = kRatingBinElo;
  pgn::ParserOptions parser;
  std::size_t max_reported_issues = 1000;
  // On: a bare "..." followed by more moves stops the replay there (the game becomes partial).
  // Off (default): the replay goes on, and a gap that really lost a move shows as the next move
  // failing, reported as "missing-move". OpenRating.pgn's 39 "..." all replay legally on.
  bool stop_at_missing_move = false;
  // On: every row carries its board and its game's hash (Row::board, Row::game_hash), for the
  // models that read where the pieces stand and for the labelled positions' export.
  bool keep_boards = false;

  // The product's defaults: unknown results are skipped.
  static IngestOptions defaults() { return {}; }
  // The article's tool: N = 2, unknown results count as draws.
  static IngestOptions article() {
    IngestOptions options;
    options.unknown_results = UnknownResultPolicy::kTreatAsDraw;
    return options;
  }
};

class Ingestor final : public pgn::Visitor {
 public:
  explicit Ingestor(IngestOptions options = IngestOptions::defaults());
  Ingestor(const Ingestor&) = delete;  // the parser holds a reference to this visitor
  Ingestor& operator=(const Ingestor&) = delete;

  // Receives every kept row, in game order, when its game ends.
  void set_row_sink(RowSink sink) { sink_ = std::move(sink); }
  // Called after every game's end, its rows (if any) sent to the row sink.
  void set_game_end_hook(std::function<void()> hook) { game_end_hook_ = std::move(hook); }
  // Where the parser began the latest game (nullopt before the first).
  const std::optional<pgn::Location>& last_game_start() const { return last_game_start_; }
  // Line breaks the parser read (pgn::Parser::line_breaks).
  std::uint64_t line_breaks() const { return parser_.line_breaks(); }

  // Parses the next bytes (any chunking gives the same result).
  void feed(const char* data, std::size_t size);
  // Ends the stream (a last game without a result is ended as truncated).
  void finish();
  // Reads no further than the next game end (a "first N MB" limit).
  void stop_after_game() { parser_.stop_after_game(); }
  // True once a limit ended the stream: later bytes are ignored.
  bool stopped() const { return parser_.stopped(); }

  const Histogram& histogram() const { return histogram_; }
  const IngestReport& report() const { return report_; }
  const IngestOptions& options() const { return options_; }

 private:
  // pgn::Visitor
  void begin_game(pgn::Location start) override;
  void tag(std::string_view name, std::string_view value) override;
  pgn::Action begin_moves() override;
  pgn::Action move(std::string_view san, pgn::Location where) override;
  void missing_move(pgn::Location where) override;
  void comment(std::string_view text, pgn::Location where) override;
  void end_game(const pgn::GameEnd& end) override;
  void record_game(const pgn::GameEnd& end);
  // The evaluation target's end of a game: the annotated rows, the others counted.
  void record_targets(Outcome outcome);

  // Stops the replay at `line` with a reason (the first stop wins).
  void stop_replay(IssueReason reason, std::uint64_t line, std::string detail);
  void record_position(chess::MoveFacts facts);
  // The row's point of view's board: the position, colours swapped and ranks mirrored when the
  // rows are the filter's player's with Black.
  PackedBoard pack_board() const;
  Row row_at(std::size_t index, Outcome outcome, TargetUnits target) const;
  // parse_san for the tokens its fast path leaves: the move, or Move() with the replay stopped.
  chess::Move resolve_move(std::string_view san, pgn::Location where);
  // Turns the parser's errors, limits and truncation into a replay stop (if none came before).
  void note_parser_stop(const pgn::GameEnd& end);
  void add_issue(GameStatus status, IssueReason reason, std::uint64_t line, std::string detail);

  IngestOptions options_;
  GameFilter game_filter_;
  QuietFilter quiet_filter_;
  pgn::Parser parser_;
  Histogram histogram_;
  IngestReport report_;
  RowSink sink_;
  std::function<void()> game_end_hook_;
  std::optional<pgn::Location> last_game_start_;

  // The current game.
  GameTags tags_;
  std::string result_tag_;
  std::uint64_t start_line_ = 0;
  chess::Position position_;
  MaterialCounts material_;          // position_'s, kept up to date by record_position
  MaterialVector material_delta_{};  // material_.delta(), kept with it
  bool set_up_ = false;              // begin_moves ran and the position is valid
  bool filtered_ = false;            // the game filter removed it (reason in filter_reason_)
  FilterReason filter_reason_ = FilterReason::kKept;
  bool stopped_ = false;               // the replay stopped (stop_* hold why)
  bool missing_move_pending_ = false;  // a "..." was seen; a following move makes it an issue
  std::uint64_t missing_move_line_ = 0;
  IssueReason stop_reason_ = IssueReason::kIllegalMove;
  std::uint64_t stop_line_ = 0;
  std::string stop_detail_;
  int perspective_ = 1;  // -1: the filter's player has Black, flip the rows
  std::int16_t rating_diff_ = 0;
  bool rating_known_ = false;
  std::uint32_t plies_ = 0;
  std::vector<RowKey> game_rows_;         // reused across games
  std::vector<PackedBoard> game_boards_;  // with keep_boards: each row's board
  std::uint64_t game_hash_ = 0;           // with keep_boards: the moves so far, hashed
  // The evaluation target: each row's target (kNoTarget until its move's [%eval] is read), the
  // row the latest move recorded (-1: none), and whether the game had any [%eval].
  std::vector<TargetUnits> game_targets_;
  std::ptrdiff_t annotated_row_ = -1;
  bool game_has_evals_ = false;
};

}  // namespace materialist::learn
