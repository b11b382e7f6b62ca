#include "play/match.h"

#include <algorithm>
#include <utility>

#include "core/hash.h"

namespace materialist::play {

namespace {

// Fisher-Yates with splitmix64: the same order on every platform for the same seed.
void shuffle(std::vector<Opening>& openings, std::uint64_t seed) {
  std::uint64_t state = seed;
  for (std::size_t i = openings.size(); i > 1; --i) {
    const std::size_t j = static_cast<std::size_t>(splitmix64(state) % i);
    std::swap(openings[i - 1], openings[j]);
  }
}

// The first set's points in a game: it is White in game 0 and Black in game 1.
double first_points(const GameRecord& game, bool first_is_white) {
  switch (game.result) {
    case learn::Outcome::kWhiteWin:
      return first_is_white ? 1.0 : 0.0;
    case learn::Outcome::kBlackWin:
      return first_is_white ? 0.0 : 1.0;
    default:
      return 0.5;
  }
}

// Sets that share a name get "#2", "#3", ... so tables and PGN tags tell them apart.
void make_names_distinct(std::vector<ValueSet>& sets) {
  for (std::size_t i = 0; i < sets.size(); ++i) {
    int same = 1;
    for (std::size_t j = 0; j < i; ++j) {
      if (sets[j].name == sets[i].name || sets[j].name.rfind(sets[i].name + "#", 0) == 0) ++same;
    }
    if (same > 1) sets[i].name += "#" + std::to_string(same);
  }
}

}  // namespace

PairResult play_pair(const PairTask& task, const GameSettings& settings) {
  PairPlayer player(task, settings);
  while (!player.finished()) player.step();
  return player.result();
}

PairPlayer::PairPlayer(const PairTask& task, const GameSettings& settings) {
  players_[0] = std::make_unique<GamePlayer>(task.opening, task.first, task.second, settings);
  players_[1] = std::make_unique<GamePlayer>(task.opening, task.second, task.first, settings);
  if (players_[0]->finished()) game_index_ = 1;
  finished_ = players_[0]->finished() && players_[1]->finished();
}

void PairPlayer::step() {
  if (finished_) return;
  players_[game_index_]->step();
  if (players_[game_index_]->finished()) {
    if (game_index_ == 0) game_index_ = 1;
    finished_ = players_[0]->finished() && players_[1]->finished();
  }
}

PairResult PairPlayer::result() const {
  return {{players_[0]->record(), players_[1]->record()}};
}

Expected<Match> Match::create(MatchSettings settings, Book book) {
  if (settings.sets.size() < 2) {
    return make_error(ErrorCode::kInvalidArgument, "a match needs two value sets at least");
  }
  if (settings.pairs < 1) {
    return make_error(ErrorCode::kInvalidArgument, "a match needs one game pair at least");
  }
  if (settings.sprt) {
    if (settings.sets.size() != 2) {
      return make_error(ErrorCode::kInvalidArgument,
                        "an SPRT compares two sets: give one --vs, or leave the SPRT out");
    }
    if (auto error = validate_sprt(*settings.sprt)) return *error;
  }
  if (book.openings.empty()) return make_error(ErrorCode::kInvalidArgument, "the book is empty");
  Match match;
  make_names_distinct(settings.sets);
  match.settings_ = std::move(settings);
  match.openings_ = std::move(book.openings);
  shuffle(match.openings_, match.settings_.seed);
  const int count = static_cast<int>(match.settings_.sets.size());
  for (int first = 0; first < count; ++first) {
    for (int second = first + 1; second < count; ++second) {
      if (match.settings_.schedule == Schedule::kGauntlet && first != 0) continue;
      match.pairings_.push_back({first, second});
      match.stats_.push_back({{first, second}, {}, {}});
    }
  }
  match.task_count_ = match.pairings_.size() * static_cast<std::size_t>(match.settings_.pairs);
  return match;
}

PairTask Match::task(std::size_t index) const {
  PairTask task;
  task.index = index;
  task.pairing = static_cast<int>(index % pairings_.size());
  task.pair = static_cast<int>(index / pairings_.size());
  // Every pairing plays pair p from the same opening, so no pairing draws easier starts.
  task.opening = openings_[static_cast<std::size_t>(task.pair) % openings_.size()];
  task.first = settings_.sets[pairings_[task.pairing].first];
  task.second = settings_.sets[pairings_[task.pairing].second];
  return task;
}

std::optional<PairTask> Match::next_task() {
  if (finished() || next_ >= task_count_) return std::nullopt;
  return task(next_++);
}

bool Match::finished() const {
  if (sprt_result_ && sprt_result_->decision != SprtDecision::kContinue) return true;
  return committed_ >= task_count_;
}

void Match::record(std::size_t index, PairResult result) {
  if (finished() || index < committed_ || index >= task_count_) return;
  const std::size_t slot = index - committed_;
  if (pending_.size() <= slot) pending_.resize(slot + 1);
  pending_[slot] = std::move(result);
  // Take results in task order: the first missing one holds back those after it.
  while (!pending_.empty() && pending_.front() && !finished()) {
    PairResult next = std::move(*pending_.front());
    pending_.erase(pending_.begin());
    commit(std::move(next));
  }
  if (finished()) pending_.clear();
}

void Match::commit(PairResult result) {
  const std::size_t index = committed_++;
  PairingStats& stats = stats_[index % pairings_.size()];
  const double first = first_points(result.games[0], true);
  const double second = first_points(result.games[1], false);
  ++stats.pairs.counts[static_cast<std::size_t>(2 * (first + second))];
  for (const double points : {first, second}) {
    if (points == 1.0) {
      ++stats.games.wins;
    } else if (points == 0.0) {
      ++stats.games.losses;
    } else {
      ++stats.games.draws;
    }
  }
  for (const GameRecord& game : result.games) ++terminations_[static_cast<int>(game.termination)];
  committed_results_.push_back(std::move(result));
  if (settings_.sprt) {
    auto sprt = run_sprt(*settings_.sprt, stats.pairs);
    if (sprt) sprt_result_ = *sprt;
  }
}

std::optional<Estimate> pairing_estimate(const PairingStats& stats) {
  if (stats.pairs.pairs() == 0) return std::nullopt;
  auto estimate = estimate_pairs(stats.pairs, stats.games);
  if (!estimate) return std::nullopt;
  return *estimate;
}

Verdict pairing_verdict(const Match& match, const PairingStats& stats, bool cancelled) {
  VerdictInput input;
  input.estimate = pairing_estimate(stats);
  if (match.pairings().size() == 1) input.sprt = match.sprt();
  input.progress = match.finished() ? MatchProgress::kFinished
                   : cancelled      ? MatchProgress::kCancelled
                                    : MatchProgress::kPlaying;
  input.first = match.settings().sets[static_cast<std::size_t>(stats.pairing.first)].name;
  input.second = match.settings().sets[static_cast<std::size_t>(stats.pairing.second)].name;
  return match_verdict(input);
}

Expected<RatingTable> match_ratings(const Match& match) {
  std::vector<TableResult> results;
  for (const PairingStats& stats : match.stats()) {
    if (stats.games.games() == 0) continue;
    results.push_back(table_result(static_cast<std::size_t>(stats.pairing.first),
                                   static_cast<std::size_t>(stats.pairing.second), stats.games));
  }
  return rate_sets(match.settings().sets.size(), results);
}

}  // namespace materialist::play
