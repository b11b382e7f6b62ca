// Decoding: absent fields keep their defaults, a wrong field is named by its path, and no
// damaged byte or truncation of a message passes unnoticed.
#include <doctest/doctest.h>

#include <string>
#include <string_view>

#include "core/json_value.h"
#include "protocol/codec.h"
#include "protocol/codec_samples.h"
#include "protocol/messages.h"

namespace materialist::protocol {

using namespace samples;  // full_*(), check_round_trip, decode_error

TEST_CASE("protocol decoding keeps defaults for absent fields") {
  CHECK(*decode<ReadOptions>("{}") == ReadOptions{});
  CHECK(*decode<FitSettings>("{}") == FitSettings{});
  CHECK(*decode<Settings>("{}") == Settings{});
  CHECK(*decode<Snapshot>("{}") == Snapshot{});
  CHECK(*decode<Progress>("{}") == Progress{});
  CHECK(*decode<DataReport>("{}") == DataReport{});
  CHECK(*decode<Fit>("{}") == Fit{});
  CHECK(*decode<Difference>("{}") == Difference{});
  CHECK(*decode<Balance>("{}") == Balance{});
  CHECK(*decode<FitBegin>("{}") == FitBegin{});
  CHECK(*decode<FitDone>("{}") == FitDone{});
  CHECK(*decode<Estimate>("{}") == Estimate{});

  // Partial objects: only the present fields change; unknown fields are ignored.
  const Expected<Settings> partial =
      decode<Settings>(R"({"units":"elo","quiet":{"plies":4},"model":{"bishopPair":true},)"
                       R"("future":{"x":[1]}})");
  REQUIRE(partial.ok());
  Settings expected;
  expected.units = Units::kElo;
  expected.read.quiet.quiet_plies = 4;
  expected.fit.model.bishop_pair = true;
  CHECK(*partial == expected);

  // An old progress message without partial / eta.
  const Expected<Progress> progress =
      decode<Progress>(R"({"type":"progress","bytes":5,"games":2})");
  REQUIRE(progress.ok());
  CHECK(progress->bytes == 5);
  CHECK(progress->games == 2);
  CHECK(progress->eta_s == -1);

  // read() leaves absent fields as they were.
  Progress kept = full_progress();
  CHECK_FALSE(read(*parse_json(R"({"games":3})"), kept));
  Progress expected_progress = full_progress();
  expected_progress.games = 3;
  CHECK(kept == expected_progress);
}

TEST_CASE("protocol decoding names the path of a wrong type or an unknown name") {
  CHECK(decode_error<Settings>(R"({"quiet":{"plies":"3"}})") ==
        "settings.quiet.plies: not a number");
  CHECK(decode_error<Settings>(R"({"solver":"sgd"})") == R"(settings.solver: unknown name "sgd")");
  CHECK(decode_error<Settings>(R"({"solver":1})") == "settings.solver: not a string");
  CHECK(decode_error<Settings>(R"({"model":{"outcomes":"binary"}})") ==
        R"(settings.model.outcomes: unknown name "binary")");
  CHECK(decode_error<Settings>(R"({"model":true})") == "settings.model: not an object");
  CHECK(decode_error<Settings>(R"({"eachFilter":"tc=blitz"})") ==
        "settings.eachFilter: not an array");
  CHECK(decode_error<Settings>(R"({"eachFilter":["a",2]})") ==
        "settings.eachFilter[1]: not a string");
  CHECK(decode_error<Settings>(R"({"iterations":10.5})") ==
        "settings.iterations: not an integer of 32 bits");
  CHECK(decode_error<Settings>(R"({"iterations":3e9})") ==
        "settings.iterations: not an integer of 32 bits");
  CHECK(decode_error<Settings>(R"({"seed":-1})") == "settings.seed: not a non-negative integer");
  CHECK(decode_error<Settings>(R"({"quiet":{"checksBreak":1}})") ==
        "settings.quiet.checksBreak: not a boolean");
  CHECK(decode_error<Settings>(R"({"units":null})") == "settings.units: not a string");
  CHECK(decode_error<Settings>("[]") == "settings: not an object");
  CHECK(decode_error<ReadOptions>(R"({"datasets":"per-game"})") ==
        R"(options.datasets: unknown name "per-game")");
  CHECK(decode_error<ReadOptions>(R"({"keepRows":"yes"})") == "options.keepRows: not a boolean");
  CHECK(decode_error<FitDone>(R"({"fits":[{},{"coefficients":[{},{"value":"1"}]}]})") ==
        "fit-done.fits[1].coefficients[1].value: not a number");
  CHECK(decode_error<FitDone>(R"({"snapshot":{"theta":[1,"x"]}})") ==
        "fit-done.snapshot.theta[1]: not a number");
  CHECK(decode_error<DataReport>(R"({"filteredBy":{"elo":-3}})") ==
        "report.filteredBy.elo: not a non-negative integer");
  CHECK(decode_error<DataReport>(R"({"filteredBy":[]})") == "report.filteredBy: not an object");
  CHECK(decode_error<DataReport>(R"({"skippedGames":[{"line":1.5}]})") ==
        "report.skippedGames[0].line: not a non-negative integer");
  CHECK(decode_error<Progress>(R"({"file":7})") == "progress.file: not a string");
  CHECK(decode_error<Fit>(R"({"balance":{"alpha":"x"}})") == "fit.balance.alpha: not a number");
  CHECK(decode_error<Difference>(R"({"bootstrapP":true})") ==
        "difference.bootstrapP: not a number");
  CHECK(decode_error<FitBegin>(R"({"solver":"bfgs"})") ==
        R"(fit-begin.solver: unknown name "bfgs")");
  CHECK(decode_error<Estimate>(R"({"fits":{}})") == "estimate.fits: not an array");
  CHECK(decode_error<Balance>(R"({"bins":[{"dm":0.5}]})") ==
        "balance.bins[0].dm: not an integer of 32 bits");
  CHECK(decode_error<Snapshot>(R"({"columns":[null]})") == "snapshot.columns[0]: not a string");
  // Text that is not JSON fails in the parser.
  CHECK(decode_error<Settings>("{") == "json: unexpected end of text at byte 1");
}

TEST_CASE("protocol decoding survives every damaged byte and truncation of a message") {
  const std::string text = message(full_estimate());
  int decoded = 0, refused = 0, silent = 0, cut_ok = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    for (const char c : {'"', '}', '0', '\\', '\x80'}) {
      std::string damaged = text;
      damaged[i] = c;
      const Expected<Estimate> out = decode<Estimate>(damaged);
      (out.ok() ? decoded : refused) += 1;
      if (!out.ok() && out.error().message.empty()) ++silent;
    }
    if (decode<Estimate>(std::string_view(text).substr(0, i)).ok()) ++cut_ok;
  }
  CHECK(decoded > 0);  // e.g. a digit changed inside a number
  CHECK(refused > 0);
  CHECK(silent == 0);  // every refusal says why
  CHECK(cut_ok == 0);  // no prefix is a whole message
}

}  // namespace materialist::protocol
