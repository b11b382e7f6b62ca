#include "learn/stats/game_pairs.h"

#include <algorithm>
#include <utility>

#include "core/hash.h"
#include "learn/vocabulary/model_options.h"

namespace materialist::learn {
namespace {

constexpr std::size_t kPairsInitialCapacity = 256;

constexpr std::uint64_t pair_hash(std::uint64_t a, std::uint64_t b) {
  return mix64(a * 0x9E3779B97F4A7C15ULL ^ mix64(b));
}

}  // namespace

// ---- PairMoments ----

PairMoments& PairMoments::operator+=(const PairMoments& other) {
  qq += other.qq;
  for (int o = 0; o < kOutcomeCount; ++o) {
    qn[o] += other.qn[o];
    nq[o] += other.nq[o];
  }
  return *this;
}

PairMoments& PairMoments::operator-=(const PairMoments& other) {
  qq -= other.qq;
  for (int o = 0; o < kOutcomeCount; ++o) {
    qn[o] -= other.qn[o];
    nq[o] -= other.nq[o];
  }
  return *this;
}

bool PairMoments::empty() const {
  return *this == PairMoments{};
}

// ---- GamePairs ----

GamePairs::GamePairs(KeyFields fields) : fields_(fields) {}

std::size_t GamePairs::distinct() const {
  return size_;
}

std::uint64_t GamePairs::clusters(const ModelOptions& model) const {
  // The evaluation target: every game's rows are in the likelihood.
  const bool decisive_only =
      model.outcomes == OutcomeModel::kDrawsOut && model.target == Target::kResult;
  const OutcomeCounts& by_outcome = model.rating_offset ? rated_games_ : games_by_outcome_;
  // Games added by count alone (add_games(n)) have no outcome: then every game is counted.
  if (games_by_outcome_.total() != games_) return games_;
  return decisive_only ? by_outcome[Outcome::kWhiteWin] + by_outcome[Outcome::kBlackWin]
                       : by_outcome.total();
}

void GamePairs::enable_targets() {
  if (targets_on_) return;
  targets_on_ = true;
  moments_.assign(slots_.size(), PairMoments{});
}

// The evaluation target's game: one outcome, each row with its target. Pairs of distinct keys
// (a ≤ b) get n_a·n_b by outcome and the moments.
void GamePairs::add_game_targets(const std::vector<Row>& rows) {
  target_scratch_.clear();
  Outcome outcome = Outcome::kUnknown;
  bool rated = false;
  for (const Row& row : rows) {
    if (row.outcome == Outcome::kUnknown || row.target == kNoTarget) continue;
    outcome = row.outcome;
    rated = rated || row.key.rating_known != 0;
    target_scratch_.emplace_back(fields_.project(row.key).pack(), row.target);
  }
  if (target_scratch_.empty()) return;
  std::sort(target_scratch_.begin(), target_scratch_.end());
  ++games_;
  OutcomeCounts one;
  const auto index = static_cast<int>(outcome);
  one.by_outcome[index] = 1;
  games_by_outcome_ += one;
  if (rated) rated_games_ += one;
  // Distinct keys: n (in distinct_scratch_) and Q (in scratch_).
  std::vector<std::pair<std::uint64_t, std::uint64_t>>& keys = distinct_scratch_;
  keys.clear();
  scratch_.clear();
  for (const auto& [key, target] : target_scratch_) {
    if (!keys.empty() && keys.back().first == key) {
      ++keys.back().second;
      scratch_.back() += target;
    } else {
      keys.emplace_back(key, 1);
      scratch_.push_back(target);
    }
  }
  for (std::size_t i = 0; i < keys.size(); ++i) {
    for (std::size_t j = i; j < keys.size(); ++j) {
      const std::size_t slot = index_for(keys[i].first, keys[j].first);
      slots_[slot].counts.by_outcome[index] += keys[i].second * keys[j].second;
      PairMoments& m = moments_[slot];
      m.qq += static_cast<TargetSum>(scratch_[i]) * scratch_[j];
      m.qn[index] += static_cast<TargetSum>(scratch_[i]) * keys[j].second;
      m.nq[index] += static_cast<TargetSum>(keys[i].second) * scratch_[j];
    }
  }
}

void GamePairs::add_game(const std::vector<Row>& rows) {
  if (targets_on_) {
    add_game_targets(rows);
    return;
  }
  // (outcome, projected key) sorted, so equal keys of one outcome are adjacent.
  scratch_.clear();
  bool rated = false;
  for (const Row& row : rows) {
    if (row.outcome == Outcome::kUnknown) continue;
    rated = rated || row.key.rating_known != 0;
    scratch_.push_back((static_cast<std::uint64_t>(row.outcome) << 62) |
                       fields_.project(row.key).pack());
  }
  if (scratch_.empty()) return;
  std::sort(scratch_.begin(), scratch_.end());
  const auto outcome = static_cast<Outcome>(scratch_.front() >> 62);
  ++games_;
  OutcomeCounts one;
  one.by_outcome[static_cast<int>(outcome)] = 1;
  games_by_outcome_ += one;
  if (rated) rated_games_ += one;

  // Distinct keys with their multiplicities, per outcome (one outcome in any real game).
  std::vector<std::pair<std::uint64_t, std::uint64_t>>& keys = distinct_scratch_;
  std::size_t begin = 0;
  while (begin < scratch_.size()) {
    const std::uint64_t outcome_bits = scratch_[begin] >> 62;
    std::size_t end = begin;
    keys.clear();
    while (end < scratch_.size() && (scratch_[end] >> 62) == outcome_bits) {
      const std::uint64_t key = scratch_[end] & ((std::uint64_t{1} << 62) - 1);
      if (!keys.empty() && keys.back().first == key) {
        ++keys.back().second;
      } else {
        keys.emplace_back(key, 1);
      }
      ++end;
    }
    const auto index = static_cast<int>(outcome_bits);
    // The table is larger than the caches: every slot of the game's pairs is fetched first, so
    // that their misses overlap instead of following one another.
    const std::size_t pairs = keys.size() * (keys.size() + 1) / 2;
    while (slots_.empty() || 2 * (size_ + pairs) > slots_.size()) grow();
    hash_scratch_.clear();
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = 0; i < keys.size(); ++i) {
      for (std::size_t j = i; j < keys.size(); ++j) {
        const std::uint64_t hash = pair_hash(keys[i].first, keys[j].first);
        __builtin_prefetch(&slots_[hash & mask]);
        hash_scratch_.push_back(hash);
      }
    }
    const std::uint64_t* hash = hash_scratch_.data();
    for (std::size_t i = 0; i < keys.size(); ++i) {
      for (std::size_t j = i; j < keys.size(); ++j) {
        // keys sorted: a ≤ b; no grow() in between, so the fetched slots are the probes' starts
        const std::uint64_t a = keys[i].first, b = keys[j].first;
        claim(probe_from(*hash++ & mask, a, b), a, b).by_outcome[index] +=
            keys[i].second * keys[j].second;
      }
    }
    begin = end;
  }
}

