// The page's values by square (learn/fit/squares.h): the current data's kept positions fitted
// after the material fit when the model asks for it, the last fit kept for the downloads.
//
//   if (settings.model.squares) post(squares.fit(engine_data, settings));  //
//   {"type":"squares",...} squares.export_text("materialist-squares.csv", units); // CSV, C++
//   header, JSON squares.positions(engine_data);                                        // labelled
//   EPD lines
#pragma once

#include <optional>
#include <string>

#include "learn/fit/squares.h"
#include "protocol/messages.h"
#include "worker/engine_dataset.h"

namespace materialist::worker {

// How a read keeps its positions for the squares model: draws as ½ (a fit with draws left out
// skips them), the default cap.
learn::SquaresOptions squares_data_options(learn::Target target);

class SquaresSession {
 public:
  // Fits the data's kept positions with the settings' draws (a "squares" message: the data's
  // counts, the tables in log-odds, or squaresError saying why there is none). `data` may be
  // null or keep no boards: the message says so.
  std::string fit(const Dataset* data, const protocol::FitSettings& settings);
  // A live preview while the games stream in: `data` (a sample of what was read so far) fitted
  // at one penalty, kLivePenalty (no path: a seventh of the fit's time), a "squares" message
  // with "live": true; "" while there are too few positions. Kept for nothing: the downloads
  // wait for the fit.
  static constexpr double kLivePenalty = 16;
  std::string fit_live(const learn::SquaresData& data, learn::Target target,
                       const protocol::FitSettings& settings);
  // The last fit in `units` as the file name asks (.csv, .h, else JSON); "" without a fit.
  std::string export_text(const std::string& name, protocol::Units units) const;
  // The data's kept positions as labelled EPD lines; "" when it keeps none.
  static std::string positions(const Dataset* data);
  void clear() { fit_.reset(); }

 private:
  std::optional<learn::SquaresFit> fit_;
  learn::SquaresOptions options_;
};

}  // namespace materialist::worker
