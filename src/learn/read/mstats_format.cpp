// The .mstats byte layout (docs/MSTATS.md): a header, a body of unsigned LEB128 integers and
// length-prefixed strings, and the SHA-256 of everything before it.
#include <algorithm>
#include <cstring>

#include "core/sha256.h"
#include "learn/read/mstats.h"
#include "learn/read/mstats_varint.h"

namespace materialist::learn {

namespace {

using detail::Reader;
using detail::Writer;

constexpr std::size_t kHeaderBytes = 8 + 4 + 8;  // magic, version, body length
constexpr std::size_t kDigestBytes = 32;

std::uint64_t fields_bits(const KeyFields& f) {
  return (f.bishop_pair ? 1u : 0u) | (f.phase ? 2u : 0u) | (f.side_to_move ? 4u : 0u) |
         (f.rating ? 8u : 0u) | (f.counts ? 16u : 0u);
}

KeyFields fields_of(std::uint64_t bits) {
  return KeyFields{(bits & 1) != 0, (bits & 2) != 0, (bits & 4) != 0, (bits & 8) != 0,
                   (bits & 16) != 0};
}

template <std::size_t N>
void write_array(Writer& w, const std::array<std::uint64_t, N>& values) {
  w.uint(N);
  for (std::uint64_t v : values) w.uint(v);
}

// Up to N values (a later version may count more reasons: refused, as its values would be lost).
template <std::size_t N>
void read_array(Reader& r, std::array<std::uint64_t, N>& values) {
  const std::uint64_t n = r.count();
  if (n > N) {
    r.fail("more reasons than this version knows");
    return;
  }
  for (std::uint64_t i = 0; i < n; ++i) values[i] = r.uint();
}

void write_report(Writer& w, const DatasetReport& report) {
  const IngestReport& g = report.games;
  for (std::uint64_t v :
       {g.bytes, g.games_read, g.games_used, g.games_partial, g.games_skipped, g.games_filtered}) {
    w.uint(v);
  }
  write_array(w, g.skipped_by_reason);
  write_array(w, g.partial_by_reason);
  w.uint(g.issue_count);
  w.uint(g.issues.size());
  for (const GameIssue& issue : g.issues) {
    w.uint(issue.game);
    w.uint(issue.line);
    w.uint(static_cast<std::uint64_t>(issue.status));
    w.uint(static_cast<std::uint64_t>(issue.reason));
    w.text(issue.detail);
    w.uint(issue.rows_kept);
  }
  write_array(w, g.filter_tally.counts);
  w.uint(g.rows);
  w.counts(g.rows_by_outcome);
  w.uint(g.plies_replayed);

  const MatReadReport& m = report.mat;
  for (std::uint64_t v : {m.bytes, m.lines, m.rows, m.bad_lines}) w.uint(v);
  w.uint(m.first_bad_lines.size());
  for (const MatBadLine& bad : m.first_bad_lines) {
    w.uint(bad.line);
    w.text(bad.reason);
  }

  w.uint(report.files.size());
  for (const FileReport& file : report.files) {
    w.text(file.name);
    w.uint(static_cast<std::uint64_t>(file.kind));
    for (std::uint64_t v : {file.bytes, file.games, file.rows, file.bad_lines}) w.uint(v);
    w.text(file.error);
  }
  w.uint(report.bytes);
  w.uint(report.rows);
  w.uint(report.stopped_at_limit ? 1 : 0);
}

void read_report(Reader& r, DatasetReport& report) {
  IngestReport& g = report.games;
  for (std::uint64_t* v : {&g.bytes, &g.games_read, &g.games_used, &g.games_partial,
                           &g.games_skipped, &g.games_filtered}) {
    *v = r.uint();
  }
  read_array(r, g.skipped_by_reason);
  read_array(r, g.partial_by_reason);
  g.issue_count = r.uint();
  const std::uint64_t issues = r.count(6);
  for (std::uint64_t i = 0; i < issues; ++i) {
    GameIssue& issue = g.issues.emplace_back();
    issue.game = r.uint();
    issue.line = r.uint();
    issue.status = static_cast<GameStatus>(r.below(4, "game status"));
    issue.reason = static_cast<IssueReason>(r.below(kIssueReasonCount, "issue reason"));
    issue.detail = r.text();
    issue.rows_kept = static_cast<std::uint32_t>(r.uint());
  }
  read_array(r, g.filter_tally.counts);
  g.rows = r.uint();
  g.rows_by_outcome = r.counts();
  g.plies_replayed = r.uint();

  MatReadReport& m = report.mat;
  for (std::uint64_t* v : {&m.bytes, &m.lines, &m.rows, &m.bad_lines}) *v = r.uint();
  const std::uint64_t bad_lines = r.count(2);
  for (std::uint64_t i = 0; i < bad_lines; ++i) {
    MatBadLine& bad = m.first_bad_lines.emplace_back();
    bad.line = r.uint();
    bad.reason = r.text();
  }

  const std::uint64_t files = r.count(7);
  for (std::uint64_t i = 0; i < files; ++i) {
    FileReport& file = report.files.emplace_back();
    file.name = r.text();
    file.kind = static_cast<FileKind>(r.below(2, "file kind"));
    for (std::uint64_t* v : {&file.bytes, &file.games, &file.rows, &file.bad_lines}) *v = r.uint();
    file.error = r.text();
  }
  report.bytes = r.uint();
  report.rows = r.uint();
  report.stopped_at_limit = r.flag();
}

void write_histogram(Writer& w, const Histogram& histogram, bool eval) {
  const std::vector<HistogramEntry> entries = histogram.entries();  // sorted: canonical bytes
  w.uint(entries.size());
  for (const HistogramEntry& e : entries) {
    w.uint(e.key.pack());
    w.counts(e.counts);
    if (eval) w.wide(e.target);
  }
}

void read_histogram(Reader& r, Histogram& histogram, bool eval) {
  if (eval) histogram.enable_targets();
  const std::uint64_t n = r.count(eval ? 6 : 4);
  for (std::uint64_t i = 0; i < n && r.error().empty(); ++i) {
    const std::uint64_t packed = r.uint();
    const OutcomeCounts counts = r.counts();
    const TargetSum target = eval ? r.wide() : 0;
    if (packed >> kPackedKeyBits) {
      r.fail("a histogram key out of range");
      return;
    }
    if (eval && target > static_cast<TargetSum>(counts.total()) * kTargetOne) {
      r.fail("a histogram key's targets above its rows");
      return;
    }
    if (eval) {
      histogram.add(RowKey::unpack(packed), counts, target);
    } else {
      histogram.add(RowKey::unpack(packed), counts);
    }
  }
}

void write_moments(Writer& w, const PairMoments& m) {
  w.wide(m.qq);
  for (TargetSum v : m.qn) w.wide(v);
  for (TargetSum v : m.nq) w.wide(v);
}

PairMoments read_moments(Reader& r) {
  PairMoments m;
  m.qq = r.wide();
  for (TargetSum& v : m.qn) v = r.wide();
  for (TargetSum& v : m.nq) v = r.wide();
  return m;
}

void write_pairs(Writer& w, const GamePairs& pairs, bool eval) {
  w.uint(fields_bits(pairs.fields()));
  w.uint(pairs.games());
  w.counts(pairs.games_by_outcome());
  w.counts(pairs.rated_games_by_outcome());
  w.uint(pairs.distinct());
  pairs.for_each_moments_sorted([&](std::uint64_t a, std::uint64_t b, const OutcomeCounts& counts,
                                    const PairMoments& moments) {
    w.uint(a);
    w.uint(b);
    w.counts(counts);
    if (eval) write_moments(w, moments);
  });
}

GamePairs read_pairs(Reader& r, bool eval) {
  GamePairs pairs(fields_of(r.below(32, "key fields")));
  if (eval) pairs.enable_targets();
  const std::uint64_t games = r.uint();
  const OutcomeCounts by_outcome = r.counts();
  const OutcomeCounts rated = r.counts();
  if (by_outcome.total() > games) r.fail("game pairs with more games by outcome than games");
  pairs.add_games(by_outcome, rated);
  pairs.add_games(games - std::min(games, by_outcome.total()));
  const std::uint64_t n = r.count(eval ? 19 : 5);
  for (std::uint64_t i = 0; i < n && r.error().empty(); ++i) {
    const std::uint64_t a = r.uint();
    const std::uint64_t b = r.uint();
    const OutcomeCounts counts = r.counts();
    const PairMoments moments = eval ? read_moments(r) : PairMoments{};
    if ((a >> kPackedKeyBits) || (b >> kPackedKeyBits) || a > b) {
      r.fail("a game pair out of range");
      break;
    }
    if (eval) {
      pairs.add(a, b, counts, moments);
    } else {
      pairs.add(a, b, counts);
    }
  }
  return pairs;
}

void write_bootstrap(Writer& w, const BootstrapHistograms* bootstrap, bool eval) {
  w.uint(bootstrap ? 1 : 0);
  if (!bootstrap) return;
  w.uint(static_cast<std::uint64_t>(bootstrap->replicate_count()));
  w.uint(bootstrap->seed());
  w.uint(fields_bits(bootstrap->fields()));
  w.uint(bootstrap->saturated() ? 1 : 0);
  std::vector<std::size_t> order(bootstrap->distinct());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [bootstrap](std::size_t a, std::size_t b) {
    return bootstrap->key_at(a) < bootstrap->key_at(b);
  });
  w.uint(order.size());
  for (std::size_t i : order) {
    w.uint(bootstrap->key_at(i));
    for (std::uint64_t c : bootstrap->counts_at(i)) w.uint(c);
    if (eval) {
      for (TargetSum t : bootstrap->targets_at(i)) w.wide(t);
    }
  }
}

std::unique_ptr<BootstrapHistograms> read_bootstrap(Reader& r, bool eval) {
  if (!r.flag()) return nullptr;
  const std::uint64_t replicates = r.uint();
  if (replicates == 0 || replicates > 1'000'000) {
    r.fail("a bad bootstrap replicate count");
    return nullptr;
  }
  const std::uint64_t seed = r.uint();
  const KeyFields fields = fields_of(r.below(32, "key fields"));
  auto bootstrap =
      std::make_unique<BootstrapHistograms>(static_cast<int>(replicates), seed, fields);
  if (r.flag()) bootstrap->mark_saturated();
  if (eval) bootstrap->enable_targets();
  const std::size_t stride = static_cast<std::size_t>(replicates) * kOutcomeCount;
  const std::uint64_t n = r.count(1 + stride + (eval ? 2 * replicates : 0));
  std::vector<std::uint64_t> counts(stride);
  std::vector<TargetSum> targets(eval ? replicates : 0);
  for (std::uint64_t i = 0; i < n && r.error().empty(); ++i) {
    const std::uint64_t packed = r.uint();
    for (std::uint64_t& c : counts) c = r.uint();
    for (TargetSum& t : targets) t = r.wide();
    if (packed >> kPackedKeyBits) {
      r.fail("a bootstrap key out of range");
      break;
    }
    bootstrap->add_counts(packed, counts);
    if (eval) bootstrap->add_targets(packed, targets);
  }
  return bootstrap;
}

// The evaluation target's counts (version 2), after the report.
void write_eval_counts(Writer& w, const IngestReport& g) {
  for (std::uint64_t v :
       {g.rows_without_eval, g.games_with_evals, g.games_without_evals, g.malformed_evals}) {
    w.uint(v);
  }
}

void read_eval_counts(Reader& r, IngestReport& g) {
  for (std::uint64_t* v :
       {&g.rows_without_eval, &g.games_with_evals, &g.games_without_evals, &g.malformed_evals}) {
    *v = r.uint();
  }
}

void write_entry(Writer& w, const StatsEntry& e, bool eval) {
  w.text(e.name);
  w.uint(e.file_index);
  w.uint(e.size);
  w.text(e.sha256);
  w.uint(e.is_range ? 1 : 0);
  for (std::uint64_t v : {e.start, e.end, e.lines}) w.uint(v);
  w.uint(e.stands_alone ? 1 : 0);
  w.uint(e.sniffed_bytes);
  w.uint(e.sniffed_binary);
  write_report(w, e.stats.report);
  if (eval) write_eval_counts(w, e.stats.report.games);
  write_histogram(w, e.stats.histogram, eval);
  write_pairs(w, e.stats.pairs, eval);
  write_bootstrap(w, e.stats.bootstrap.get(), eval);
}

void read_entry(Reader& r, StatsEntry& e, bool eval) {
  e.name = r.text();
  e.file_index = r.uint();
  e.size = r.uint();
  e.sha256 = r.text();
  e.is_range = r.flag();
  for (std::uint64_t* v : {&e.start, &e.end, &e.lines}) *v = r.uint();
  e.stands_alone = r.flag();
  e.sniffed_bytes = r.uint();
  e.sniffed_binary = r.uint();
  if (e.start > e.end || e.end > e.size) r.fail("a range outside its file");
  read_report(r, e.stats.report);
  if (eval) read_eval_counts(r, e.stats.report.games);
  read_histogram(r, e.stats.histogram, eval);
  e.stats.pairs = read_pairs(r, eval);
  e.stats.bootstrap = read_bootstrap(r, eval);
}

std::uint64_t fixed_at(std::string_view bytes, std::size_t at, int size) {
  std::uint64_t value = 0;
  for (int i = 0; i < size; ++i) {
    value |= static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[at + i])) << (8 * i);
  }
  return value;
}