void GamePairs::add(std::uint64_t packed_a, std::uint64_t packed_b, const OutcomeCounts& counts) {
  if (counts.total() == 0) return;
  if (packed_b < packed_a) std::swap(packed_a, packed_b);
  slot_for(packed_a, packed_b) += counts;
}

void GamePairs::add(std::uint64_t packed_a, std::uint64_t packed_b, const OutcomeCounts& counts,
                    const PairMoments& moments) {
  enable_targets();
  if (counts.total() == 0) return;
  PairMoments m = moments;
  if (packed_b < packed_a) {  // (b, a): the mixed moments swap
    std::swap(packed_a, packed_b);
    std::swap(m.qn, m.nq);
  }
  const std::size_t slot = index_for(packed_a, packed_b);
  slots_[slot].counts += counts;
  moments_[slot] += m;
}

std::size_t GamePairs::index_for(std::uint64_t a, std::uint64_t b) {
  if (slots_.empty() || 2 * (size_ + 1) > slots_.size()) grow();
  const std::size_t i = probe(a, b);
  claim(i, a, b);
  return i;
}

void GamePairs::add_games(const OutcomeCounts& games, const OutcomeCounts& rated_games) {
  games_ += games.total();
  games_by_outcome_ += games;
  rated_games_ += rated_games;
}

