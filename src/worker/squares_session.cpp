#include "worker/squares_session.h"

#include <chrono>

#include "core/json.h"
#include "learn/fit/squares_report.h"
#include "protocol/codec.h"

namespace materialist::worker {

learn::SquaresOptions squares_data_options(learn::Target target) {
  learn::SquaresOptions options;
  options.target = target;
  options.outcomes = learn::OutcomeModel::kFractional;
  return options;
}

std::string SquaresSession::fit(const Dataset* data, const protocol::FitSettings& settings) {
  fit_.reset();
  JsonWriter json;
  json.begin_object().field("type", "squares");
  if (data == nullptr || !data->squares) {
    json.key("squares").null();
    json.key("squaresError").begin_object();
    json.field("code", "no-boards")
        .field("message", data != nullptr && !data->stats_source.empty()
                              ? "statistics files keep counts, not boards: values by square "
                                "are fitted from games"
                              : "the last read kept no boards: read the games again")
        .end_object();
    json.end_object();
    return json.str();
  }
  const learn::Target target = data->options.target;
  options_ = squares_data_options(target);
  options_.outcomes = settings.model_options(target).outcomes;
  const auto start = std::chrono::steady_clock::now();
  Expected<learn::SquaresFit> fitted = learn::fit_squares(*data->squares, options_);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // In log-odds: the app shows them in its unit (the material-only model's pawn = 100).
  learn::write_squares_result_json(json, *data->squares, fitted, "logodds", options_);
  json.field("target", learn::target_name(target)).field("seconds", seconds);
  json.end_object();
  if (fitted) fit_ = std::move(*fitted);
  return json.str();
}

std::string SquaresSession::fit_live(const learn::SquaresData& data, learn::Target target,
                                     const protocol::FitSettings& settings) {
  learn::SquaresOptions options = squares_data_options(target);
  options.outcomes = settings.model_options(target).outcomes;
  options.lambdas = {kLivePenalty};
  const auto start = std::chrono::steady_clock::now();
  Expected<learn::SquaresFit> fitted = learn::fit_squares(data, options);
  if (!fitted) return {};
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  JsonWriter json;
  json.begin_object().field("type", "squares").field("live", true);
  learn::write_squares_result_json(json, data, fitted, "logodds", options);
  json.field("target", learn::target_name(target)).field("seconds", seconds);
  json.end_object();
  return json.str();
}

std::string SquaresSession::export_text(const std::string& name, protocol::Units units) const {
  if (!fit_) return {};
  return learn::squares_export_text(
      name, *fit_, learn::squares_unit(protocol::wire_name(units), *fit_), options_);
}

std::string SquaresSession::positions(const Dataset* data) {
  if (data == nullptr || !data->squares) return {};
  return learn::squares_positions_epd(*data->squares, data->options.target,
                                      learn::PositionSplit::kAll);
}

}  // namespace materialist::worker
