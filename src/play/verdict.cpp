#include "play/verdict.h"

#include <cmath>
#include <cstdio>

#include "core/enum_names.h"

namespace materialist::play {

namespace {

static_assert(kVerdictKindNames.size() == 8);

std::string format(const char* pattern, double value) {
  char text[64];
  std::snprintf(text, sizeof text, pattern, value);
  return text;
}

std::string games_text(std::uint64_t games) {
  return std::to_string(games) + (games == 1 ? " game" : " games");
}

// "+10 nElo than +0" and the SPRT's figures: "LLR 1.23, bounds (-2.94, 2.94)".
std::string sprt_figures(const SprtResult& sprt, std::uint64_t games) {
  return "LLR " + format("%.2f", sprt.llr) + " between " + format("%.2f", sprt.lower) + " and " +
         format("%.2f", sprt.upper) + " after " + games_text(games);
}

std::string sprt_claim(const SprtResult& sprt, const VerdictInput& input, bool h1) {
  const char* unit = sprt.settings.logistic ? " Elo" : " nElo";
  const double nearer = h1 ? sprt.settings.elo1 : sprt.settings.elo0;
  const double farther = h1 ? sprt.settings.elo0 : sprt.settings.elo1;
  return input.first + " against " + input.second + " is nearer " + format("%+g", nearer) + unit +
         " than " + format("%+g", farther) + unit + " (LLR " + format("%.2f", sprt.llr) + ")";
}

Verdict sprt_verdict(const SprtResult& sprt, const VerdictInput& input) {
  const std::uint64_t games = input.estimate ? input.estimate->game_count : 0;
  switch (sprt.decision) {
    case SprtDecision::kH1:
      return {VerdictKind::kH1, "H1 accepted: " + sprt_claim(sprt, input, true)};
    case SprtDecision::kH0:
      return {VerdictKind::kH0, "H0 accepted: " + sprt_claim(sprt, input, false)};
    case SprtDecision::kContinue:
      break;
  }
  switch (input.progress) {
    case MatchProgress::kPlaying:
      return {VerdictKind::kContinue, "SPRT continuing: " + sprt_figures(sprt, games)};
    case MatchProgress::kFinished:
      return {VerdictKind::kInconclusive,
              "stopped at the limit, inconclusive: " + sprt_figures(sprt, games)};
    case MatchProgress::kCancelled:
      break;
  }
  return {VerdictKind::kInconclusive,
          "cancelled before the SPRT decided, inconclusive: " + sprt_figures(sprt, games)};
}

}  // namespace

Verdict match_verdict(const VerdictInput& input) {
  if (input.sprt) return sprt_verdict(*input.sprt, input);
  const std::uint64_t games = input.estimate ? input.estimate->game_count : 0;
  const bool playing = input.progress == MatchProgress::kPlaying;
  const Estimate* e = input.estimate ? &*input.estimate : nullptr;
  if (e == nullptr || games < kVerdictMinGames || !std::isfinite(e->elo) ||
      !std::isfinite(e->elo_error95) || !(e->elo_error95 > 0) || !std::isfinite(e->los)) {
    return {VerdictKind::kTooFewGames,
            playing ? "too few games yet (" + std::to_string(games) + " so far)"
                    : "too few games to tell (" + std::to_string(games) + " played)"};
  }
  const std::string figures =
      "Elo " + elo_interval_text(e->elo, e->elo_error95) + " in " + games_text(games);
  // LOS = Φ((score − ½) / se): above Φ(z95) exactly when the two-sided interval leaves out ½.
  if (e->los > 0.975) {
    return {VerdictKind::kBetter,
            input.first + " plays better than " + input.second + " (95%): " + figures};
  }
  if (e->los < 0.025) {
    return {VerdictKind::kWorse,
            input.first + " plays worse than " + input.second + " (95%): " + figures};
  }
  // The half width goes as 1/√n: half of it takes 4n, 3n more than played.
  const bool paired = e->pair_count > 0;
  const std::uint64_t more = 3 * (paired ? e->pair_count : games);
  return {VerdictKind::kNoDifference,
          "no difference found in " + games_text(games) + " (the interval is ±" +
              format("%.1f", e->elo_error95) + " Elo; about " + std::to_string(more) + " more " +
              (paired ? (more == 1 ? "pair" : "pairs") : (more == 1 ? "game" : "games")) +
              " would halve it)"};
}

void write_verdict_field(JsonWriter& json, const Verdict& verdict) {
  json.key("verdict")
      .begin_object()
      .field("kind", name_of(kVerdictKindNames, verdict.kind))
      .field("text", verdict.text)
      .end_object();
}

std::string elo_interval_text(double elo, double error95) {
  if (std::isnan(elo)) return "n/a";
  if (std::isinf(elo)) {
    return std::string(elo > 0 ? "every game won" : "every game lost") +
           " (early: no interval yet)";
  }
  const std::string value = format("%+.1f", elo);
  if (!std::isfinite(error95)) return value + " (early: no interval yet)";
  return value + " ± " + format("%.1f", error95);
}

}  // namespace materialist::play
