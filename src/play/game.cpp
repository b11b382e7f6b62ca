#include "play/game.h"

#include <algorithm>
#include <cstdlib>

#include "chess/movegen.h"
#include "play/zobrist.h"

namespace materialist::play {

Expected<chess::Position> opening_position(const Opening& opening) {
  auto position = opening.fen.empty() ? Expected<chess::Position>(chess::Position::start())
                                      : chess::Position::from_fen(opening.fen);
  if (!position) return position.error();
  for (const chess::Move move : opening.moves) {
    if (!chess::is_legal(*position, move)) {
      return make_error(ErrorCode::kIllegalMove,
                        "opening move " + move.uci() + " is illegal in " + position->fen());
    }
    position->play(move);
  }
  return position;
}

GamePlayer::GamePlayer(const Opening& opening, const ValueSet& white, const ValueSet& black,
                       const GameSettings& settings)
    : settings_(settings) {
  engines_[0] = std::make_unique<Searcher>(white, settings.evaluation, settings.table_entries);
  engines_[1] = std::make_unique<Searcher>(black, settings.evaluation, settings.table_entries);
  record_.opening = opening;
  record_.white = white.name;
  record_.black = black.name;
  record_.white_values = white.values_text();
  record_.black_values = black.values_text();
  // The book checked the opening; a bad one here starts from its last legal position.
  auto start = opening.fen.empty() ? Expected<chess::Position>(chess::Position::start())
                                   : chess::Position::from_fen(opening.fen);
  if (start) position_ = *start;
  keys_.push_back(zobrist_key(position_));
  for (const chess::Move move : opening.moves) {
    if (!chess::is_legal(position_, move)) break;
    position_.play(move);
    keys_.push_back(zobrist_key(position_));
    ++plies_from_start_;
  }
  check_rules();
}

void GamePlayer::finish(learn::Outcome result, Termination termination) {
  finished_ = true;
  record_.result = result;
  record_.termination = termination;
  record_.final_fen = position_.fen();
}

void GamePlayer::check_rules() {
  chess::MoveList legal;
  chess::generate_legal(position_, legal);
  const bool white_to_move = position_.side_to_move() == chess::Color::kWhite;
  if (legal.empty()) {
    if (position_.in_check()) {
      finish(white_to_move ? learn::Outcome::kBlackWin : learn::Outcome::kWhiteWin,
             Termination::kCheckmate);
    } else {
      finish(learn::Outcome::kDraw, Termination::kStalemate);
    }
    return;
  }
  if (insufficient_material(position_)) {
    finish(learn::Outcome::kDraw, Termination::kInsufficientMaterial);
    return;
  }
  if (position_.halfmove_clock() >= 100) {
    finish(learn::Outcome::kDraw, Termination::kFiftyMoves);
    return;
  }
  const std::uint64_t key = keys_.back();
  const std::size_t reach = std::min<std::size_t>(position_.halfmove_clock(), keys_.size() - 1);
  int occurrences = 1;
  for (std::size_t back = 2; back <= reach; back += 2) {
    if (keys_[keys_.size() - 1 - back] == key) ++occurrences;
  }
  if (occurrences >= 3) finish(learn::Outcome::kDraw, Termination::kRepetition);
}

void GamePlayer::check_adjudication() {
  const Adjudication& rules = settings_.adjudication;
  const PlayedMove& last = record_.moves.back();
  // The mover has just moved, so the side to move now is the other one.
  const int mover = 1 - chess::index_of(position_.side_to_move());
  if (rules.resign) {
    int loser = -1;
    if (last.score <= -rules.resign_score) loser = mover;
    if (last.score >= rules.resign_score) loser = 1 - mover;
    if (loser >= 0 && loser == resign_side_) {
      ++resign_streak_;
    } else {
      resign_side_ = loser;
      resign_streak_ = loser >= 0 ? 1 : 0;
    }
    if (resign_streak_ >= 2 * rules.resign_move_count) {
      finish(resign_side_ == 0 ? learn::Outcome::kBlackWin : learn::Outcome::kWhiteWin,
             Termination::kAdjudicatedResign);
      return;
    }
  }
  if (rules.draw) {
    const bool late_enough = position_.fullmove_number() > rules.draw_move_number;
    draw_streak_ = late_enough && std::abs(last.score) <= rules.draw_score ? draw_streak_ + 1 : 0;
    if (draw_streak_ >= 2 * rules.draw_move_count) {
      finish(learn::Outcome::kDraw, Termination::kAdjudicatedDraw);
      return;
    }
  }
  if (rules.max_plies > 0 && plies_from_start_ >= rules.max_plies) {
    finish(learn::Outcome::kDraw, Termination::kMaxLength);
  }
}

void GamePlayer::step() {
  if (finished_) return;
  Searcher& engine = *engines_[chess::index_of(position_.side_to_move())];
  const std::span<const std::uint64_t> history(keys_.data(), keys_.size() - 1);
  const SearchResult result = engine.search(position_, history, settings_.limits);
  record_.moves.push_back({result.best, result.score, result.depth, result.nodes});
  record_.nodes += result.nodes;
  position_.play(result.best);
  keys_.push_back(zobrist_key(position_));
  ++plies_from_start_;
  check_rules();
  if (!finished_) check_adjudication();
}

}  // namespace materialist::play
