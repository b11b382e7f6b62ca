// The JSON keys of a fit, spelled once: the CLI's --json (cli/fit_json.cpp) and the page's
// protocol (protocol/codec_results.cpp, web/PROTOCOL.md) write a fit, its coefficients, its
// split-sides rows, its relations and its warnings under these names, each writer in its own
// order. A key only one of them writes (the CLI's "pValue", the protocol's "p") is its own.
#pragma once

#include <string_view>

namespace materialist::learn::fit_key {

// A fit.
inline constexpr std::string_view kConverged = "converged";
inline constexpr std::string_view kWarnings = "warnings";
inline constexpr std::string_view kErrors = "errors";  // the standard errors' kind
inline constexpr std::string_view kLoss = "loss";
inline constexpr std::string_view kIterations = "iterations";
inline constexpr std::string_view kCoefficients = "coefficients";
inline constexpr std::string_view kSides = "sides";
inline constexpr std::string_view kRelations = "relations";

// A warning.
inline constexpr std::string_view kCode = "code";
inline constexpr std::string_view kMessage = "message";

// A coefficient: θ, its Elo and its value (pawn = 100), each with its (clustered or robust)
// error and, for θ and the value, the model's.
inline constexpr std::string_view kName = "name";
inline constexpr std::string_view kIdentified = "identified";
inline constexpr std::string_view kTheta = "theta";
inline constexpr std::string_view kThetaSe = "thetaSe";
inline constexpr std::string_view kThetaSeModel = "thetaSeModel";
inline constexpr std::string_view kElo = "elo";
inline constexpr std::string_view kEloSe = "eloSe";
inline constexpr std::string_view kValue = "value";
inline constexpr std::string_view kValueSe = "valueSe";
inline constexpr std::string_view kValueSeModel = "valueSeModel";

// A split-sides row: a piece's own and opponent's value and θ, and their difference.
inline constexpr std::string_view kPiece = "piece";
inline constexpr std::string_view kOwn = "own";
inline constexpr std::string_view kOwnSe = "ownSe";
inline constexpr std::string_view kOpponent = "opponent";
inline constexpr std::string_view kOpponentSe = "opponentSe";
inline constexpr std::string_view kDifference = "difference";
inline constexpr std::string_view kDifferenceSe = "differenceSe";
inline constexpr std::string_view kOwnTheta = "ownTheta";
inline constexpr std::string_view kOwnThetaSe = "ownThetaSe";
inline constexpr std::string_view kOpponentTheta = "opponentTheta";
inline constexpr std::string_view kOpponentThetaSe = "opponentThetaSe";
inline constexpr std::string_view kDifferenceTheta = "differenceTheta";
inline constexpr std::string_view kDifferenceThetaSe = "differenceThetaSe";

// A relation between piece values (Capablanca's).
inline constexpr std::string_view kRelation = "relation";

}  // namespace materialist::learn::fit_key
