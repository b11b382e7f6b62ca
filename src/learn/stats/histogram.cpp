#include "learn/stats/histogram.h"

#include <algorithm>

#include "core/hash.h"

namespace materialist::learn {

namespace {

// Bit layout of RowKey::pack, low to high: five 7-bit deltas (offset by 64), bishop pair + 1
// (2 bits), phase (5 bits), black to move (1), rating known (1), rating diff + 32768 (16).
constexpr int kDeltaBits = 7;
constexpr int kBishopPairShift = kPieceKinds * kDeltaBits;  // 35
constexpr int kPhaseShift = kBishopPairShift + 2;           // 37
constexpr int kSideShift = kPhaseShift + 5;                 // 42
constexpr int kRatingKnownShift = kSideShift + 1;           // 43
constexpr int kRatingShift = kRatingKnownShift + 1;         // 44

// With counts (bit 60 set): White's then Black's five counts (4 bits each, at most 15), the
// bishop pair kept (1), the phase kept (1), black to move (1), rating known (1), rating diff +
// 32768 (16). The deltas, the phase and the bishop pair follow from the counts.
constexpr int kCountBits = 4;
constexpr int kCountsEnd = 2 * kPieceKinds * kCountBits;  // 40
constexpr int kCountsBishopPairShift = kCountsEnd;
constexpr int kCountsPhaseShift = kCountsEnd + 1;
constexpr int kCountsSideShift = kCountsEnd + 2;
constexpr int kCountsRatingKnownShift = kCountsEnd + 3;
constexpr int kCountsRatingShift = kCountsEnd + 4;  // to bit 59
constexpr int kCountsFlagShift = 60;
constexpr int kCountsOppositeBishopsShift = 61;

constexpr std::uint64_t field(std::uint64_t packed, int shift, int bits) {
  return (packed >> shift) & ((std::uint64_t{1} << bits) - 1);
}

constexpr std::size_t kHistogramInitialCapacity = 1024;

}  // namespace

MaterialCounts RowKey::counts() const {
  MaterialCounts c;
  c.white = white_counts;
  c.opposite_bishops = opposite_bishops != 0;
  for (int i = 0; i < kPieceKinds; ++i) {
    c.black[i] = static_cast<std::uint8_t>(std::clamp(white_counts[i] - delta[i], 0, 15));
  }
  return c;
}

std::uint64_t RowKey::pack() const {
  std::uint64_t packed = 0;
  if (counts_known) {
    const MaterialCounts c = counts();
    for (int i = 0; i < kPieceKinds; ++i) {
      packed |= static_cast<std::uint64_t>(std::min<int>(c.white[i], 15)) << (i * kCountBits);
      packed |= static_cast<std::uint64_t>(c.black[i]) << ((kPieceKinds + i) * kCountBits);
    }
    packed |= static_cast<std::uint64_t>(bishop_pair != 0 ? 1 : 0) << kCountsBishopPairShift;
    packed |= static_cast<std::uint64_t>(phase != 0 ? 1 : 0) << kCountsPhaseShift;
    packed |= static_cast<std::uint64_t>(black_to_move ? 1 : 0) << kCountsSideShift;
    packed |= static_cast<std::uint64_t>(rating_known ? 1 : 0) << kCountsRatingKnownShift;
    packed |= static_cast<std::uint64_t>(rating_diff + 32768) << kCountsRatingShift;
    packed |= static_cast<std::uint64_t>(opposite_bishops ? 1 : 0) << kCountsOppositeBishopsShift;
    return packed | std::uint64_t{1} << kCountsFlagShift;
  }
  for (int i = 0; i < kPieceKinds; ++i) {
    const int d = std::clamp<int>(delta[i], -64, 63);
    packed |= static_cast<std::uint64_t>(d + 64) << (i * kDeltaBits);
  }
  packed |= static_cast<std::uint64_t>(std::clamp<int>(bishop_pair, -1, 1) + 1) << kBishopPairShift;
  packed |= static_cast<std::uint64_t>(std::min<int>(phase, kMaxPhase)) << kPhaseShift;
  packed |= static_cast<std::uint64_t>(black_to_move ? 1 : 0) << kSideShift;
  packed |= static_cast<std::uint64_t>(rating_known ? 1 : 0) << kRatingKnownShift;
  packed |= static_cast<std::uint64_t>(rating_diff + 32768) << kRatingShift;
  return packed;
}

RowKey RowKey::unpack(std::uint64_t packed) {
  RowKey key;
  if (field(packed, kCountsFlagShift, 1) != 0) {
    MaterialCounts c;
    for (int i = 0; i < kPieceKinds; ++i) {
      c.white[i] = static_cast<std::uint8_t>(field(packed, i * kCountBits, kCountBits));
      c.black[i] =
          static_cast<std::uint8_t>(field(packed, (kPieceKinds + i) * kCountBits, kCountBits));
    }
    key.counts_known = 1;
    key.white_counts = c.white;
    key.opposite_bishops = static_cast<std::uint8_t>(field(packed, kCountsOppositeBishopsShift, 1));
    key.delta = c.delta();
    if (field(packed, kCountsBishopPairShift, 1) != 0) {
      key.bishop_pair = static_cast<std::int8_t>(c.bishop_pair_delta());
    }
    if (field(packed, kCountsPhaseShift, 1) != 0) key.phase = static_cast<std::uint8_t>(c.phase());
    key.black_to_move = static_cast<std::uint8_t>(field(packed, kCountsSideShift, 1));
    key.rating_known = static_cast<std::uint8_t>(field(packed, kCountsRatingKnownShift, 1));
    key.rating_diff =
        static_cast<std::int16_t>(static_cast<int>(field(packed, kCountsRatingShift, 16)) - 32768);
    return key;
  }
  for (int i = 0; i < kPieceKinds; ++i) {
    key.delta[i] =
        static_cast<std::int8_t>(static_cast<int>(field(packed, i * kDeltaBits, 7)) - 64);
  }
  key.bishop_pair =
      static_cast<std::int8_t>(static_cast<int>(field(packed, kBishopPairShift, 2)) - 1);
  key.phase = static_cast<std::uint8_t>(field(packed, kPhaseShift, 5));
  key.black_to_move = static_cast<std::uint8_t>(field(packed, kSideShift, 1));
  key.rating_known = static_cast<std::uint8_t>(field(packed, kRatingKnownShift, 1));
  key.rating_diff =
      static_cast<std::int16_t>(static_cast<int>(field(packed, kRatingShift, 16)) - 32768);
  return key;
}

void Histogram::add(const RowKey& key, Outcome outcome, std::uint64_t count) {
  if (outcome == Outcome::kUnknown || count == 0) return;
  OutcomeCounts counts;
  counts.by_outcome[static_cast<int>(outcome)] = count;
  add(key, counts);
}

void Histogram::add(const RowKey& key, const OutcomeCounts& counts) {
  if (counts.total() == 0) return;
  slots_[slot_for(key.pack())].counts += counts;
  totals_ += counts;
}

void Histogram::add(const RowKey& key, const OutcomeCounts& counts, TargetSum target) {
  if (!targets_on_) enable_targets();
  if (counts.total() == 0) return;
  const std::size_t i = slot_for(key.pack());
  slots_[i].counts += counts;
  targets_[i] += target;
  totals_ += counts;
  target_total_ += target;
}

void Histogram::enable_targets() {
  if (targets_on_) return;
  targets_on_ = true;
  targets_.assign(slots_.size(), 0);
}

void Histogram::merge(const Histogram& other) {
  if (other.targets_on_) enable_targets();
  for (std::size_t j = 0; j < other.slots_.size(); ++j) {
    const Slot& slot = other.slots_[j];
    if (slot.key == kEmpty) continue;
    const std::size_t i = slot_for(slot.key);
    slots_[i].counts += slot.counts;
    if (other.targets_on_) targets_[i] += other.targets_[j];
  }
  totals_ += other.totals_;
  target_total_ += other.target_total_;
}

void Histogram::clear() {
  slots_.clear();
  size_ = 0;
  totals_ = OutcomeCounts{};
  targets_.clear();
  target_total_ = 0;
}

const OutcomeCounts* Histogram::find(const RowKey& key) const {
  if (slots_.empty()) return nullptr;
  const Slot& slot = slots_[probe(key.pack())];
  return slot.key == kEmpty ? nullptr : &slot.counts;
}

TargetSum Histogram::target_of(const RowKey& key) const {
  if (slots_.empty() || !targets_on_) return 0;
  const std::size_t i = probe(key.pack());
  return slots_[i].key == kEmpty ? 0 : targets_[i];
}

std::vector<HistogramEntry> Histogram::entries() const {
  std::vector<std::size_t> order;
  order.reserve(size_);
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    if (slots_[i].key != kEmpty) order.push_back(i);
  }
  std::sort(order.begin(), order.end(),
            [this](std::size_t a, std::size_t b) { return slots_[a].key < slots_[b].key; });
  std::vector<HistogramEntry> out;
  out.reserve(order.size());
  for (std::size_t i : order) {
    out.push_back({RowKey::unpack(slots_[i].key), slots_[i].counts, targets_on_ ? targets_[i] : 0});
  }
  return out;
}