Error corrupt(const std::string& why) {
  return make_error(ErrorCode::kSyntax, why);
}

}  // namespace

std::string encode_stats(const StatsFile& stats) {
  Writer body;
  body.uint(stats.settings.size());
  for (const auto& [name, value] : stats.settings) {
    body.text(name);
    body.text(value);
  }
  const bool eval = target_of(stats.settings) == Target::kEval;
  body.uint(stats.entries.size());
  for (const StatsEntry& entry : stats.entries) write_entry(body, entry, eval);

  Writer file;
  file.raw(kStatsMagic.data(), kStatsMagic.size());
  file.fixed(eval ? kStatsEvalVersion : kStatsVersion, 4);
  file.fixed(body.bytes().size(), 8);
  file.raw(body.bytes().data(), body.bytes().size());
  Sha256 hash;
  hash.update(file.bytes().data(), file.bytes().size());
  const std::array<std::uint8_t, 32> digest = hash.digest();
  file.raw(digest.data(), digest.size());
  return std::move(file.bytes());
}

Expected<StatsFile> decode_stats(std::string_view bytes) {
  if (bytes.size() < kStatsMagic.size() || bytes.substr(0, kStatsMagic.size()) != kStatsMagic) {
    return corrupt("not a statistics file (it does not begin with MSTATS)");
  }
  if (bytes.size() < kHeaderBytes) return corrupt("truncated: the file ends inside its header");
  const std::uint64_t version = fixed_at(bytes, 8, 4);
  if (version != kStatsVersion && version != kStatsEvalVersion) {
    return corrupt("statistics format version " + std::to_string(version) +
                   ", this materialist reads versions " + std::to_string(kStatsVersion) + " and " +
                   std::to_string(kStatsEvalVersion));
  }
  const std::uint64_t body_size = fixed_at(bytes, 12, 8);
  const std::uint64_t expected = kHeaderBytes + body_size + kDigestBytes;
  if (body_size > bytes.size() || bytes.size() < expected) {
    return corrupt("truncated: " + std::to_string(bytes.size()) + " bytes of the " +
                   std::to_string(kHeaderBytes + body_size + kDigestBytes) +
                   " its header announces");
  }
  if (bytes.size() > expected) {
    return corrupt(std::to_string(bytes.size() - expected) + " bytes after the checksum");
  }
  Sha256 hash;
  hash.update(bytes.data(), kHeaderBytes + body_size);
  const std::array<std::uint8_t, 32> digest = hash.digest();
  if (std::memcmp(digest.data(), bytes.data() + kHeaderBytes + body_size, kDigestBytes) != 0) {
    return corrupt("corrupt: the checksum does not match the contents");
  }

  Reader r(bytes.substr(kHeaderBytes, body_size));
  StatsFile stats;
  const std::uint64_t settings = r.count(2);
  for (std::uint64_t i = 0; i < settings; ++i) {
    std::string name = r.text();
    stats.settings.emplace_back(std::move(name), r.text());
  }
  const bool eval = target_of(stats.settings) == Target::kEval;
  if (eval != (version == kStatsEvalVersion)) {
    r.fail(eval ? "the evaluation target's statistics in a version 1 file"
                : "version 2 statistics without the evaluation target");
  }
  const std::uint64_t entries = r.count(16);
  for (std::uint64_t i = 0; i < entries && r.error().empty(); ++i) {
    read_entry(r, stats.entries.emplace_back(), eval);
  }
  if (r.error().empty() && !r.at_end()) r.fail("bytes left after the last entry");
  if (!r.error().empty()) return corrupt("a bad body: " + r.error());
  return stats;
}

}  // namespace materialist::learn