void GamePairs::merge(const GamePairs& other) {
  if (other.targets_on_ || targets_on_) {
    enable_targets();
    other.for_each_moments([&](std::uint64_t a, std::uint64_t b, const OutcomeCounts& counts,
                               const PairMoments& moments) {
      add(fields_.project(RowKey::unpack(a)).pack(), fields_.project(RowKey::unpack(b)).pack(),
          counts, moments);
    });
    if (!(other.fields_ == fields_)) {
      // Project our own pairs too (rare: different fields with the evaluation target).
      const KeyFields common = KeyFields::intersection(fields_, other.fields_);
      if (!(common == fields_)) {
        GamePairs mine(common);
        mine.enable_targets();
        for_each_moments([&](std::uint64_t a, std::uint64_t b, const OutcomeCounts& counts,
                             const PairMoments& moments) {
          mine.add(common.project(RowKey::unpack(a)).pack(),
                   common.project(RowKey::unpack(b)).pack(), counts, moments);
        });
        slots_ = std::move(mine.slots_);
        moments_ = std::move(mine.moments_);
        size_ = mine.size_;
        fields_ = common;
      }
    }
    games_ += other.games_;
    games_by_outcome_ += other.games_by_outcome_;
    rated_games_ += other.rated_games_;
    return;
  }
  if (!(other.fields_ == fields_)) {
    // Keep what both kept: our own pairs are projected again first.
    const KeyFields common = KeyFields::intersection(fields_, other.fields_);
    if (!(common == fields_)) {
      GamePairs mine(common);
      for_each([&](std::uint64_t a, std::uint64_t b, const OutcomeCounts& counts) {
        mine.add(common.project(RowKey::unpack(a)).pack(), common.project(RowKey::unpack(b)).pack(),
                 counts);
      });
      slots_ = std::move(mine.slots_);
      size_ = mine.size_;
      fields_ = common;
    }
    other.for_each([&](std::uint64_t a, std::uint64_t b, const OutcomeCounts& counts) {
      add(fields_.project(RowKey::unpack(a)).pack(), fields_.project(RowKey::unpack(b)).pack(),
          counts);
    });
  } else {
    other.for_each(
        [&](std::uint64_t a, std::uint64_t b, const OutcomeCounts& counts) { add(a, b, counts); });
  }
  games_ += other.games_;
  games_by_outcome_ += other.games_by_outcome_;
  rated_games_ += other.rated_games_;
}

std::size_t GamePairs::probe(std::uint64_t a, std::uint64_t b) const {
  return probe_from(pair_hash(a, b) & (slots_.size() - 1), a, b);
}

std::size_t GamePairs::probe_from(std::size_t start, std::uint64_t a, std::uint64_t b) const {
  const std::size_t mask = slots_.size() - 1;
  std::size_t i = start;
  while (slots_[i].a != kEmpty && (slots_[i].a != a || slots_[i].b != b)) i = (i + 1) & mask;
  return i;
}

OutcomeCounts& GamePairs::slot_for(std::uint64_t a, std::uint64_t b) {
  if (slots_.empty() || 2 * (size_ + 1) > slots_.size()) grow();
  return claim(probe(a, b), a, b);
}

