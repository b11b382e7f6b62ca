// A match of value sets: game pairs from a shuffled book (each opening played twice, colours
// reversed), as a gauntlet (the first set against each other) or a round robin (every set
// against every other), with the statistics engine testers use and an SPRT that ends a
// two-set match when it decides.
//
// The match is a list of pair tasks numbered in a fixed order; whoever plays them (one thread,
// -j N threads, Web Workers) hands each result back with record(). Results are taken in task
// order, so the games kept, the statistics and the SPRT's stopping point are the same whatever
// the number of players and whichever finishes first.
//
//   auto match = Match::create(settings, default_book());
//   while (auto task = match->next_task()) match->record(task->index, play_pair(*task,
//   settings.game));
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "play/book.h"
#include "play/game.h"
#include "play/match_stats.h"
#include "play/rating_table.h"
#include "play/value_set.h"
#include "play/verdict.h"

namespace materialist::play {

enum class Schedule : std::uint8_t { kGauntlet, kRoundRobin };

struct MatchSettings {
  std::vector<ValueSet> sets;  // a gauntlet's first set plays every other
  Schedule schedule = Schedule::kGauntlet;
  int pairs = 50;  // game pairs per pairing of two sets
  GameSettings game;
  std::uint64_t seed = 1;
  std::optional<SprtSettings> sprt;  // two sets only
};

struct Pairing {
  int first = 0;  // set indices; results are the first's
  int second = 0;
};

// One unit of work: two games from one opening, the first set White in the first game.
struct PairTask {
  std::size_t index = 0;  // in the match's fixed order
  int pairing = 0;
  int pair = 0;  // within its pairing, from 0
  Opening opening;
  ValueSet first;
  ValueSet second;
};

struct PairResult {
  GameRecord games[2];
};

// Plays a task's two games to their end (what a worker thread runs).
PairResult play_pair(const PairTask& task, const GameSettings& settings);

// Plays a task's games a move per step(), for a caller that must return between moves.
class PairPlayer {
 public:
  PairPlayer(const PairTask& task, const GameSettings& settings);
  bool finished() const { return finished_; }
  void step();
  // The game being played (0 or 1) and its board.
  int game_index() const { return game_index_; }
  const GamePlayer& current() const { return *players_[game_index_]; }
  PairResult result() const;

 private:
  std::unique_ptr<GamePlayer> players_[2];
  int game_index_ = 0;
  bool finished_ = false;
};

struct PairingStats {
  Pairing pairing;
  Pentanomial pairs;
  GameCounts games;  // the first set's wins, draws, losses
};

class Match {
 public:
  // Errors: fewer than two sets, pairs < 1, an SPRT with more than two sets or invalid bounds,
  // an empty book.
  static Expected<Match> create(MatchSettings settings, Book book);

  const MatchSettings& settings() const { return settings_; }
  const std::vector<Pairing>& pairings() const { return pairings_; }
  std::size_t task_count() const { return task_count_; }

  // The next task nobody has taken, or nullopt when all are taken or the match has ended.
  std::optional<PairTask> next_task();
  PairTask task(std::size_t index) const;
  // Takes a task's result; results after the SPRT's decision are ignored.
  void record(std::size_t index, PairResult result);

  // Every task's result taken, or the SPRT decided.
  bool finished() const;
  std::size_t pairs_done() const { return committed_; }
  std::size_t games_done() const { return 2 * committed_; }
  // The kept games in task order (pair by pair, the first set White first).
  const std::vector<PairResult>& results() const { return committed_results_; }
  const std::vector<PairingStats>& stats() const { return stats_; }
  const std::optional<SprtResult>& sprt() const { return sprt_result_; }
  // The game counts by termination, over the kept games.
  const std::array<std::uint64_t, kTerminations>& terminations() const { return terminations_; }

 private:
  Match() = default;
  void commit(PairResult result);

  MatchSettings settings_;
  std::vector<Opening> openings_;  // shuffled by the seed
  std::vector<Pairing> pairings_;
  std::size_t task_count_ = 0;
  std::size_t next_ = 0;
  std::size_t committed_ = 0;
  std::vector<std::optional<PairResult>> pending_;  // by index − committed_
  std::vector<PairResult> committed_results_;
  std::vector<PairingStats> stats_;
  std::optional<SprtResult> sprt_result_;
  std::array<std::uint64_t, kTerminations> terminations_{};
};

// The first set's estimate for one pairing; nullopt before any pair.
std::optional<Estimate> pairing_estimate(const PairingStats& stats);
// One pairing's verdict in words (verdict.h), with the SPRT in a two-set match: playing until
// the match is finished(), or `cancelled` (stopped before its end).
Verdict pairing_verdict(const Match& match, const PairingStats& stats, bool cancelled = false);
// Ratings of every set from all pairings, the mean at 0.
Expected<RatingTable> match_ratings(const Match& match);

}  // namespace materialist::play
