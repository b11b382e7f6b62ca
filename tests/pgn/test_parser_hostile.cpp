// Hostile input: huge lines, comments and tokens, deep nesting, binary junk, unterminated
// constructs, NUL bytes, and every limit of ParserOptions.
#include <doctest/doctest.h>

#include "pgn/recorder.h"

namespace materialist::pgn {
namespace {

using testing::feed_in_chunks;
using testing::Lcg;
using testing::Recorder;

constexpr std::size_t kBig = 8 << 20;  // 8 MB: the same code path as 50 MB, a fraction of the time

Recorder parse_streamed(std::string_view text, ParserOptions options = {},
                        std::size_t chunk_size = 1 << 16) {
  Recorder recorder;
  recorder.keep_events = false;
  Parser parser(recorder, options);
  feed_in_chunks(parser, text, chunk_size);
  return recorder;
}

bool has_error(const GameEnd& end, ErrorCode code, std::string_view message_part) {
  for (const GameError& error : end.errors)
    if (error.code == code && error.message.find(message_part) != std::string::npos) return true;
  return false;
}

TEST_CASE("pgn/hostile: a huge single line of moves; the ply limit skips the rest") {
  std::string text = "[Event \"long\"]\n\n";
  while (text.size() < kBig) text += "1. Nf3 Nf6 2. Ng1 Ng8 ";
  text += "1/2-1/2\n[Event \"next\"]\n\n1. e4 *\n";
  const Recorder recorder = parse_streamed(text);
  REQUIRE(recorder.games() == 2);
  const GameEnd& first = recorder.end(0);
  CHECK(first.plies == 2000);
  CHECK(first.ply_limit_reached);
  CHECK(first.result == "1/2-1/2");
  CHECK(first.error_count == 1);
  CHECK(has_error(first, ErrorCode::kLimit, "more than 2000 plies"));
  CHECK(recorder.moves == 2001);
  CHECK(recorder.end(1).ok());
}

TEST_CASE("pgn/hostile: a huge comment is skipped streaming, comment() gets a bounded prefix") {
  std::string text = "[Event \"c\"]\n\n1. e4 {";
  for (std::size_t i = 0; text.size() < kBig; ++i) text += i % 100 == 99 ? '\n' : 'x';
  const std::size_t newlines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
  text += "} e5 *";
  struct CommentSizes : Recorder {
    std::vector<std::size_t> sizes;
    std::uint64_t last_line = 0;
    void comment(std::string_view body, Location) override { sizes.push_back(body.size()); }
    Action move(std::string_view san, Location where) override {
      last_line = where.line;
      return Recorder::move(san, where);
    }
  };
  ParserOptions options;
  options.comments = true;
  for (std::size_t chunk : {std::size_t{0}, std::size_t{4096}}) {
    CommentSizes recorder;
    recorder.keep_events = false;
    Parser parser(recorder, options);
    feed_in_chunks(parser, text, chunk);
    CHECK(recorder.sizes == std::vector<std::size_t>{4096});
    CHECK(recorder.moves == 2);
    CHECK(recorder.last_line == newlines + 1);
    REQUIRE(recorder.games() == 1);
    CHECK(recorder.end(0).ok());
  }
}

TEST_CASE("pgn/hostile: a huge token is an error and skipped without buffering") {
  std::string text = "1. e4 ";
  text.append(kBig, 'a');
  text += " e5 1-0\n\n1. d4 *\n";
  for (std::size_t chunk : {std::size_t{0}, std::size_t{1000}}) {
    const Recorder recorder = parse_streamed(text, {}, chunk);
    REQUIRE(recorder.games() == 2);
    CHECK(has_error(recorder.end(0), ErrorCode::kLimit, "token longer than 256 bytes"));
    CHECK(recorder.end(0).result == "1-0");
    CHECK(recorder.end(0).plies == 1);
    CHECK(recorder.end(1).ok());
    CHECK(recorder.moves == 2);
  }
}

TEST_CASE("pgn/hostile: 1 MB of '(' is a nesting error, the next game is found") {
  std::string text = "[Event \"deep\"]\n\n1. e4 ";
  text.append(1 << 20, '(');
  text += "\n[Event \"next\"]\n\n1. d4 *\n";
  const Recorder recorder = parse_streamed(text);
  REQUIRE(recorder.games() == 2);
  CHECK(recorder.end(0).error_count == 1);
  CHECK(has_error(recorder.end(0), ErrorCode::kLimit, "nested deeper than 64"));
  CHECK(recorder.end(1).ok());
  CHECK(recorder.end(1).result == "*");
  CHECK(recorder.moves == 2);
}

TEST_CASE("pgn/hostile: a megabyte of '[', of ')' or of results stays linear") {
  const Recorder brackets = parse_streamed(std::string(1 << 20, '[') + "\n\n1. e4 *");
  CHECK(brackets.games() == 1);
  CHECK(has_error(brackets.end(0), ErrorCode::kSyntax, "malformed tag"));
  CHECK(brackets.moves == 0);

  std::string lines;
  while (lines.size() < (1 << 20)) lines += "[\n";
  const Recorder bracket_lines = parse_streamed(lines + "\n1. e4 *", {}, 4096);
  CHECK(bracket_lines.games() == 1);
  CHECK(bracket_lines.end(0).error_count == (1 << 19));
  CHECK(bracket_lines.end(0).errors.size() == 16);

  const Recorder parens = parse_streamed("1. e4 " + std::string(1 << 20, ')') + " e5 *");
  CHECK(parens.moves == 2);
  CHECK(parens.end(0).error_count == (1 << 20));

  std::string results;
  while (results.size() < (1 << 20)) results += "1-0\n*\n";
  const Recorder games = parse_streamed(results, {}, 4096);
  CHECK(games.games() ==
        static_cast<std::size_t>(std::count(results.begin(), results.end(), '\n')));
  CHECK(games.end(games.games() - 1).result == "*");
}

TEST_CASE("pgn/hostile: binary junk (a JPEG renamed .pgn) gives per-game errors, then recovers") {
  std::string text = "\xFF\xD8\xFF\xE0";
  text += std::string("\0\x10JFIF\0", 7);
  Lcg random{42};
  while (text.size() < (256 << 10)) text.push_back(static_cast<char>(random.next() & 0xFF));
  const std::size_t junk_games_bound = static_cast<std::size_t>(
      std::count(text.begin(), text.end(), '[') + std::count(text.begin(), text.end(), '*') + 2);
  text += "\n[Event \"after\"]\n\n1. d4 d5 *\n";
  const Recorder recorder = parse_streamed(text, {}, 4096);
  REQUIRE(recorder.games() >= 2);
  CHECK(recorder.games() <= junk_games_bound + 1);
  CHECK(has_error(recorder.end(0), ErrorCode::kSyntax, "binary data, not PGN text: '??????JFIF?"));
  const GameEnd& last = recorder.end(recorder.games() - 1);
  CHECK(last.ok());
  CHECK(last.plies == 2);
  CHECK(last.result == "*");
  CHECK(parse_streamed(text, {}, 7).digest == recorder.digest);
}

TEST_CASE("pgn/hostile: an unterminated comment ends with the stream, flagged") {
  const Recorder recorder = parse_streamed("[Event \"a\"]\n\n1. e4 {never closed e5 2. d4");
  REQUIRE(recorder.games() == 1);
  CHECK(recorder.moves == 1);
  CHECK(recorder.end(0).truncated);
  REQUIRE(recorder.end(0).errors.size() == 1);
  if (recorder.end(0).errors.size() != 1) return;
  CHECK(recorder.end(0).errors[0].message == "unterminated comment");
  CHECK(recorder.end(0).errors[0].location.offset == 19);
}

TEST_CASE("pgn/hostile: an unterminated tag string ends at the end of its line") {
  const std::vector<std::string> events =
      testing::events_of("[Event \"abc\n[Site \"x\"]\n\n1. e4 *");
  CHECK(testing::at(events, 1) == "tag Event=abc");
  CHECK(testing::at(events, 2) == "tag Site=x");
  CHECK(testing::at(events, 4) == "move e4 4:27");
  CHECK(testing::at(events, 5).find("errors=1 [syntax 1:11 unterminated tag value]") !=
        std::string::npos);
  CHECK(testing::events_of("[Event \"abc\n[Site \"x\"]\n\n1. e4 *", {}, 1) == events);
}

TEST_CASE("pgn/hostile: NUL bytes pass through tag values and are errors in movetext") {
  const std::string text("[Event \"a\0b\"]\n\n1. e4 \0 e5 *\n\n1. d4 *", 36);
  Recorder recorder;
  parse_all(text, recorder);
  CHECK(recorder.event(1) == std::string("tag Event=a\0b", 13));
  REQUIRE(recorder.games() == 2);
  CHECK(has_error(recorder.end(0), ErrorCode::kSyntax, "binary data, not PGN text: '?'"));
  CHECK(recorder.end(1).ok());
  CHECK(recorder.moves == 2);
}

TEST_CASE("pgn/limits: a tag value is truncated to max_tag_value_length") {
  const std::string text = "[Annotator \"" + std::string(5000, 'v') + "\"]\n\n*";
  Recorder recorder;
  parse_all(text, recorder);
  CHECK(recorder.event(1) == "tag Annotator=" + std::string(4096, 'v'));
  CHECK(has_error(recorder.end(0), ErrorCode::kLimit, "tag value longer than 4096"));
  CHECK(testing::events_of(text, {}, 5) == recorder.events);
}

TEST_CASE("pgn/limits: tags beyond max_tags are dropped") {
  std::string text;
  for (int i = 0; i < 10; ++i) text += "[T" + std::to_string(i) + " \"x\"]\n";
  ParserOptions options;
  options.max_tags = 4;
  Recorder recorder;
  parse_all(text + "\n1. e4 *", recorder, options);
  CHECK(recorder.events.size() == 1 + 4 + 1 + 1 + 1);
  CHECK(recorder.end(0).error_count == 1);
  CHECK(has_error(recorder.end(0), ErrorCode::kLimit, "more than 4 tags"));
}

TEST_CASE("pgn/limits: max_plies, max_variation_depth, max_token_length, max_errors_kept") {
  ParserOptions options;
  options.max_plies = 3;
  Recorder plies;
  parse_all("1. e4 e5 2. Nf3 Nc6 3. Bb5 1-0", plies, options);
  CHECK(plies.moves == 3);
  CHECK(plies.end(0).ply_limit_reached);
  CHECK(plies.end(0).plies == 3);

  options = {};
  options.max_variation_depth = 2;
  Recorder deep;
  parse_all("1. e4 (1. d4 (1. c4)) e5 (1... c5 (1... e6 (1... d6))) 2. Nf3 1-0", deep, options);
  CHECK(deep.moves == 2);  // e4 e5, then the game is broken
  CHECK(has_error(deep.end(0), ErrorCode::kLimit, "nested deeper than 2"));
  CHECK(deep.end(0).result == "1-0");

  options = {};
  options.max_token_length = 4;
  Recorder tokens;
  parse_all("1. e4 Nbd7x *", tokens, options);
  CHECK(tokens.moves == 1);
  CHECK(has_error(tokens.end(0), ErrorCode::kLimit, "token longer than 4 bytes"));

  options = {};
  options.max_errors_kept = 2;
  Recorder errors;
  parse_all("1. e4 ) ) ) ) ) e5 *", errors, options);
  CHECK(errors.moves == 2);  // a stray ')' is reported but does not break the game
  CHECK(errors.end(0).error_count == 5);
  CHECK(errors.end(0).errors.size() == 2);
}

TEST_CASE("pgn/fuzz: random mutations of real PGN never crash and keep game counts sane") {
  const std::string base =
      "\xEF\xBB\xBF[Event \"Fuzz \\\"base\\\"\"]\r\n[White \"M\xC3\xBCller\"]\r\n\r\n"
      "1. e4 {a comment} e5 (1... c5 2. Nf3 (2. c3) d6) 2. Nf3 $1 Nc6!? 3. Bb5 ... "
      "; line comment\n%escape line\n3... a6 4. Ba4 Nf6 5. 0-0 1-0\n\n"
      "[Event \"two\"]\n[Result \"*\"]\n\n1.d4 d5 2.c4 dxc4 3.e3 b5 4.a4 c6 5.axb5 cxb5 *\n"
      "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 1/2-1/2\n[Event \"three\"]\n\n1. f4 e5 2. fxe5 d6 "
      "3. exd6 Bxd6 4. Nf3 g5 5. h3 Bg3+ 6. Kd2 0-1\n\x1a";
  static constexpr char kSpecial[] = "{}()[]\";%$.\n\r\\* 10-/";
  Lcg random{20211001};
  ParserOptions options;
  options.comments = true;
  // Small limits, so that mutations reach every limit path (and its chunk boundaries).
  options.max_plies = 40;
  options.max_token_length = 12;
  options.max_tag_value_length = 24;
  options.max_comment_length = 10;
  options.max_variation_depth = 3;
  options.max_tags = 5;
  options.max_errors_kept = 2;
  for (int iteration = 0; iteration < 2500; ++iteration) {
    std::string text = base;
    const std::size_t mutations = 1 + random.below(8);
    for (std::size_t m = 0; m < mutations && !text.empty(); ++m) {
      const std::size_t at = random.below(text.size());
      switch (random.below(7)) {
        case 0:
          text[at] = static_cast<char>(random.next() & 0xFF);
          break;
        case 1:
          text[at] = kSpecial[random.below(sizeof kSpecial - 1)];
          break;
        case 2:
          text.insert(text.begin() + static_cast<std::ptrdiff_t>(at),
                      kSpecial[random.below(sizeof kSpecial - 1)]);
          break;
        case 3:
          text.erase(at, 1 + random.below(8));
          break;
        case 4:
          text.resize(at);
          break;
        case 6: {  // a run of one byte, longer than the limits
          const std::size_t length = 10 + random.below(30);
          text.insert(at, length, static_cast<char>(random.next() & 0xFF));
          break;
        }
        case 5: {  // arguments are evaluated in any order: draw the numbers first
          const std::size_t from = random.below(text.size());
          const std::size_t length = random.below(64);
          text.insert(at, text.substr(from, length));
          break;
        }
      }
    }
    CAPTURE(iteration);
    Recorder whole;
    whole.keep_events = false;
    Parser parser(whole, options);
    feed_in_chunks(parser, text, 0);
    const Recorder chunked = [&] {
      Recorder recorder;
      recorder.keep_events = false;
      Parser chunked_parser(recorder, options);
      feed_in_chunks(chunked_parser, text, 1 + random.below(13));
      return recorder;
    }();
    REQUIRE(chunked.digest == whole.digest);

    auto count = [&](std::string_view needle) {
      std::size_t n = 0;
      for (std::size_t at = text.find(needle); at != std::string::npos;
           at = text.find(needle, at + 1))
        ++n;
      return n;
    };
    const std::size_t bound = count("[") + count("*") + count("1-0") + count("0-1") +
                              count("1/2-1/2") + count("\xC2\xBD-\xC2\xBD") + 2;
    REQUIRE(whole.games() <= bound);
    if (!text.empty() && text[0] == '[') REQUIRE(whole.games() >= 1);
    for (const GameEnd& end : whole.ends) {
      REQUIRE(end.start.offset <= end.end.offset);
      REQUIRE(end.end.offset <= text.size());
      REQUIRE(end.start.line <= end.end.line);
      REQUIRE(end.plies <= options.max_plies);
      REQUIRE(end.errors.size() <= options.max_errors_kept);
    }
  }
}

TEST_CASE("pgn/limits: max_games and stop_after_game end the stream at a game's end") {
  const std::string three =
      "[Event \"a\"]\n\n1. e4 e5 1-0\n\n"
      "[Event \"b\"]\n\n1. d4 d5 0-1\n\n"
      "1. c4 c5 1/2-1/2\n";
  ParserOptions two;
  two.max_games = 2;
  for (std::size_t chunk : {std::size_t{0}, std::size_t{1}, std::size_t{7}}) {
    CAPTURE(chunk);
    const std::vector<std::string> all = testing::events_of(three, {}, chunk);
    const std::vector<std::string> limited = testing::events_of(three, two, chunk);
    // The first two games exactly as without a limit, then nothing: no third begin.
    int begins = 0;
    const auto third = std::find_if(all.begin(), all.end(), [&begins](const std::string& e) {
      return e.rfind("begin ", 0) == 0 && ++begins == 3;
    });
    REQUIRE(third != all.end());
    CHECK(limited == std::vector<std::string>(all.begin(), third));
  }

  // Stopped inside a game: that game ends as it would, the next is never begun.
  Recorder inside;
  Parser parser(inside);
  const std::size_t cut = three.find("d5");
  parser.feed(three.data(), cut);
  parser.stop_after_game();
  CHECK_FALSE(parser.stopped());
  parser.feed(three.data() + cut, three.size() - cut);
  CHECK(parser.stopped());
  parser.finish();
  REQUIRE(inside.ends.size() == 2);
  CHECK(inside.end(1).result == "0-1");
  CHECK_FALSE(inside.end(1).truncated);

  // Stopped between games: after the next one (its text may still be on its way).
  Recorder between;
  Parser next_one(between);
  const std::size_t after_first = three.find("[Event \"b\"]");
  next_one.feed(three.data(), after_first);
  next_one.stop_after_game();
  CHECK_FALSE(next_one.stopped());
  next_one.feed(three.data() + after_first, three.size() - after_first);
  next_one.finish();
  CHECK(next_one.stopped());
  CHECK(between.ends.size() == 2);
}

}  // namespace
}  // namespace materialist::pgn
