// One small test per PGN feature the parser must handle. Every parse also runs in 1- and 3-byte
// chunks and must give the same events.
#include <doctest/doctest.h>

#include <algorithm>

#include "pgn/recorder.h"

namespace materialist::pgn {
namespace {

using testing::events_of;
using testing::Recorder;
using Events = std::vector<std::string>;

Events parse(std::string_view text, ParserOptions options = {}) {
  const Events whole = events_of(text, options);
  CHECK(events_of(text, options, 1) == whole);
  CHECK(events_of(text, options, 3) == whole);
  return whole;
}

// Only the move events, as "san@line".
std::vector<std::string> moves_of(const Events& events) {
  std::vector<std::string> moves;
  for (const std::string& event : events) {
    if (event.rfind("move ", 0) != 0) continue;
    const std::size_t space = event.find(' ', 5);
    const std::size_t colon = event.find(':', space);
    moves.push_back(event.substr(5, space - 5) + "@" + event.substr(space + 1, colon - space - 1));
  }
  return moves;
}

std::vector<std::string> ends_of(const Events& events) {
  std::vector<std::string> ends;
  for (const std::string& event : events)
    if (event.rfind("end ", 0) == 0) ends.push_back(event);
  return ends;
}

TEST_CASE("pgn/parser: tags then main-line moves, with lines and offsets") {
  const Events events = parse("[Event \"E\"]\n[Site \"S\"]\n\n1. e4 e5 2. Nf3 1-0\n");
  const Events expected = {
      "begin 1:0",     "tag Event=E",
      "tag Site=S",    "moves",
      "move e4 4:27",  "move e5 4:30",
      "move Nf3 4:36", "end '1-0' 1:0-4:40 plies=3 missing=0 errors=0",
  };
  CHECK(events == expected);
}

TEST_CASE("pgn/parser: tag values unescape \\\" and \\\\ and keep other bytes untouched") {
  const Events events = parse(
      "[Event \"a \\\"quoted\\\" b\\\\c \\n\"]\n[White \"M\xC3\xBCller\"]\n"
      "[Black \"Jos\xE9\"]\n\n*");
  CHECK(testing::at(events, 1) == "tag Event=a \"quoted\" b\\c \\n");
  CHECK(testing::at(events, 2) == "tag White=M\xC3\xBCller");
  CHECK(testing::at(events, 3) == "tag Black=Jos\xE9");
}

TEST_CASE("pgn/parser: brace comments over lines and semicolon comments are skipped") {
  const std::string text = "1. e4 {a {comment\nover lines} e5 ; Nf3 Nc6 rest of line\n2. Nf3 *";
  CHECK(moves_of(parse(text)) == std::vector<std::string>{"e4@1", "e5@2", "Nf3@3"});
  ParserOptions options;
  options.comments = true;
  const Events events = parse(text, options);
  CHECK(testing::at(events, 3) == "comment a {comment\nover lines 1:6");
}

// A one-line comment whole in the chunk is skipped without leaving the movetext
// (Parser::one_line_comment); in 1- and 3-byte chunks it goes through the comment state.
TEST_CASE("pgn/parser: one-line clock comments, in and out of variations and broken games") {
  const std::string text =
      "1. e4 { [%clk 0:03:00] } 1... e5 {x[y} {} 2. Nf3 ( {v} 2. f4 {w} ) {a {b} Nc6 {c\nd} "
      "3. Bb5 <junk> {j} 3... a6 {k\n[Event \"b\"]\n\n1. d4 {[%eval 0.2]} *";
  const Events events = parse(text);
  CHECK(moves_of(events) ==
        std::vector<std::string>{"e4@1", "e5@1", "Nf3@1", "Nc6@1", "Bb5@2", "d4@5"});
  ParserOptions options;
  options.comments = true;
  const Events with_comments = parse(text, options);
  CHECK(std::count(with_comments.begin(), with_comments.end(), "comment  [%clk 0:03:00]  1:6") ==
        1);
  CHECK(std::count(with_comments.begin(), with_comments.end(), "comment [%eval 0.2] 5:132") == 1);
  CHECK(std::count_if(with_comments.begin(), with_comments.end(), [](const std::string& event) {
          return event.rfind("comment ", 0) == 0;
        }) == 6);
}

TEST_CASE("pgn/parser: nested variations are skipped, with their comments") {
  ParserOptions options;
  options.comments = true;
  const Events events =
      parse("1. e4 (1. d4 d5 {in a variation} (1... Nf6 2. c4) 2. c4) e5 2. Nf3 (2. f4) Nc6 1-0",
            options);
  CHECK(moves_of(events) == std::vector<std::string>{"e4@1", "e5@1", "Nf3@1", "Nc6@1"});
  CHECK(testing::at(ends_of(events), 0).find("errors=0") != std::string::npos);
}

TEST_CASE("pgn/parser: NAGs and annotation glyphs are not moves") {
  const Events events =
      parse("1. e4! $1 e5?! 2. Nf3!! $14 Nc6?? 3. Bb5 +- a6 $2 4. Ba4+/- Nf6=+ 5. O-O+- 1/2-1/2");
  CHECK(moves_of(events) == std::vector<std::string>{"e4@1", "e5@1", "Nf3@1", "Nc6@1", "Bb5@1",
                                                     "a6@1", "Ba4@1", "Nf6@1", "O-O@1"});
  CHECK(testing::at(ends_of(events), 0).find("errors=0") != std::string::npos);
}

TEST_CASE("pgn/parser: move numbers, glued or not, with dots for Black") {
  const Events events = parse("1.e4 e5 2.Nf3 2...Nc6 3. Bb5 3... a6 4 . Ba4 *");
  CHECK(moves_of(events) ==
        std::vector<std::string>{"e4@1", "e5@1", "Nf3@1", "Nc6@1", "Bb5@1", "a6@1", "Ba4@1"});
}

// Moves glued to their numbers take the parser's fast path; annotated, zero-castling, null and
// over-long forms fall back to the full tokenizer. Both must read what the spaced text reads.
TEST_CASE("pgn/parser: a move glued to its number reads as the number then the move") {
  const std::string_view glued =
      "1.e4 1...e5 2.Nf3!? 2...O-O 3.0-0 3...e8=Q+ 4.Z0 4...exd5$1 5.Bb5+- 5....Nc6 "
      "123456789012.a3 6.?? 7.e4 *";
  const std::string_view spaced =
      "1. e4 1... e5 2. Nf3!? 2... O-O 3. 0-0 3... e8=Q+ 4. Z0 4... exd5$1 5. Bb5+- 5.... Nc6 "
      "123456789012. a3 6. ?? 7. e4 *";
  const Events a = parse(glued);
  const Events b = parse(spaced);
  CHECK(moves_of(a) == std::vector<std::string>{"e4@1", "e5@1", "Nf3@1", "O-O@1", "O-O@1",
                                                "e8=Q+@1", "--@1", "exd5@1", "Bb5@1", "Nc6@1",
                                                "a3@1", "e4@1"});
  // Offsets differ (the spaced moves start a byte later); everything else is the same.
  CHECK(moves_of(a) == moves_of(b));
  CHECK(ends_of(a).size() == ends_of(b).size());
}

TEST_CASE("pgn/parser: % escape lines are skipped") {
  const Events events =
      parse("%generated by a tool\n[Event \"x\"]\n%1. d4 [Event \"no\"]\n\n1. e4\n%2. d4\n2. c4 *");
  CHECK(moves_of(events) == std::vector<std::string>{"e4@5", "c4@7"});
  CHECK(testing::at(events, 1) == "tag Event=x");
  CHECK(events.size() == 6);
}

TEST_CASE("pgn/parser: a UTF-8 byte-order mark is skipped") {
  const Events events = parse("\xEF\xBB\xBF[Event \"x\"]\n\n1. e4 *");
  CHECK(testing::at(events, 0) == "begin 1:3");
  CHECK(moves_of(events) == std::vector<std::string>{"e4@3"});
}

TEST_CASE("pgn/parser: CRLF, lone CR and tabs") {
  const Events events = parse("[Event \"x\"]\r\n\r\n1.\te4\te5\r\n2. d4\r3. c4\r\n\r\n*");
  CHECK(moves_of(events) == std::vector<std::string>{"e4@3", "e5@3", "d4@4", "c4@5"});
  CHECK(testing::at(ends_of(events), 0).find("'*' 1:0-7:") != std::string::npos);
}

TEST_CASE("pgn/parser: a tag after movetext starts a new game even without a result") {
  const Events events = parse(
      "[Event \"a\"]\n1. e4 *\n[Event \"b\"]\n1. d4\n[Event \"c\"]\n1. c4 1-0 [Event \"d\"] 1. "
      "f4 0-1");
  const auto ends = ends_of(events);
  REQUIRE(ends.size() == 4);
  CHECK(testing::at(ends, 0).rfind("end '*' 1:0-2:", 0) == 0);
  CHECK(testing::at(ends, 1).rfind("end '' 3:", 0) == 0);
  CHECK(testing::at(ends, 1).find("truncated") == std::string::npos);
  CHECK(testing::at(ends, 2).rfind("end '1-0' 5:", 0) == 0);
  CHECK(testing::at(ends, 3).rfind("end '0-1' 6:", 0) == 0);
  CHECK(moves_of(events) == std::vector<std::string>{"e4@2", "d4@4", "c4@6", "f4@6"});
}

TEST_CASE("pgn/parser: tags without movetext, separated by a blank line, are two games") {
  const Events events = parse("[Event \"a\"]\n[Result \"*\"]\n\n[Event \"b\"]\n\n1. e4 *");
  const auto ends = ends_of(events);
  REQUIRE(ends.size() == 2);
  CHECK(testing::at(ends, 0).rfind("end '' 1:0-4:", 0) == 0);
  CHECK(moves_of(events) == std::vector<std::string>{"e4@6"});
}

TEST_CASE("pgn/parser: movetext without a tag section") {
  const Events events = parse("1. e4 e5 1-0\n\n1. d4 d5 0-1\n");
  const Events expected = {
      "begin 1:0",
      "moves",
      "move e4 1:3",
      "move e5 1:6",
      "end '1-0' 1:0-1:9 plies=2 missing=0 errors=0",
      "begin 3:14",
      "moves",
      "move d4 3:17",
      "move d5 3:20",
      "end '0-1' 3:14-3:23 plies=2 missing=0 errors=0",
  };
  CHECK(events == expected);
}

TEST_CASE("pgn/parser: a missing result or '*'") {
  const auto ends = ends_of(parse("[Event \"a\"]\n\n1. e4 e5\n\n[Event \"b\"]\n\n1. d4 *\n"));
  REQUIRE(ends.size() == 2);
  CHECK(testing::at(ends, 0).rfind("end '' ", 0) == 0);
  CHECK(testing::at(ends, 0).find("errors=0") != std::string::npos);
  CHECK(testing::at(ends, 1).rfind("end '*' ", 0) == 0);
}

// Move numbers ("12." and "12...") and lichess's clock comments have fast paths of their own;
// near misses of their shapes must read as the full scan reads them.
TEST_CASE("pgn/parser: move numbers and clock comments near their fast paths' shapes") {
  const std::string text =
      "1. e4 { [%clk 0:03:00] } 1... e5 { [%clk 10:03:00] } 2.{x} Nf3 { [%clk 0:02:5\n9] } "
      "2... Nc6 ( 2... d6 3. d4 ) { [%clk 0:02:59]} 3. Bb5 123456789012. a6 4.... Ba4 "
      "4...( 4. O-O ) Nf6 5. O-O { [%clk 0:02:59] }";
  const Events events = parse(text + " *");
  const std::vector<std::string> moves{"e4@1", "e5@1",  "Nf3@1", "Nc6@2", "Bb5@2",
                                       "a6@2", "Ba4@2", "Nf6@2", "O-O@2"};
  CHECK(moves_of(events) == moves);
  CHECK(testing::at(ends_of(events), 0).find("errors=0") != std::string::npos);
  // With comments wanted, no comment is skipped unread: the full scan's reading of the same text.
  ParserOptions options;
  options.comments = true;
  CHECK(moves_of(parse(text + " *", options)) == moves);
  // A number cut by the end of the stream is no move number yet: the parser waits for its end.
  CHECK(moves_of(parse(text + " 6.")) == moves);
  // A number inside a variation is not the main line's: the bare "..." after it is a gap.
  const Events gap = parse("1. e4 ( 1... ) ... e5 *");
  CHECK(std::count_if(gap.begin(), gap.end(), [](const std::string& event) {
          return event.rfind("missing ", 0) == 0;
        }) == 1);
  // A '}' inside a clock's time ends the comment there: the rest is movetext, and an error.
  const Events broken = parse("1. e4 { [%clk 0:0}:00] } e5 *");
  CHECK(moves_of(broken) == std::vector<std::string>{"e4@1"});
  CHECK(testing::at(ends_of(broken), 0).find("errors=1") != std::string::npos);
}

TEST_CASE("pgn/parser: a bare ... is a missing move, '12. ...' before Black's move is not") {
  const Events events =
      parse("1. e4 e5 2. d4 ... {forfeit claim} 2... exd4 3. Nf3 {x} 3. ... Nc6 4. ... 0-1\n");
  CHECK(moves_of(events) ==
        std::vector<std::string>{"e4@1", "e5@1", "d4@1", "exd4@1", "Nf3@1", "Nc6@1"});
  int missing = 0;
  for (const std::string& event : events) missing += event.rfind("missing ", 0) == 0;
  CHECK(missing == 2);
  CHECK(testing::at(events, 5) == "missing 1:15");
  CHECK(testing::at(ends_of(events), 0).find("missing=2") != std::string::npos);
}

TEST_CASE("pgn/parser: a trailing DOS end-of-file byte is blank") {
  const auto ends = ends_of(parse("1. e4 1-0\n\n\x1a"));
  REQUIRE(ends.size() == 1);
  CHECK(testing::at(ends, 0).find("truncated") == std::string::npos);
  CHECK(testing::at(ends, 0).find("errors=0") != std::string::npos);
}

TEST_CASE("pgn/parser: every result token") {
  const auto ends = ends_of(parse("e4 1-0 e4 0-1 e4 1/2-1/2 e4 * e4 \xC2\xBD-\xC2\xBD"));
  REQUIRE(ends.size() == 5);
  CHECK(testing::at(ends, 0).rfind("end '1-0'", 0) == 0);
  CHECK(testing::at(ends, 1).rfind("end '0-1'", 0) == 0);
  CHECK(testing::at(ends, 2).rfind("end '1/2-1/2'", 0) == 0);
  CHECK(testing::at(ends, 3).rfind("end '*'", 0) == 0);
  CHECK(testing::at(ends, 4).rfind("end '1/2-1/2'", 0) == 0);
}

TEST_CASE("pgn/parser: empty and blank input give no games") {
  CHECK(parse("").empty());
  CHECK(parse(" \n\r\n\t\x1a").empty());
  CHECK(parse("\xEF\xBB\xBF").empty());
  CHECK(parse("{just a comment}\n; and a line comment\n% and an escape").empty());
}

TEST_CASE("pgn/parser: a truncated final game is ended by finish() and flagged") {
  const Events events = parse("[Event \"a\"]\n\n1. e4 e5 2. Nf");
  CHECK(moves_of(events) == std::vector<std::string>{"e4@3", "e5@3", "Nf@3"});
  CHECK(testing::at(ends_of(events), 0) == "end '' 1:0-3:27 plies=3 missing=0 truncated errors=0");

  const auto in_tag = ends_of(parse("[Event \"a\"]\n[Site \"x"));
  REQUIRE(in_tag.size() == 1);
  CHECK(testing::at(in_tag, 0).find("truncated errors=1 [syntax 2:20 unterminated tag]") !=
        std::string::npos);
}

TEST_CASE("pgn/parser: zero castling and null moves reach the visitor normalised") {
  CHECK(moves_of(parse("1. 0-0 0-0-0+ 2. Z0 -- *")) ==
        std::vector<std::string>{"O-O@1", "O-O-O+@1", "--@1", "--@1"});
}

TEST_CASE("pgn/parser: a comment missing its '}' ends at a tag starting a line") {
  const Events events = parse(
      "[Event \"a\"]\n\n1. e4 {broken comment\n2. d4\n\n[Event \"b\"]\n\n1. c4 *\n"
      "{ between games, broken\n[Event \"c\"]\n[Site \"s\"]\n{ in tags, broken\n[Round "
      "\"r\"]\n\n1. "
      "f4 *");
  CHECK(moves_of(events) == std::vector<std::string>{"e4@3", "c4@8", "f4@15"});
  const auto ends = ends_of(events);
  REQUIRE(ends.size() == 3);
  CHECK(testing::at(ends, 0) ==
        "end '' 1:0-6:42 plies=1 missing=0 errors=1 [syntax 3:19 unterminated comment]");
  CHECK(testing::at(ends, 1).rfind("end '*' 6:42-8:", 0) == 0);
  CHECK(testing::at(ends, 1).find("errors=0") != std::string::npos);
  CHECK(testing::at(ends, 2).find("errors=1 [syntax 12:110 unterminated comment]") !=
        std::string::npos);
  CHECK(std::count(events.begin(), events.end(), "tag Round=r") == 1);
  CHECK(std::count(events.begin(), events.end(), "tag Site=s") == 1);
}

TEST_CASE("pgn/parser: '[' starting a line inside a comment is text unless it starts a tag") {
  ParserOptions options;
  options.comments = true;
  const Events events = parse("1. e4 {a\n[%clk 1:00]\n[x] y\n[Note x} e5 *", options);
  CHECK(moves_of(events) == std::vector<std::string>{"e4@1", "e5@4"});
  CHECK(testing::at(events, 3) == "comment a\n[%clk 1:00]\n[x] y\n[Note x 1:6");
  CHECK(testing::at(ends_of(events), 0).find("errors=0") != std::string::npos);
}

TEST_CASE("pgn/parser: an error ends reporting for the game, the next game is clean") {
  const Events events = parse("[Event \"a\"]\n\n1. e4 <junk> e5 1-0\n\n[Event \"b\"]\n\n1. d4 *\n");
  CHECK(moves_of(events) == std::vector<std::string>{"e4@3", "d4@7"});
  const auto ends = ends_of(events);
  REQUIRE(ends.size() == 2);
  CHECK(testing::at(ends, 0) ==
        "end '1-0' 1:0-3:29 plies=1 missing=0 errors=1 [syntax 3:19 unexpected token '<junk>']");
  CHECK(testing::at(ends, 1).find("errors=0") != std::string::npos);
}

TEST_CASE("pgn/parser: a malformed tag line is an error and the game's moves are not reported") {
  const Events events = parse("[Event \"a\"]\n[Site x]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 *");
  CHECK(moves_of(events) == std::vector<std::string>{"d4@8"});
  const auto ends = ends_of(events);
  REQUIRE(ends.size() == 2);
  CHECK(testing::at(ends, 0).find("[syntax 2:18 tag value without quotes]") != std::string::npos);
  CHECK(testing::at(ends, 0).rfind("end '*'", 0) == 0);
}

TEST_CASE("pgn/parser: begin_moves() or move() can skip the rest of a game") {
  Recorder skip_all;
  skip_all.begin_moves_action = Action::kSkipGame;
  parse_all("[Event \"a\"]\n\n1. e4 e5 1-0\n1. d4 0-1", skip_all);
  CHECK(skip_all.moves == 0);
  REQUIRE(skip_all.ends.size() == 2);
  CHECK(skip_all.end(0).skipped);
  CHECK(skip_all.end(0).plies == 2);
  CHECK(skip_all.end(1).result == "0-1");

  Recorder skip_later;
  skip_later.skip_after_moves = 2;
  parse_all("1. e4 e5 2. Nf3 Nc6 1-0 1. d4 d5 2. c4 0-1", skip_later);
  CHECK(skip_later.moves == 4);
  CHECK(skip_later.end(1).skipped);
}

TEST_CASE("pgn/parser: line_breaks() counts CR, LF and CRLF once, and keeps an ended stream's") {
  Recorder recorder;
  Parser parser(recorder);
  const std::string text = "[Event \"a\"]\r\n\r\n1. e4 {a\rcomment\n} e5 *\n\n";
  for (const char c : text) parser.feed(&c, 1);  // a CRLF split between feeds is still one
  CHECK(parser.line_breaks() == 6);
  parser.finish();
  CHECK(parser.line_breaks() == 6);
  parser.feed("1. d4 *\n", 8);  // a new stream
  CHECK(parser.line_breaks() == 1);
}

TEST_CASE("pgn/parser: game starts and moves carry 1-based lines over a multi-game text") {
  const Events events = parse("\n\n[Event \"a\"]\n\n1. e4\ne5 *\n\n\n[Event \"b\"]\n\n1.\nd4 *");
  CHECK(testing::at(events, 0) == "begin 3:2");
  CHECK(moves_of(events) == std::vector<std::string>{"e4@5", "e5@6", "d4@12"});
  CHECK(testing::at(events, 6) == "begin 9:28");
}

TEST_CASE("pgn/parser: tag spacing variants, several tags on a line, a missing ']'") {
  const Events events = parse("[ Event \"a\"][Site\"b\"]\t[Round  \"c\" ]\n[Date \"d\"\n\n*");
  const Events expected = {"begin 1:0",
                           "tag Event=a",
                           "tag Site=b",
                           "tag Round=c",
                           "tag Date=d",
                           "moves",
                           "end '*' 1:0-4:47 plies=0 missing=0 errors=0"};
  CHECK(events == expected);
}

// A tag line whole in one chunk is read in one go (Parser::read_whole_tag); in 1- and 3-byte
// chunks it goes through the tag states. parse() checks that both give the same events.
TEST_CASE("pgn/parser: a tag whole in the chunk reads as the tag states read it") {
  const std::string longest_name(256, 'N');
  const std::string longest_value(4096, 'v');
  const std::vector<std::string> lines = {"[Event \"x\"]",
                                          "[Event\t\"x\"]",
                                          "[Event \"\"]",
                                          "[Event \"x\" ]",
                                          "[Event \"a\\\"b\"]",
                                          "[Event \"a\\\\b\"]",
                                          "[Event \"a\\b\"]",
                                          "[Event \"x\" y]",
                                          "[Event \"x\"",
                                          "[Event \"x",
                                          "[Event x]",
                                          "[Event]",
                                          "[\"x\"]",
                                          "[ Event \"x\"]",
                                          "[Event \"x\"][Site \"y\"]",
                                          "[Event \"x\"\t\t]",
                                          "[Event \"{x}\"]",
                                          "[Event \"x\"\r\n[Site \"y\"]",
                                          "[" + longest_name + " \"x\"]",
                                          "[" + longest_name + "N \"x\"]",
                                          "[Event \"" + longest_value + "\"]",
                                          "[Event \"" + longest_value + "v\"]"};
  for (const std::string& line : lines) {
    CAPTURE(line.substr(0, 40));
    const Events events = parse(line + "\n[Site \"s\"]\n\n1. e4 *");
    CHECK(std::count(events.begin(), events.end(), "tag Site=s") == 1);
  }
  CHECK(testing::at(parse("[Event \"a\\\"b\"]\n\n*"), 1) == "tag Event=a\"b");
  CHECK(testing::at(parse("[" + longest_name + " \"x\"]\n\n*"), 1) == "tag " + longest_name + "=x");
  const Events too_long = parse("[Event \"" + longest_value + "v\"]\n\n*");
  CHECK(testing::at(too_long, 1) == "tag Event=" + longest_value);
  CHECK(testing::at(ends_of(too_long), 0).find("tag value longer than 4096") != std::string::npos);
  const Events name_too_long = parse("[" + longest_name + "N \"x\"]\n\n*");
  CHECK(testing::at(ends_of(name_too_long), 0).find("tag name too long") != std::string::npos);
}

TEST_CASE("pgn/parser: a tag name longer than max_token_length breaks the game") {
  const std::string text = "[" + std::string(300, 'N') + " \"x\"]\n[Event \"e\"]\n\n1. e4 *";
  const Events events = parse(text);
  CHECK(testing::at(events, 1) == "tag Event=e");
  CHECK(moves_of(events).empty());
  CHECK(testing::at(ends_of(events), 0).find("[syntax 1:301 tag name too long]") !=
        std::string::npos);
}

TEST_CASE("pgn/parser: after finish() a parser reads a new stream from line 1") {
  Recorder recorder;
  Parser parser(recorder);
  const std::string_view first = "1. e4 *\n\n";
  const std::string_view second =
      "\xEF\xBB\xBF"
      "1. d4";
  parser.feed(first.data(), first.size());
  parser.finish();
  parser.feed(second.data(), second.size());
  parser.finish();
  CHECK(parser.games() == 2);
  CHECK(parser.bytes() == first.size() + second.size());
  CHECK(recorder.event(4) == "begin 1:3");
  CHECK(recorder.event(6) == "move d4 1:6");
  CHECK(recorder.end(1).truncated);
}

}  // namespace
}  // namespace materialist::pgn
