// --lichess / --chesscom without a network: the options, lichess's export address, chess.com's
// archive list and what an HTTP answer means (the stand-in tests: tests/services).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "cli/http_input.h"
#include "cli/options.h"
#include "cli/player_input.h"

namespace materialist::cli {
namespace {

CliOptions parsed(const std::vector<std::string>& args) {
  auto options = parse_options(args);
  REQUIRE(options);
  return *options;
}

TEST_CASE("player input: the options, and a player instead of files") {
  const CliOptions o = parsed({"fit", "--lichess", "bob", "--speed", "blitz,rapid", "--rated",
                               "--since", "2024-01-01", "--until", "2024-01-31", "--both-sides"});
  CHECK(o.files.empty());
  CHECK(o.lichess == "bob");
  CHECK(o.speed == "blitz,rapid");
  CHECK(o.rated);
  CHECK(o.both_sides);
  CHECK(o.since == "2024-01-01");
  CHECK(o.until == "2024-01-31");
  CHECK(parsed({"fit", "--chesscom", "Bob"}).chesscom == "Bob");
  CHECK_FALSE(parse_options({"fit", "--rated"}));  // still no input
}

TEST_CASE("player input: lichess's export address carries its filters, days in ms") {
  CliOptions o = parsed({"fit", "--lichess", "bob", "--speed", "blitz", "--rated", "--since",
                         "2021-10-01", "--until", "2021-10-01", "--max-games", "50"});
  auto url = lichess_export_url("http://stub", o);
  REQUIRE(url);
  // 2021-10-01 00:00 UTC = 1633046400000 ms; until is the end of that day.
  CHECK(*url ==
        "http://stub/api/games/user/bob?perfType=blitz&rated=true&since=1633046400000"
        "&until=1633132800000&max=50");
  o.since = "2021/10/01";
  CHECK_FALSE(lichess_export_url("http://stub", o));
  CHECK(lichess_export_url("http://stub", parsed({"fit", "--lichess", "a b"})).value() ==
        "http://stub/api/games/user/a%20b");
  // The evaluation target asks lichess for its [%eval] annotations.
  CHECK(lichess_export_url("http://stub", parsed({"fit", "--target", "eval", "--lichess", "bob"}))
            .value() == "http://stub/api/games/user/bob?evals=true");
  CHECK(lichess_export_url("http://stub",
                           parsed({"compare", "--targets", "result,eval", "--lichess", "bob"}))
            .value() == "http://stub/api/games/user/bob?evals=true");
}

TEST_CASE("player input: chess.com's months newest first, within the days' months") {
  const std::string list =
      R"({"archives":["https://x/pub/player/bob/games/2021/08","https://x/pub/player/bob/games/2021/09",)"
      R"("https://x/pub/player/bob/games/2021/10"]})";
  auto all = chesscom_month_urls(list, "bob", "", "");
  REQUIRE(all);
  CHECK(*all == std::vector<std::string>{"https://x/pub/player/bob/games/2021/10/pgn",
                                         "https://x/pub/player/bob/games/2021/09/pgn",
                                         "https://x/pub/player/bob/games/2021/08/pgn"});
  auto some = chesscom_month_urls(list, "bob", "2021-09-15", "2021-09-30");
  REQUIRE(some);
  CHECK(*some == std::vector<std::string>{"https://x/pub/player/bob/games/2021/09/pgn"});
  auto none = chesscom_month_urls(R"({"archives":[]})", "bob", "", "");
  REQUIRE_FALSE(none);
  CHECK(none.error().code == ErrorCode::kUnknownUser);
  CHECK(chesscom_month_urls("<html>", "bob", "", "").error().code == ErrorCode::kServiceError);
}

TEST_CASE("player input: the player's side unless --both-sides; one service at a time") {
  auto mine = with_player_inputs(parsed({"fit", "--lichess", "bob", "--filter", "elo=1500-"}));
  REQUIRE(mine);
  CHECK(mine->filter == "player=bob;pov=1;elo=1500-");
  REQUIRE(mine->files.size() == 1);
  CHECK(is_url(mine->files[0]));
  auto both = with_player_inputs(parsed({"fit", "--lichess", "bob", "--both-sides"}));
  REQUIRE(both);
  CHECK(both->filter.empty());
  CHECK_FALSE(with_player_inputs(parsed({"fit", "--lichess", "a", "--chesscom", "b"})));
  CHECK(with_player_inputs(parsed({"fit", "--lichess", "a", "--until", "x"})).error().code ==
        ErrorCode::kInvalidArgument);
}

TEST_CASE("player input: an HTTP answer in words") {
  const Error unknown = http_status_error("https://lichess.org/api/games/user/zz?max=3", 404, "");
  CHECK(unknown.code == ErrorCode::kUnknownUser);
  CHECK(unknown.message == "lichess has no player \"zz\" (HTTP 404): check the username");
  const Error limited =
      http_status_error("https://api.chess.com/pub/player/zz/games/archives", 429, "17");
  CHECK(limited.code == ErrorCode::kRateLimited);
  CHECK(limited.message.find("chess.com is limiting requests") == 0);
  CHECK(limited.message.find("wait 17 s") != std::string::npos);
  // Without Retry-After, lichess's rule: a full minute.
  CHECK(http_status_error("https://lichess.org/api/games/user/zz", 429, "")
            .message.find("wait 60 s") != std::string::npos);
  CHECK(http_status_error("https://lichess.org/api/games/user/zz", 503, "").code ==
        ErrorCode::kServiceError);
  CHECK(no_network_error("https://lichess.org/api/games/user/zz", "timeout").code ==
        ErrorCode::kNoNetwork);
  CHECK(is_url("https://a"));
  CHECK_FALSE(is_url("games.pgn"));
}

}  // namespace
}  // namespace materialist::cli
