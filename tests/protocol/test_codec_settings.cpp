// The codec on settings: enum wire names, read options, fit settings, the share link's flat
// object, presets and the learn model options the fit settings map onto.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/json_value.h"
#include "protocol/codec.h"
#include "protocol/codec_samples.h"
#include "protocol/messages.h"

namespace materialist::protocol {

using namespace samples;  // full_*(), check_round_trip, decode_error

TEST_CASE("protocol enum wire names parse back and unknown names fail") {
  for (int i = 0; i <= static_cast<int>(DatasetMode::kPerFilter); ++i) {
    const auto value = static_cast<DatasetMode>(i);
    CHECK(parse_dataset_mode(wire_name(value)) == value);
  }
  for (int i = 0; i <= static_cast<int>(Units::kLogOdds); ++i) {
    const auto value = static_cast<Units>(i);
    CHECK(parse_units(wire_name(value)) == value);
  }
  for (int i = 0; i <= static_cast<int>(Phase::kError); ++i) {
    const auto value = static_cast<Phase>(i);
    CHECK(parse_phase(wire_name(value)) == value);
  }
  for (int i = 0; i <= static_cast<int>(learn::SolverKind::kNewton); ++i) {
    const auto value = static_cast<learn::SolverKind>(i);
    CHECK(parse_solver(wire_name(value)) == value);
  }
  for (int i = 0; i <= static_cast<int>(learn::DrawHandling::kHalfPoint); ++i) {
    const auto value = static_cast<learn::DrawHandling>(i);
    CHECK(parse_draws(wire_name(value)) == value);
  }
  for (int i = 0; i <= static_cast<int>(learn::UnknownResultPolicy::kTreatAsDraw); ++i) {
    const auto value = static_cast<learn::UnknownResultPolicy>(i);
    CHECK(parse_unknown(wire_name(value)) == value);
  }
  for (int i = 0; i <= static_cast<int>(learn::OutcomeModel::kOrdinal); ++i) {
    const auto value = static_cast<learn::OutcomeModel>(i);
    CHECK(parse_outcomes(wire_name(value)) == value);
  }
  // Today's wire names.
  CHECK(std::string(wire_name(DatasetMode::kPerFile)) == "per-file");
  CHECK(std::string(wire_name(Units::kLogOdds)) == "logodds");
  CHECK(std::string(wire_name(Phase::kFitting)) == "fitting");
  CHECK(std::string(wire_name(learn::SolverKind::kGradientDescent)) == "gd");
  CHECK(std::string(wire_name(learn::DrawHandling::kLeaveOut)) == "exclude");
  CHECK(std::string(wire_name(learn::DrawHandling::kHalfPoint)) == "half");
  CHECK(std::string(wire_name(learn::UnknownResultPolicy::kTreatAsDraw)) == "draw");
  CHECK(std::string(wire_name(learn::OutcomeModel::kDrawsOut)) == "draws-out");
  // Names are exact: no case folding, no other spellings.
  CHECK_FALSE(parse_dataset_mode("Merge"));
  CHECK_FALSE(parse_units("centipawn"));
  CHECK_FALSE(parse_phase(""));
  CHECK_FALSE(parse_solver("GD"));
  CHECK_FALSE(parse_draws("leave-out"));
  CHECK_FALSE(parse_unknown("as-draw"));
  CHECK_FALSE(parse_outcomes("binary"));
}

TEST_CASE("protocol read options compare every field and round trip") {
  const ReadOptions full = full_read_options();
  check_round_trip(full);
  CHECK(encode(full) ==
        R"({"unknown":"skip","filter":"elo=1500-;tc=blitz,rapid;exclude_termination=Time forfeit",)"
        R"("quiet":{"plies":3,"checksBreak":false,"distinct":false,"skipFirst":8},)"
        R"("bootstrap":200,"seed":42,"datasets":"per-filter","eachFilter":["tc=blitz","tc=rapid"],)"
        R"("maxGames":5000,"maxMegabytes":250.5,"target":"result",)"
        R"("keep":{"bishopPair":true,"phase":false,"sideToMove":true,"rating":true},)"
        R"("keepRows":true,"hashFiles":true})");
  CHECK(full == full_read_options());
  ReadOptions fewer = full_read_options();
  fewer.keep.rating = false;
  CHECK_FALSE(fewer == full);
  CHECK_FALSE(full == ReadOptions{});
  // Each quiet field on its own makes a difference.
  ReadOptions other = full;
  other.quiet.quiet_plies = 4;
  CHECK_FALSE(other == full);
  other = full;
  other.quiet.checks_break_quiet = true;
  CHECK_FALSE(other == full);
  other = full;
  other.quiet.distinct_per_game = true;
  CHECK_FALSE(other == full);
  other = full;
  other.quiet.skip_first_plies = 0;
  CHECK_FALSE(other == full);
  other = full;
  other.hash_files = false;
  CHECK_FALSE(other == full);
  other = full;
  other.target = learn::Target::kEval;
  CHECK_FALSE(other == full);
  check_round_trip(other);
}

TEST_CASE("protocol settings carry the target, and a share link with target=eval reads back") {
  Settings eval;
  eval.read.target = learn::Target::kEval;
  check_round_trip(eval);
  CHECK(encode(eval).find(R"("target":"eval")") != std::string::npos);
  const Expected<Settings> read = decode<Settings>(R"({"target":"eval"})");
  REQUIRE(read.ok());
  CHECK(read->read.target == learn::Target::kEval);
  CHECK_FALSE(decode<Settings>(R"({"target":"evaluation"})").ok());
  // The model the fit asks for takes the read's target.
  CHECK(eval.fit.model_options(eval.read.target).target == learn::Target::kEval);
  CHECK(eval.fit.model_options().target == learn::Target::kResult);
}

TEST_CASE("protocol fit settings round trip") {
  check_round_trip(full_fit_settings());
  check_round_trip(FitSettings{});
}

TEST_CASE("protocol settings are one flat share-link object") {
  check_round_trip(full_settings());
  CHECK(encode(Settings{}) ==
        R"({"preset":"article","solver":"gd","step":1,"iterations":10000,"lambda":1e-06,)"
        R"("draws":"exclude","unknown":"draw","model":{"outcomes":"draws-out","intercept":false,)"
        R"("bishopPair":false,"phase":false,"eloOffset":false},"units":"pawn","bootstrap":0,)"
        R"("seed":1,"filter":"","quiet":{"plies":2,"checksBreak":true,"distinct":true,)"
        R"("skipFirst":0},"datasets":"merge","eachFilter":[],"maxGames":0,"maxMegabytes":0,)"
        R"("target":"result"})");
  // The engine's switches are not settings: they are neither written nor read.
  Settings switches;
  switches.read.keep = learn::KeyFields::all();
  switches.read.keep_rows = true;
  switches.read.hash_files = true;
  CHECK(encode(switches) == encode(Settings{}));
  const Expected<Settings> ignored =
      decode<Settings>(R"({"keep":{"rating":true},"keepRows":true,"hashFiles":true})");
  REQUIRE(ignored.ok());
  CHECK(*ignored == Settings{});
  // The message nests the settings under their type.
  CHECK(message(Settings{}) == R"({"type":"settings","settings":)" + encode(Settings{}) + "}");
}

TEST_CASE("protocol share link of the e2e test decodes into the settings") {
  // tests/e2e/analysis.mjs, 'a share link restores the settings', as JSON.stringify writes it.
  const char* shared =
      R"({"preset":"custom","solver":"newton","step":1,"iterations":10000,"lambda":0.000001,)"
      R"("draws":"half","unknown":"skip","model":{"outcomes":"ordinal","intercept":true,)"
      R"("bishopPair":true,"phase":false,"eloOffset":false},"units":"elo","bootstrap":200,)"
      R"("seed":1,"filter":"elo=1500-;tc=blitz,rapid;exclude_termination=Time forfeit",)"
      R"("quiet":{"plies":3,"checksBreak":false,"distinct":true,"skipFirst":8},)"
      R"("datasets":"per-filter","eachFilter":["tc=blitz","tc=rapid"]})";
  Settings expected;
  expected.fit.preset = "custom";
  expected.fit.solver = learn::SolverKind::kNewton;
  expected.fit.step = 1;
  expected.fit.iterations = 10000;
  expected.fit.lambda = 1e-6;
  expected.fit.draws = learn::DrawHandling::kHalfPoint;
  expected.fit.model.outcomes = learn::OutcomeModel::kOrdinal;
  expected.fit.model.intercept = true;
  expected.fit.model.bishop_pair = true;
  expected.read.unknown = learn::UnknownResultPolicy::kSkip;
  expected.units = Units::kElo;
  expected.read.bootstrap = 200;
  expected.read.seed = 1;
  expected.read.filter = "elo=1500-;tc=blitz,rapid;exclude_termination=Time forfeit";
  expected.read.quiet.quiet_plies = 3;
  expected.read.quiet.checks_break_quiet = false;
  expected.read.quiet.distinct_per_game = true;
  expected.read.quiet.skip_first_plies = 8;
  expected.read.datasets = DatasetMode::kPerFilter;
  expected.read.each_filter = {"tc=blitz", "tc=rapid"};
  const Expected<Settings> settings = decode<Settings>(shared);
  REQUIRE_MESSAGE(settings.ok(), (settings.ok() ? "" : settings.error().message));
  CHECK(*settings == expected);
  // Written back, the model and quiet objects are the link's (no sideToMove while it is off),
  // so the e2e test's JSON.stringify comparisons hold.
  const Expected<JsonValue> again = parse_json(encode(*settings));
  const Expected<JsonValue> original = parse_json(shared);
  REQUIRE(again.ok());
  REQUIRE(original.ok());
  CHECK(*again->find("model") == *original->find("model"));
  CHECK(*again->find("quiet") == *original->find("quiet"));
  CHECK(*again->find("eachFilter") == *original->find("eachFilter"));
}

TEST_CASE("protocol presets are today's three with their labels") {
  const std::vector<Preset>& all = presets();
  REQUIRE(all.size() == 3);

  const Preset& article = all[0];
  CHECK(std::string(article.id) == "article");
  CHECK(std::string(article.label) == "Article (GD, α=1, 10 000 steps, draws out)");
  CHECK(article.fit.preset == "article");
  CHECK(article.fit.solver == learn::SolverKind::kGradientDescent);
  CHECK(article.fit.step == 1.0);
  CHECK(article.fit.iterations == 10000);
  CHECK(article.fit.lambda == 1e-6);
  CHECK(article.fit.draws == learn::DrawHandling::kLeaveOut);
  CHECK(article.fit.model == ModelChoice{});
  CHECK(article.unknown == learn::UnknownResultPolicy::kTreatAsDraw);
  CHECK(article.fit == FitSettings{});  // the defaults are the article

  const Preset& exact = all[1];
  CHECK(std::string(exact.id) == "exact");
  CHECK(std::string(exact.label) == "Exact (Newton, draws = ½ point)");
  CHECK(exact.fit.preset == "exact");
  CHECK(exact.fit.solver == learn::SolverKind::kNewton);
  CHECK(exact.fit.step == 1.0);
  CHECK(exact.fit.iterations == 10000);  // learn's table (unused by Newton)
  CHECK(exact.fit.lambda == 1e-6);
  CHECK(exact.fit.draws == learn::DrawHandling::kHalfPoint);
  CHECK(exact.unknown == learn::UnknownResultPolicy::kSkip);

  const Preset& custom = all[2];
  CHECK(std::string(custom.id) == "custom");
  CHECK(std::string(custom.label) == "Custom");
  CHECK(custom.fit.preset == "custom");
  CHECK(custom.fit.solver == learn::SolverKind::kGradientDescent);
  CHECK(custom.fit.step == 1.0);
  CHECK(custom.fit.iterations == 10000);
  CHECK(custom.fit.lambda == 1e-6);
  CHECK(custom.fit.draws == learn::DrawHandling::kLeaveOut);
  CHECK(custom.unknown == learn::UnknownResultPolicy::kSkip);

  CHECK(find_preset("exact") == &all[1]);
  CHECK(find_preset("Exact") == nullptr);
  CHECK(find_preset("default") == nullptr);
}

TEST_CASE("protocol settings naming a preset start from it") {
  const Expected<Settings> exact = decode<Settings>(R"({"preset":"exact"})");
  REQUIRE(exact.ok());
  CHECK(exact->fit == find_preset("exact")->fit);
  CHECK(exact->read.unknown == learn::UnknownResultPolicy::kSkip);
  // Present fields still win, and the model is not part of a preset.
  const Expected<Settings> changed = decode<Settings>(
      R"({"model":{"phase":true},"preset":"exact","iterations":20,"unknown":"draw"})");
  REQUIRE(changed.ok());
  CHECK(changed->fit.solver == learn::SolverKind::kNewton);
  CHECK(changed->fit.iterations == 20);
  CHECK(changed->fit.model.phase);
  CHECK(changed->read.unknown == learn::UnknownResultPolicy::kTreatAsDraw);
  // An unknown preset name is kept as text, with the defaults.
  const Expected<FitSettings> other = decode<FitSettings>(R"({"preset":"mine","step":0.5})");
  REQUIRE(other.ok());
  CHECK(other->preset == "mine");
  CHECK(other->step == 0.5);
  CHECK(other->solver == learn::SolverKind::kGradientDescent);
}

TEST_CASE("protocol fit settings map onto the learn model options") {
  FitSettings fit;
  learn::ModelOptions options = fit.model_options();
  CHECK(options.outcomes == learn::OutcomeModel::kDrawsOut);
  CHECK(options.lambda == 1e-6);
  CHECK_FALSE(options.intercept);

  // With draws-out, `draws` decides.
  fit.draws = learn::DrawHandling::kHalfPoint;
  CHECK(fit.model_options().outcomes == learn::OutcomeModel::kFractional);
  // Any other outcome model wins over `draws`.
  fit.model.outcomes = learn::OutcomeModel::kOrdinal;
  CHECK(fit.model_options().outcomes == learn::OutcomeModel::kOrdinal);
  fit.draws = learn::DrawHandling::kLeaveOut;
  fit.model.outcomes = learn::OutcomeModel::kFractional;
  CHECK(fit.model_options().outcomes == learn::OutcomeModel::kFractional);

  fit = full_fit_settings();
  options = fit.model_options();
  learn::ModelOptions expected;
  expected.outcomes = learn::OutcomeModel::kOrdinal;
  expected.intercept = true;
  expected.bishop_pair = true;
  expected.phase_tapered = true;
  expected.rating_offset = true;
  expected.side_to_move = true;
  expected.lambda = 1e-3;
  CHECK(options == expected);

  // Each switch lands on its own option.
  FitSettings one;
  one.model.elo_offset = true;
  CHECK(one.model_options().rating_offset);
  CHECK_FALSE(one.model_options().phase_tapered);
  one = FitSettings{};
  one.model.phase = true;
  CHECK(one.model_options().phase_tapered);
  CHECK_FALSE(one.model_options().rating_offset);
}

}  // namespace materialist::protocol
