#include "worker/export_values.h"

#include <cmath>
#include <cstdio>

#include "learn/fit/uncertainty.h"

namespace materialist::worker::detail {

// A coefficient as shown: the draw margin gets its value in pawn units too (c / θ_pawn · 100,
// the material that moves a game from the draw band), which describe_coefficients leaves NaN.
learn::Coefficient shown(const learn::ModelFit& fit, std::size_t index) {
  learn::Coefficient c = fit.coefficients[index];
  const int pawn = fit.spec.pawn_column();
  if (c.name == "draw-margin" && pawn >= 0 && std::isnan(c.value.value)) {
    const std::vector<double> parameters = fit.parameters();
    c.value = learn::ratio_estimate(parameters, fit.covariance, static_cast<int>(index), pawn);
    c.model_value_se =
        learn::ratio_estimate(parameters, fit.model_covariance, static_cast<int>(index), pawn).se;
    c.reference = pawn;
  }
  return c;
}

std::string format(const char* pattern, double value) {
  char text[64];
  std::snprintf(text, sizeof text, pattern, value);
  return text;
}

// A coefficient's value in the chosen unit (pawn = 100, Elo or log-odds).
double value_in(const learn::Coefficient& c, protocol::Units units) {
  return units == protocol::Units::kElo       ? c.elo.value
         : units == protocol::Units::kLogOdds ? c.theta.value
                                              : c.value.value;
}
double se_in(const learn::Coefficient& c, protocol::Units units) {
  return units == protocol::Units::kElo       ? c.elo.se
         : units == protocol::Units::kLogOdds ? c.theta.se
                                              : c.value.se;
}
// A value as the status line and the C++ header write it: whole centipawns or Elo, log-odds to
// three decimals.
std::string unit_number(double value, protocol::Units units) {
  return units == protocol::Units::kLogOdds ? format("%.3f", value) : format("%.0f", value);
}

}  // namespace materialist::worker::detail
