// The argument layer: one grammar and one set of messages for every command, help made from the
// option table, and docs/CLI.md's reference equal to it.
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include "cli/arguments.h"
#include "cli/cli_test_util.h"
#include "cli/help.h"
#include "cli/option_table.h"
#include "cli/play_options.h"

namespace materialist::cli {
namespace {

using testing::contains;
using testing::run_cli;

Expected<Arguments> parse(Verb verb, const std::vector<std::string>& args) {
  return parse_arguments(verb, args);
}

std::string error_of(Verb verb, const std::vector<std::string>& args) {
  const auto parsed = parse(verb, args);
  return parsed ? std::string() : parsed.error().message;
}

// The commands that take an option.
std::vector<Verb> verbs_of(const OptionSpec& spec) {
  std::vector<Verb> verbs;
  for (const CommandSpec& command : command_specs()) {
    if (spec.verbs.has(command.verb)) verbs.push_back(command.verb);
  }
  return verbs;
}

}  // namespace

TEST_CASE("arguments: every option is declared once, with a name, help and a command") {
  std::set<std::string_view> names;
  for (const OptionSpec& spec : option_specs()) {
    CAPTURE(spec.name);
    CHECK(spec.name.rfind("--", 0) == 0);
    CHECK(names.insert(spec.name).second);
    if (!spec.alias.empty()) CHECK(names.insert(spec.alias).second);
    CHECK_FALSE(spec.help.empty());
    CHECK_FALSE(verbs_of(spec).empty());
    CHECK((spec.kind == ValueKind::kSwitch) == spec.value_name.empty());
    if (spec.kind == ValueKind::kInteger) CHECK(spec.minimum <= spec.maximum);
    if (spec.kind == ValueKind::kChoice) CHECK_FALSE(spec.choices.empty());
  }
}

TEST_CASE("arguments: the same bad value gets the same message from every command") {
  for (const OptionSpec& spec : option_specs()) {
    if (spec.kind != ValueKind::kInteger && spec.kind != ValueKind::kNumber &&
        spec.kind != ValueKind::kChoice) {
      continue;
    }
    CAPTURE(spec.name);
    std::set<std::string> messages;
    for (const Verb verb : verbs_of(spec)) {
      messages.insert(error_of(verb, {std::string(spec.name), "nonsense"}));
      // The same message wherever the option stands among the others.
      messages.insert(error_of(verb, {"x.pgn", std::string(spec.name) + "=nonsense"}));
    }
    REQUIRE(messages.size() == 1);
    CHECK(contains(*messages.begin(), std::string(spec.name) + " expects "));
    CHECK(contains(*messages.begin(), "got 'nonsense'"));
  }
  // -j 0 is refused by fit and by match alike (it once meant two threads to match).
  CHECK(error_of(Verb::kFit, {"-j", "0"}) == error_of(Verb::kMatch, {"-j", "0"}));
  CHECK(error_of(Verb::kFit, {"-j0"}) == "--jobs expects a whole number from 1 to 1024, got '0'");
}

TEST_CASE("arguments: values by every spelling; -- ends the options") {
  const auto spaced = parse(Verb::kFit, {"--jobs", "3", "a.pgn"});
  const auto joined = parse(Verb::kFit, {"--jobs=3", "a.pgn"});
  const auto attached = parse(Verb::kFit, {"-j3", "a.pgn"});
  const auto alias = parse(Verb::kFit, {"a.pgn", "-j", "3"});
  for (const Expected<Arguments>* parsed : {&spaced, &joined, &attached, &alias}) {
    REQUIRE(parsed->ok());
    CHECK((*parsed)->integer(Opt::kJobs, 0) == 3);
    CHECK((*parsed)->operands == std::vector<std::string>{"a.pgn"});
  }
  const auto ended = parse(Verb::kFit, {"--json", "--", "--json", "-"});
  REQUIRE(ended.ok());
  CHECK(ended->operands == std::vector<std::string>{"--json", "-"});
  // A value that starts with '-' but names no option is a value.
  const auto sprt = parse(Verb::kMatch, {"--sprt", "-5,0"});
  REQUIRE(sprt.ok());
  CHECK(*sprt->text(Opt::kSprt) == "-5,0");
}

TEST_CASE("arguments: unknown, foreign, repeated and valueless options are named") {
  CHECK(error_of(Verb::kFit, {"--wat"}) == "unknown option '--wat' (see materialist fit --help)");
  CHECK(error_of(Verb::kFit, {"--pairs", "4"}) ==
        "--pairs is not an option of fit (match and selfplay take it; see materialist fit "
        "--help)");
  CHECK(error_of(Verb::kFit, {"--solver", "gd", "--solver", "newton"}) ==
        "--solver is given twice");
  CHECK(error_of(Verb::kFit, {"--filter"}) == "--filter needs a value (SPEC)");
  CHECK(error_of(Verb::kFit, {"--filter", "--json"}) == "--filter needs a value (SPEC)");
  CHECK(error_of(Verb::kFit, {"--json=yes"}) == "--json takes no value");
  CHECK(error_of(Verb::kMatch, {"extra"}) ==
        "match takes no operands, got 'extra' (see materialist match --help)");
  CHECK(contains(error_of(Verb::kCompare, {"--by", "height"}), "--by: "));
  CHECK(contains(error_of(Verb::kMatch, {"--sprt", "1"}), "--sprt: expects ELO0,ELO1"));
  CHECK(contains(error_of(Verb::kElo, {"--penta", "1,2"}), "--penta: expects 5 comma-separated"));
  // Repeatable options keep every value in order.
  const auto each = parse(Verb::kCompare, {"--each", "tc=blitz", "--each", "tc=rapid"});
  REQUIRE(each.ok());
  CHECK(each->all(Opt::kEach) == std::vector<std::string>{"tc=blitz", "tc=rapid"});
}

TEST_CASE("arguments: rules between options hold in any order") {
  const auto before = parse_play_options({"match", "--sprt", "0,5", "--logistic"});
  const auto after = parse_play_options({"match", "--logistic", "--sprt", "0,5"});
  REQUIRE(before.ok());
  REQUIRE(after.ok());
  CHECK(before->sprt->logistic);
  CHECK(after->sprt->logistic);
  CHECK(parse_play_options({"match", "--logistic"}).error().message == "--logistic needs --sprt");
  CHECK(parse_play_options({"match", "--nodes", "5", "--depth", "3"}).error().message ==
        "one limit: --nodes, --depth or --movetime");
  // The switches that turn adjudication off win whatever their order.
  const auto off =
      parse_play_options({"match", "--no-resign", "--resign", "movecount=4,score=500"});
  REQUIRE(off.ok());
  CHECK_FALSE(off->game.adjudication.resign);
  CHECK(off->game.adjudication.resign_move_count == 4);
}

TEST_CASE("help: every command answers --help and -h with its usage and every option it takes") {
  for (const CommandSpec& command : command_specs()) {
    const std::string verb = verb_name(command.verb);
    CAPTURE(verb);
    for (const char* flag : {"--help", "-h"}) {
      // Help wins over a mistake among the other words.
      const auto run = run_cli({verb, "--wat", flag});
      CHECK(run.status == 0);
      CHECK(run.out == command_help(command.verb));
      CHECK(run.err.empty());
    }
    const std::string help = command_help(command.verb);
    CHECK(help.rfind("materialist " + verb + ": ", 0) == 0);
    for (const OptionSpec& spec : option_specs()) {
      CAPTURE(spec.name);
      const std::string label = "\n  " + option_label(spec);
      CHECK((contains(help, label + " ") || contains(help, label + "\n")) ==
            spec.verbs.has(command.verb));
    }
    CHECK(run_cli({"help", verb}).out == help);
    for (const std::string& line : testing::lines_of(help)) CHECK(line.size() <= 96);
  }
}

TEST_CASE("help: the global page lists every command on one line and the exit statuses") {
  const auto run = run_cli({"--help"});
  CHECK(run.status == 0);
  for (const CommandSpec& command : command_specs()) {
    CHECK(contains(run.out, "\n  " + std::string(verb_name(command.verb))));
    CHECK(contains(run.out, std::string(command.summary) + "\n"));
  }
  for (const ExitStatusSpec& exit : exit_statuses()) {
    const std::string first_words(exit.meaning.substr(0, 40));
    CHECK(contains(run.out, "  " + std::to_string(exit.status) + "  " + first_words));
  }
  for (const std::string& line : testing::lines_of(run.out)) CHECK(line.size() <= 96);
  CHECK(run_cli({}).out == run.out);
}

TEST_CASE("commands: a bad value is refused with its message and exit status 2") {
  for (const char* verb : {"fit", "match", "selfplay", "stats"}) {
    const auto run = run_cli({verb, "-j", "0", "x.pgn"});
    CAPTURE(verb);
    CHECK(run.status == kExitBadOptions);
    CHECK(contains(run.err, "materialist " + std::string(verb) +
                                ": --jobs expects a whole number from 1 to 1024, got '0'"));
  }
  const auto replay = run_cli({"replay", "--help"});
  CHECK(replay.status == 0);
  CHECK(contains(replay.out, "materialist replay: "));
}

TEST_CASE("docs/CLI.md: its reference section is the option table's") {
  const std::string text = testing::read_fixture_text("../../docs/CLI.md");
  const std::string begin = "<!-- reference: made by `materialist help --reference` -->\n";
  const std::string end = "<!-- end of reference -->";
  const std::size_t from = text.find(begin);
  const std::size_t to = text.find(end);
  REQUIRE(from != std::string::npos);
  REQUIRE(to != std::string::npos);
  const std::string section = text.substr(from + begin.size(), to - from - begin.size());
  CHECK_MESSAGE(section == reference_markdown(),
                "docs/CLI.md's reference is stale: run scripts/update-cli-reference.sh");
}

}  // namespace materialist::cli
