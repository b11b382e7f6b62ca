// The statistical constants every module shares, written once in full precision.
//
//   value ± kZ95 · se is a two-sided 95% interval;  Elo = kEloPerLogOdds · θ (natural log-odds)
#pragma once

namespace materialist {

// The two-sided 95% quantile of the standard normal distribution, Φ⁻¹(0.975).
inline constexpr double kZ95 = 1.959963984540054;
inline constexpr double kLn10 = 2.302585092994045684;
// Elo points per unit of natural log-odds: the logistic Elo curve is 1 / (1 + 10^(-Elo/400)).
inline constexpr double kEloPerLogOdds = 400.0 / kLn10;
// Log-odds per Elo point: a rating difference D enters the log-odds as D · ln10 / 400.
inline constexpr double kLogOddsPerElo = kLn10 / 400.0;

}  // namespace materialist