bool operator==(const Histogram& a, const Histogram& b) {
  if (a.size_ != b.size_ || !(a.totals_ == b.totals_) || a.targets_on_ != b.targets_on_ ||
      a.target_total_ != b.target_total_) {
    return false;
  }
  for (std::size_t i = 0; i < a.slots_.size(); ++i) {
    const Histogram::Slot& slot = a.slots_[i];
    if (slot.key == Histogram::kEmpty) continue;
    if (b.slots_.empty()) return false;
    const std::size_t j = b.probe(slot.key);
    const Histogram::Slot& other = b.slots_[j];
    if (other.key == Histogram::kEmpty || !(other.counts == slot.counts)) return false;
    if (a.targets_on_ && a.targets_[i] != b.targets_[j]) return false;
  }
  return true;
}

std::size_t Histogram::probe(std::uint64_t packed) const {
  const std::size_t mask = slots_.size() - 1;
  std::size_t i = mix64(packed) & mask;
  while (slots_[i].key != kEmpty && slots_[i].key != packed) i = (i + 1) & mask;
  return i;
}

std::size_t Histogram::slot_for(std::uint64_t packed) {
  if (slots_.empty() || 2 * (size_ + 1) > slots_.size()) grow();
  const std::size_t i = probe(packed);
  Slot& slot = slots_[i];
  if (slot.key == kEmpty) {
    slot.key = packed;
    ++size_;
  }
  return i;
}

void Histogram::grow() {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(old.empty() ? kHistogramInitialCapacity : 2 * old.size(), Slot{});
  if (targets_on_) {
    std::vector<TargetSum> old_targets = std::move(targets_);
    targets_.assign(slots_.size(), 0);
    for (std::size_t j = 0; j < old.size(); ++j) {
      if (old[j].key == kEmpty) continue;
      const std::size_t i = probe(old[j].key);
      slots_[i] = old[j];
      targets_[i] = old_targets[j];
    }
    return;
  }
  for (const Slot& slot : old) {
    if (slot.key != kEmpty) slots_[probe(slot.key)] = slot;
  }
}

}  // namespace materialist::learn
