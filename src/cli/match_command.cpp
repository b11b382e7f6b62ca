#include "cli/match_command.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <thread>

#include "cli/cli_threads.h"
#include "cli/commands.h"
#include "cli/play_options.h"
#include "core/json.h"
#include "play/game_pgn.h"
#include "play/match_report.h"

namespace materialist::cli {

namespace {

int fail(std::FILE* err, const std::string& message, int status = kExitBadOptions) {
  std::fprintf(err, "materialist %s\n", message.c_str());
  return status;
}

std::string progress_line(const play::Match& match) {
  char line[256];
  const play::PairingStats& first = match.stats().front();
  std::string text =
      "pairs " + std::to_string(match.pairs_done()) + "/" + std::to_string(match.task_count());
  if (match.pairings().size() == 1) {
    if (const auto estimate = play::pairing_estimate(first)) {
      std::snprintf(line, sizeof line, "  W/D/L %llu/%llu/%llu  Elo ",
                    static_cast<unsigned long long>(first.games.wins),
                    static_cast<unsigned long long>(first.games.draws),
                    static_cast<unsigned long long>(first.games.losses));
      text += line + play::elo_interval_text(estimate->elo, estimate->elo_error95);
    }
    if (const auto& sprt = match.sprt()) {
      std::snprintf(line, sizeof line, "  LLR %.2f (%.2f, %.2f)", sprt->llr, sprt->lower,
                    sprt->upper);
      text += line;
    }
  }
  return text;
}

Expected<std::vector<play::ValueSet>> load_sets(const PlayOptions& options) {
  if (options.values.empty()) {
    return make_error(ErrorCode::kInvalidArgument,
                      "match needs --values P,N,B,R,Q (the set under test) and one --vs or more");
  }
  if (options.opponents.empty()) {
    return make_error(ErrorCode::kInvalidArgument,
                      "match needs an opponent: --vs P,N,B,R,Q (for example --vs classic)");
  }
  std::vector<play::ValueSet> sets;
  for (const std::string& text : options.values) {
    auto set = load_value_set(text);
    if (!set) return make_error(set.error().code, "--values: " + set.error().message);
    sets.push_back(*set);
  }
  for (const std::string& text : options.opponents) {
    auto set = load_value_set(text);
    if (!set) return make_error(set.error().code, "--vs: " + set.error().message);
    sets.push_back(*set);
  }
  return sets;
}

void write_match_text(std::FILE* out, const play::Match& match, std::size_t book_size,
                      const std::string& book_source) {
  const play::MatchSettings& settings = match.settings();
  for (const play::ValueSet& set : settings.sets) {
    std::fprintf(out, "  %-16s %s\n", set.name.c_str(), set.values_text().c_str());
  }
  std::fprintf(out, "%s, %d pairs a pairing, %s%s, seed %llu, %zu openings (%s)\n\n",
               settings.schedule == play::Schedule::kRoundRobin ? "Round robin" : "Gauntlet",
               settings.pairs, limits_text(settings.game.limits).c_str(),
               settings.game.evaluation.material_only ? ", material only" : "",
               static_cast<unsigned long long>(settings.seed), book_size, book_source.c_str());
  if (match.pairings().size() == 1) {
    const play::PairingStats& stats = match.stats().front();
    std::fprintf(out, "%s vs %s\n", settings.sets[0].name.c_str(), settings.sets[1].name.c_str());
    if (const auto estimate = play::pairing_estimate(stats)) {
      std::fputs(play::format_estimate_text(*estimate, match.sprt()).c_str(), out);
    }
    std::fprintf(out, "Verdict: %s\n", play::pairing_verdict(match, stats).text.c_str());
  } else {
    for (const play::PairingStats& stats : match.stats()) {
      const auto estimate = play::pairing_estimate(stats);
      if (!estimate) continue;
      std::fprintf(out, "%-16s vs %-16s  W/D/L %llu/%llu/%llu  score %.1f%%  Elo %s\n",
                   settings.sets[stats.pairing.first].name.c_str(),
                   settings.sets[stats.pairing.second].name.c_str(),
                   static_cast<unsigned long long>(stats.games.wins),
                   static_cast<unsigned long long>(stats.games.draws),
                   static_cast<unsigned long long>(stats.games.losses), 100 * estimate->score,
                   play::elo_interval_text(estimate->elo, estimate->elo_error95).c_str());
      std::fprintf(out, "  verdict: %s\n", play::pairing_verdict(match, stats).text.c_str());
    }
    if (auto table = play::match_ratings(match)) {
      std::fputs("\nRatings (logistic Elo, mean 0, 95% errors):\n", out);
      for (std::size_t set = 0; set < table->sets.size(); ++set) {
        const play::SetRating& rating = table->sets[set];
        std::fprintf(out, "  %-16s %+7.1f +/- %5.1f   %.1f/%llu (%.1f%%)\n",
                     settings.sets[set].name.c_str(), rating.rating, rating.error95, rating.points,
                     static_cast<unsigned long long>(rating.games), 100 * rating.score);
      }
      if (table->regularized) {
        std::fputs(
            "  (a set won or lost every game: one virtual draw per pairing keeps the "
            "ratings finite)\n",
            out);
      }
    }
  }
  std::fputs("Ends:", out);
  bool first = true;
  for (int reason = 0; reason < play::kTerminations; ++reason) {
    if (match.terminations()[reason] == 0) continue;
    std::fprintf(out, "%s %s %llu", first ? "" : ",", play::kTerminationNames[reason],
                 static_cast<unsigned long long>(match.terminations()[reason]));
    first = false;
  }
  std::fputs("\n", out);
}

}  // namespace

void play_match(play::Match& match, int threads, const std::function<void()>& on_pair) {
  std::mutex lock;
  auto worker = [&] {
    while (true) {
      std::optional<play::PairTask> task;
      {
        const std::lock_guard<std::mutex> guard(lock);
        task = match.next_task();
      }
      if (!task) return;
      play::PairResult result = play::play_pair(*task, match.settings().game);
      const std::lock_guard<std::mutex> guard(lock);
      match.record(task->index, std::move(result));
      on_pair();
    }
  };
  if (!kThreadsAvailable || threads <= 1) {
    worker();
    return;
  }
  std::vector<std::thread> pool;
  for (int i = 0; i < threads; ++i) pool.emplace_back(worker);
  for (std::thread& thread : pool) thread.join();
}

int run_match(const std::vector<std::string>& args, std::FILE* out, std::FILE* err) {
  auto options = parse_play_options(args);
  if (!options) return fail(err, "match: " + options.error().message);
  if (!options->files.empty())
    return fail(err, "match: unexpected argument '" + options->files[0] + "'");
  auto sets = load_sets(*options);
  if (!sets) return fail(err, "match: " + sets.error().message);
  auto book = load_book(*options);
  if (!book) return fail(err, "match: " + book.error().message);
  const std::size_t book_size = book->openings.size();
  const std::string book_source =
      options->book_file.empty() ? play::kDefaultBookSource : options->book_file;
  play::MatchSettings settings;
  settings.sets = std::move(*sets);
  settings.schedule =
      options->round_robin ? play::Schedule::kRoundRobin : play::Schedule::kGauntlet;
  settings.pairs = options->pairs;
  settings.game = options->game;
  settings.seed = options->seed;
  settings.sprt = options->sprt;
  auto match = play::Match::create(std::move(settings), std::move(*book));
  if (!match) return fail(err, "match: " + match.error().message);

  const int threads = play_threads(options->jobs);
  if (options->progress) {
    std::fprintf(err, "match: %zu sets, %zu pairings x %d pairs, %s, %zu openings, %d thread%s\n",
                 match->settings().sets.size(), match->pairings().size(), options->pairs,
                 limits_text(options->game.limits).c_str(), book_size, threads,
                 threads == 1 ? "" : "s");
  }
  const auto start = std::chrono::steady_clock::now();
  play_match(*match, threads, [&] {
    if (options->progress) std::fprintf(err, "\r%s   ", progress_line(*match).c_str());
  });
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (options->progress) std::fputs("\n", err);

  if (!options->pgn_out.empty()) {
    std::FILE* pgn = std::fopen(options->pgn_out.c_str(), "wb");
    if (pgn == nullptr)
      return fail(err, "match: cannot write '" + options->pgn_out + "'", kExitNoResult);
    const std::string text = play::match_pgn(*match);
    const bool written = std::fwrite(text.data(), 1, text.size(), pgn) == text.size();
    if (std::fclose(pgn) != 0 || !written) {
      return fail(err, "match: cannot write '" + options->pgn_out + "'", kExitNoResult);
    }
  }
  if (options->json) {
    std::fprintf(out, "%s\n", play::match_json(*match, book_size, book_source, seconds).c_str());
  } else {
    write_match_text(out, *match, book_size, book_source);
  }
  return kExitOk;
}

}  // namespace materialist::cli