OutcomeCounts& GamePairs::claim(std::size_t i, std::uint64_t a, std::uint64_t b) {
  Slot& slot = slots_[i];
  if (slot.a == kEmpty) {
    slot.a = a;
    slot.b = b;
    ++size_;
  }
  return slot.counts;
}

void GamePairs::grow() {
  rehash(slots_.empty() ? kPairsInitialCapacity : 2 * slots_.size());
}

void GamePairs::rehash(std::size_t capacity) {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(capacity, Slot{});
  if (targets_on_) {
    std::vector<PairMoments> old_moments = std::move(moments_);
    moments_.assign(capacity, PairMoments{});
    for (std::size_t j = 0; j < old.size(); ++j) {
      if (old[j].a == kEmpty) continue;
      const std::size_t i = probe(old[j].a, old[j].b);
      slots_[i] = old[j];
      moments_[i] = old_moments[j];
    }
    return;
  }
  for (const Slot& slot : old) {
    if (slot.a != kEmpty) slots_[probe(slot.a, slot.b)] = slot;
  }
}

void GamePairs::subtract(const GamePairs& other) {
  if (!(other.fields_ == fields_)) {  // projected as merge() would have added it
    GamePairs projected(fields_);
    projected.merge(other);
    subtract(projected);
    return;
  }
  if (other.targets_on_) enable_targets();
  other.for_each_moments([&](std::uint64_t a, std::uint64_t b, const OutcomeCounts& counts,
                             const PairMoments& moments) {
    const std::size_t slot = index_for(a, b);
    OutcomeCounts& mine = slots_[slot].counts;
    for (int i = 0; i < kOutcomeCount; ++i) mine.by_outcome[i] -= counts.by_outcome[i];
    if (targets_on_) moments_[slot] -= moments;
  });
  games_ -= other.games_;
  for (int i = 0; i < kOutcomeCount; ++i) {
    games_by_outcome_.by_outcome[i] -= other.games_by_outcome_.by_outcome[i];
    rated_games_.by_outcome[i] -= other.rated_games_.by_outcome[i];
  }
  // add() keeps no pair without a count: the emptied ones go, and the table is hashed again
  // (linear probing cannot simply clear a slot).
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    Slot& slot = slots_[i];
    if (slot.a != kEmpty && slot.counts.total() == 0) {
      slot = Slot{};
      if (targets_on_) moments_[i] = PairMoments{};
      --size_;
    }
  }
  std::size_t capacity = kPairsInitialCapacity;
  while (capacity < 2 * (size_ + 1)) capacity *= 2;
  rehash(capacity);
}

std::vector<std::size_t> GamePairs::sorted_slots() const {
  std::vector<std::size_t> order;
  order.reserve(size_);
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    if (slots_[i].a != kEmpty) order.push_back(i);
  }
  std::sort(order.begin(), order.end(), [this](std::size_t x, std::size_t y) {
    const Slot& p = slots_[x];
    const Slot& q = slots_[y];
    return p.a != q.a ? p.a < q.a : p.b < q.b;
  });
  return order;
}

bool operator==(const GamePairs& x, const GamePairs& y) {
  if (!(x.fields_ == y.fields_) || x.games_ != y.games_ || x.size_ != y.size_ ||
      x.targets_on_ != y.targets_on_ || !(x.games_by_outcome_ == y.games_by_outcome_) ||
      !(x.rated_games_ == y.rated_games_)) {
    return false;
  }
  for (std::size_t i = 0; i < x.slots_.size(); ++i) {
    const GamePairs::Slot& slot = x.slots_[i];
    if (slot.a == GamePairs::kEmpty) continue;
    if (y.slots_.empty()) return false;
    const std::size_t j = y.probe(slot.a, slot.b);
    const GamePairs::Slot& other = y.slots_[j];
    if (other.a == GamePairs::kEmpty || !(other.counts == slot.counts)) return false;
    if (x.targets_on_ && !(x.moments_[i] == y.moments_[j])) return false;
  }
  return true;
}

}  // namespace materialist::learn
