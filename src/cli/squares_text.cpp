// The squares model's text tables (learn/fit/squares_report.h has its JSON and exports).
#include "cli/squares_text.h"

#include <string>

namespace materialist::cli {

using learn::kBoardPieceNames;
using learn::kBoardPieceTypes;
using learn::SquaresUnit;

void print_squares_text(std::FILE* out, const learn::SquaresFit& fit,
                        const learn::SquaresData& data, const SquaresUnit& unit,
                        const learn::SquaresOptions& options) {
  std::fprintf(out, "\nValues by square (%s, White's view; tapered by phase)\n",
               learn::unit_title(unit));
  std::fprintf(out, "  positions: %llu kept of %llu%s; %llu training, %llu held out (%llu games)\n",
               static_cast<unsigned long long>(data.rows().size()),
               static_cast<unsigned long long>(data.positions_offered()),
               data.sampled() ? " (a uniform sample: the cap was reached)" : "",
               static_cast<unsigned long long>(fit.training_positions),
               static_cast<unsigned long long>(fit.validation_positions),
               static_cast<unsigned long long>(data.held_out_games()));
  std::fprintf(out, "  held-out log-loss: %.5f (material only: %.5f, %+.5f); penalty lambda %g\n",
               fit.validation_log_loss, fit.material_log_loss,
               fit.validation_log_loss - fit.material_log_loss, fit.lambda);
  std::fprintf(out, "  in brackets: fewer than %llu training positions, not a finding\n",
               static_cast<unsigned long long>(options.min_positions));
  const bool decimals = unit.name == "logodds";
  for (int type = 0; type < kBoardPieceTypes; ++type) {
    std::fprintf(out, "\n  %s%s\n",
                 std::string(kBoardPieceNames[static_cast<std::size_t>(type)]).c_str(),
                 type < learn::kPieceKinds ? "" : " (centred: its mean is not identified)");
    std::fprintf(out, "     middlegame%*s endgame\n", 8 * 7 - 2, "");
    for (int rank = 7; rank >= 0; --rank) {
      std::fprintf(out, "  %d ", rank + 1);
      for (int phase = 0; phase < 2; ++phase) {
        for (int file = 0; file < 8; ++file) {
          const int square = rank * 8 + file;
          const double value = learn::in_unit(fit.theta, unit, phase, type, square);
          char cell[32];
          std::snprintf(cell, sizeof cell, decimals ? "%.2f" : "%.0f", value);
          if (learn::sparse(fit, options, type, square)) {
            std::fprintf(out, "%7s", ("(" + std::string(cell) + ")").c_str());
          } else {
            std::fprintf(out, "%7s", cell);
          }
        }
        std::fprintf(out, phase == 0 ? "  " : "\n");
      }
    }
    std::fprintf(out, "    ");
    for (int phase = 0; phase < 2; ++phase) {
      for (int file = 0; file < 8; ++file) std::fprintf(out, "%7c", 'a' + file);
      std::fprintf(out, "  ");
    }
    std::fprintf(out, "\n");
  }
}

}  // namespace materialist::cli
