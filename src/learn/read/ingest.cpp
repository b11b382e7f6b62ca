#include "learn/read/ingest.h"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <utility>

#include "chess/san.h"
#include "core/enum_names.h"
#include "core/hash.h"
#include "core/text.h"

namespace materialist::learn {

namespace {

constexpr std::array kIssueReasonNames = {"unknown-result", "bad-fen",         "illegal-move",
                                          "ambiguous-move", "unparsable-move", "null-move",
                                          "missing-move",   "pgn-syntax",      "pgn-limit",
                                          "ply-limit",      "truncated"};
static_assert(kIssueReasonNames.size() == kIssueReasonCount);
static_assert(kIssueReasonCount == static_cast<int>(IssueReason::kTruncated) + 1);
constexpr std::array kGameStatusNames = {"used", "partial", "skipped", "filtered"};
static_assert(kGameStatusNames.size() == static_cast<std::size_t>(GameStatus::kFiltered) + 1);

constexpr std::array<chess::PieceType, kPieceKinds> kPieceTypes = {
    chess::PieceType::kPawn, chess::PieceType::kKnight, chess::PieceType::kBishop,
    chess::PieceType::kRook, chess::PieceType::kQueen};

// Counts and their difference written in place, each byte from registers: a MaterialCounts
// built in a temporary and copied whole, or a delta read back from the counts just written
// (the compiler merges the byte stores, then loads across them), stalls on store forwarding
// once per capture.
void count_material(const chess::Position& position, MaterialCounts& counts,
                    MaterialVector& delta) {
  for (int i = 0; i < kPieceKinds; ++i) {
    const int white = position.count(chess::Color::kWhite, kPieceTypes[i]);
    const int black = position.count(chess::Color::kBlack, kPieceTypes[i]);
    counts.white[i] = static_cast<std::uint8_t>(white);
    counts.black[i] = static_cast<std::uint8_t>(black);
    delta[i] = static_cast<std::int8_t>(white - black);
  }
}

IssueReason reason_for_san_error(ErrorCode code) {
  switch (code) {
    case ErrorCode::kIllegalMove:
      return IssueReason::kIllegalMove;
    case ErrorCode::kAmbiguousMove:
      return IssueReason::kAmbiguousMove;
    default:
      return IssueReason::kUnparsableMove;
  }
}

Outcome flip(Outcome outcome) {
  if (outcome == Outcome::kWhiteWin) return Outcome::kBlackWin;
  if (outcome == Outcome::kBlackWin) return Outcome::kWhiteWin;
  return outcome;
}

}  // namespace

const char* issue_reason_name(IssueReason reason) {
  return name_of(kIssueReasonNames, reason);
}

const char* game_status_name(GameStatus status) {
  return name_of(kGameStatusNames, status);
}

void add_variant_name(std::vector<std::string>& names, std::string_view name) {
  if (names.size() >= kMaxNamedVariants) return;
  if (std::find(names.begin(), names.end(), name) == names.end()) names.emplace_back(name);
}

namespace {

IngestOptions with_comments(IngestOptions options) {
  if (options.target == Target::kEval) options.parser.comments = true;
  return options;
}

}  // namespace

Ingestor::Ingestor(IngestOptions options)
    : options_(with_comments(std::move(options))),
      game_filter_(options_.games),
      quiet_filter_(options_.quiet),
      parser_(*this, options_.parser),
      position_(chess::Position::start()) {
  game_rows_.reserve(256);
  if (options_.target == Target::kEval) {
    game_targets_.reserve(256);
    histogram_.enable_targets();  // an eval histogram says so even before its first row
  }
}

void Ingestor::feed(const char* data, std::size_t size) {
  report_.bytes += size;
  parser_.feed(data, size);
}

void Ingestor::finish() {
  parser_.finish();
}

// ---- visitor events ----

void Ingestor::begin_game(pgn::Location start) {
  tags_.clear();
  result_tag_.clear();
  start_line_ = start.line;
  last_game_start_ = start;
  set_up_ = false;
  filtered_ = false;
  filter_reason_ = FilterReason::kKept;
  stopped_ = false;
  missing_move_pending_ = false;
  stop_detail_.clear();
  perspective_ = 1;
  rating_diff_ = 0;
  rating_known_ = false;
  plies_ = 0;
  game_rows_.clear();
  game_boards_.clear();
  game_hash_ = 0x6d61746572696131ULL;
  game_targets_.clear();
  annotated_row_ = -1;
  game_has_evals_ = false;
  quiet_filter_.begin_game();
}

void Ingestor::tag(std::string_view name, std::string_view value) {
  if (name == "Result") {
    result_tag_.assign(value);
  } else {
    tags_.record(name, value);
  }
}

pgn::Action Ingestor::begin_moves() {
  filter_reason_ = game_filter_.check_tags(tags_);
  if (filter_reason_ != FilterReason::kKept) {
    filtered_ = true;
    if (filter_reason_ == FilterReason::kVariant) {
      add_variant_name(report_.filtered_variants, tags_.variant);
    }
    return pgn::Action::kSkipGame;
  }
  perspective_ = game_filter_.perspective(tags_);
  const auto white_elo = parse_elo(tags_.white_elo);
  const auto black_elo = parse_elo(tags_.black_elo);
  if (white_elo && black_elo) {
    rating_known_ = true;
    rating_diff_ = binned_rating_difference(*white_elo - *black_elo, options_.rating_bin_elo);
  }
  const bool wants_fen = tags_.set_up == "1" || !tags_.fen.empty();
  if (wants_fen) {
    auto position = chess::Position::from_fen(tags_.fen);
    if (!position) {
      stop_replay(IssueReason::kBadFen, start_line_,
                  tags_.fen.empty() ? std::string("SetUp \"1\" without a FEN tag")
                                    : "\"" + tags_.fen + "\": " + position.error().message);
      return pgn::Action::kSkipGame;
    }
    position_ = *position;
    if (options_.keep_boards) game_hash_ = mix64(game_hash_ ^ hash_text(tags_.fen));
  } else {
    position_ = chess::Position::start();
  }
  count_material(position_, material_, material_delta_);
  set_up_ = true;
  return pgn::Action::kContinue;
}

pgn::Action Ingestor::move(std::string_view san, pgn::Location where) {
  if (filtered_ || stopped_) return pgn::Action::kSkipGame;
  if (!set_up_ && begin_moves() == pgn::Action::kSkipGame) return pgn::Action::kSkipGame;
  if (missing_move_pending_ && options_.stop_at_missing_move) {
    stop_replay(IssueReason::kMissingMove, missing_move_line_,
                "a bare \"...\" where a move is missing");
    return pgn::Action::kSkipGame;
  }
  annotated_row_ = -1;  // a comment from here on is this move's
  chess::Move move = chess::parse_san_fast(position_, san);
  if (move.is_none()) {
    move = resolve_move(san, where);
    if (move.is_none()) return pgn::Action::kSkipGame;
  }
  missing_move_pending_ = false;
  if (options_.keep_boards) game_hash_ = mix64(game_hash_ ^ hash_text(san));
  record_position(position_.play(move));
  return pgn::Action::kContinue;
}

chess::Move Ingestor::resolve_move(std::string_view san, pgn::Location where) {
  const Expected<chess::Move> move = chess::parse_san(position_, san);
  if (!move) {
    if (missing_move_pending_) {  // the gap did lose a move: blame it, not this move
      stop_replay(IssueReason::kMissingMove, where.line,
                  std::string(san) + " after a bare \"...\" on line " +
                      std::to_string(missing_move_line_) + ": " + move.error().message);
    } else {
      stop_replay(reason_for_san_error(move.error().code), where.line,
                  std::string(san) + ": " + move.error().message);
    }
    return chess::Move();
  }
  if (move->is_null()) {
    missing_move_pending_ = false;
    stop_replay(IssueReason::kNullMove, where.line, std::string(san) + ": a null move");
    return chess::Move();
  }
  return *move;
}

void Ingestor::missing_move(pgn::Location where) {
  if (filtered_ || stopped_ || missing_move_pending_) return;
  missing_move_pending_ = true;
  missing_move_line_ = where.line;
}

void Ingestor::comment(std::string_view text, pgn::Location) {
  if (options_.target != Target::kEval || filtered_ || stopped_ || !set_up_) return;
  const EvalScan reading = scan_eval_comment(text);
  report_.malformed_evals += static_cast<std::uint64_t>(reading.malformed);
  if (reading.status != EvalStatus::kValid) return;
  game_has_evals_ = true;
  if (annotated_row_ < 0) return;  // the move recorded no row (not quiet, or the same material)
  TargetUnits& target = game_targets_[static_cast<std::size_t>(annotated_row_)];
  // The first [%eval] counts.
  if (target == kNoTarget) target = target_units(eval_argument_score(reading.argument));
}

void Ingestor::record_position(chess::MoveFacts facts) {
  ++plies_;
  ++report_.plies_replayed;
  // Only captures and promotions change the material: no recount on the other plies.
  if (facts.capture() || facts.promotion()) count_material(position_, material_, material_delta_);
  const MaterialCounts& counts = material_;
  const MaterialVector delta = material_delta_;
  if (!quiet_filter_.observe({facts.capture(), facts.promotion(), facts.gives_check()}, delta))
    return;
  if (options_.target == Target::kEval) {
    annotated_row_ = static_cast<std::ptrdiff_t>(game_rows_.size());
    game_targets_.push_back(kNoTarget);
  }
  if (options_.keep_boards) game_boards_.push_back(pack_board());
  RowKey& key = game_rows_.emplace_back();  // filled in place, for the same reason
  key.delta = delta;
  const KeyFields& fields = options_.fields;
  if (fields.bishop_pair) key.bishop_pair = static_cast<std::int8_t>(counts.bishop_pair_delta());
  if (fields.phase) key.phase = static_cast<std::uint8_t>(counts.phase());
  if (fields.side_to_move) {
    key.black_to_move = position_.side_to_move() == chess::Color::kBlack ? 1 : 0;
  }
  if (fields.rating && rating_known_) {
    key.rating_known = 1;
    key.rating_diff = rating_diff_;
  }
  if (fields.counts) {
    key.counts_known = 1;
    key.white_counts = perspective_ < 0 ? counts.black : counts.white;  // the player's side
    key.opposite_bishops = chess::opposite_coloured_bishops(position_) ? 1 : 0;
  }
  if (perspective_ < 0) {  // the filter's player has Black: rows from Black's side
    for (auto& d : key.delta) d = static_cast<std::int8_t>(-d);
    key.bishop_pair = static_cast<std::int8_t>(-key.bishop_pair);
    if (fields.side_to_move) key.black_to_move ^= 1;
    key.rating_diff =
        static_cast<std::int16_t>(std::max(-32767, -static_cast<int>(key.rating_diff)));
  }
}

PackedBoard Ingestor::pack_board() const {
  PackedBoard board;
  const bool flip = perspective_ < 0;
  const chess::Bitboard occupied = position_.pieces();
  if (occupied.popcount() > kMaxPackedPieces) return board;
  // Flipped: each square's rank mirrored (square ^ 56) and each colour swapped.
  std::array<std::uint8_t, kBoardSquares> codes{};
  std::uint64_t bits = 0;
  for (const chess::Square square : occupied) {
    const chess::Piece piece = position_.piece_on(square);
    const int at = flip ? square.index() ^ 56 : square.index();
    const bool black = (piece.color() == chess::Color::kBlack) != flip;
    codes[static_cast<std::size_t>(at)] =
        static_cast<std::uint8_t>(chess::index_of(piece.type()) + (black ? 8 : 0));
    bits |= std::uint64_t{1} << at;
  }
  board.occupied = bits;
  int i = 0;
  for (std::uint64_t rest = bits; rest != 0; rest &= rest - 1, ++i) {
    board.set_code(i, codes[static_cast<std::size_t>(std::countr_zero(rest))]);
  }
  const bool black_to_move = (position_.side_to_move() == chess::Color::kBlack) != flip;
  board.state = black_to_move ? 1 : 0;
  // Castling rights as FEN's KQkq: a right's rook on the king's side or the other.
  for (const chess::Square rook : position_.castling_rooks()) {
    const bool black = (position_.piece_on(rook).color() == chess::Color::kBlack) != flip;
    const chess::Color color = position_.piece_on(rook).color();
    const bool king_side = rook.file() > position_.king_square(color).file();
    const int right = (black ? 2 : 0) + (king_side ? 0 : 1);
    board.state = static_cast<std::uint8_t>(board.state | 1 << (1 + right));
  }
  if (const chess::Square ep = position_.en_passant_square(); ep != chess::Square::none()) {
    board.en_passant = static_cast<std::uint8_t>(flip ? ep.index() ^ 56 : ep.index());
  }
  return board;
}

Row Ingestor::row_at(std::size_t index, Outcome outcome, TargetUnits target) const {
  Row row{game_rows_[index], outcome, report_.games_read, target};
  if (options_.keep_boards) {
    row.board = game_boards_[index];
    row.game_hash = game_hash_;
  }
  return row;
}

void Ingestor::stop_replay(IssueReason reason, std::uint64_t line, std::string detail) {
  if (stopped_) return;
  stopped_ = true;
  stop_reason_ = reason;
  stop_line_ = line;
  stop_detail_ = std::move(detail);
}

void Ingestor::end_game(const pgn::GameEnd& end) {
  record_game(end);
  if (game_end_hook_) game_end_hook_();
}

void Ingestor::record_game(const pgn::GameEnd& end) {
  ++report_.games_read;
  if (!filtered_) note_parser_stop(end);
  if (!filtered_ && set_up_ && !stopped_) {  // min_plies on the plies actually replayed
    filter_reason_ = game_filter_.check_plies(static_cast<int>(plies_));
    filtered_ = filter_reason_ != FilterReason::kKept;
  }
  if (filtered_) {
    ++report_.games_filtered;
    report_.filter_tally.add(filter_reason_);
    return;
  }
  report_.filter_tally.add(FilterReason::kKept);

  // The outcome: the Result tag when it is decided, else the result token.
  // A game whose replay stopped before any row (binary junk, a bad first move) is reported for
  // that reason, even when its result is unknown too.
  if (stopped_ && game_rows_.empty()) {
    add_issue(GameStatus::kSkipped, stop_reason_, stop_line_, std::move(stop_detail_));
    return;
  }
  Outcome outcome = parse_result(result_tag_);
  if (outcome == Outcome::kUnknown) outcome = parse_result(end.result);
  outcome = resolve_outcome(outcome, options_.unknown_results);
  if (outcome == Outcome::kUnknown) {
    add_issue(GameStatus::kSkipped, IssueReason::kUnknownResult, start_line_,
              "result \"" + (result_tag_.empty() ? std::string(end.result) : result_tag_) + "\"");
    return;
  }
  if (perspective_ < 0) outcome = flip(outcome);

  const auto rows_kept = static_cast<std::uint32_t>(game_rows_.size());
  if (stopped_) {
    if (rows_kept == 0) {
      add_issue(GameStatus::kSkipped, stop_reason_, stop_line_, std::move(stop_detail_));
      return;
    }
    add_issue(GameStatus::kPartial, stop_reason_, stop_line_, std::move(stop_detail_));
  } else {
    ++report_.games_used;
  }
  if (options_.target == Target::kEval) {
    record_targets(outcome);
    return;
  }
  for (const RowKey& key : game_rows_) {
    histogram_.add(key, outcome);
    if (sink_)
      sink_(row_at(static_cast<std::size_t>(&key - game_rows_.data()), outcome, kNoTarget));
  }
  report_.rows += rows_kept;
  report_.rows_by_outcome.by_outcome[static_cast<int>(outcome)] += rows_kept;
}

void Ingestor::record_targets(Outcome outcome) {
  histogram_.enable_targets();
  if (game_has_evals_) {
    ++report_.games_with_evals;
  } else {
    ++report_.games_without_evals;
  }
  OutcomeCounts one;
  one.by_outcome[static_cast<int>(outcome)] = 1;
  std::uint64_t kept = 0;
  for (std::size_t i = 0; i < game_rows_.size(); ++i) {
    TargetUnits target = game_targets_[i];
    if (target == kNoTarget) {
      ++report_.rows_without_eval;
      continue;
    }
    if (perspective_ < 0) target = kTargetOne - target;  // the player's expected score
    histogram_.add(game_rows_[i], one, target);
    if (sink_) sink_(row_at(i, outcome, target));
    ++kept;
  }
  report_.rows += kept;
  report_.rows_by_outcome.by_outcome[static_cast<int>(outcome)] += kept;
}

void Ingestor::note_parser_stop(const pgn::GameEnd& end) {
  // Our own stop comes first: the parser reports no move after its errors that end a game.
  if (stopped_) return;
  if (end.ply_limit_reached) {
    stop_replay(IssueReason::kPlyLimit, end.end.line,
                "more than " + std::to_string(options_.parser.max_plies) + " plies");
  } else if (!end.errors.empty()) {
    const pgn::GameError& error = end.errors.front();
    stop_replay(error.code == ErrorCode::kLimit ? IssueReason::kPgnLimit : IssueReason::kPgnSyntax,
                error.location.line, error.message);
  } else if (end.error_count > 0) {
    stop_replay(IssueReason::kPgnSyntax, start_line_, "parser error");
  } else if (end.truncated) {
    stop_replay(IssueReason::kTruncated, end.end.line, "the input ended inside the game");
  }
}

void Ingestor::add_issue(GameStatus status, IssueReason reason, std::uint64_t line,
                         std::string detail) {
  const auto index = static_cast<std::size_t>(reason);
  if (status == GameStatus::kPartial) {
    ++report_.games_partial;
    ++report_.partial_by_reason[index];
  } else {
    ++report_.games_skipped;
    ++report_.skipped_by_reason[index];
  }
  ++report_.issue_count;
  if (report_.issues.size() < options_.max_reported_issues) {
    report_.issues.push_back(
        {report_.games_read, line, status, reason, printable(detail),
         status == GameStatus::kPartial ? static_cast<std::uint32_t>(game_rows_.size()) : 0u});
  }
}

}  // namespace materialist::learn
