// Every command and option of the command line, declared once: names, value, range, default,
// help and the commands that take it. Parsing, validation and its messages (cli/arguments.h),
// each command's --help and docs/CLI.md's reference (cli/help.h) are made from these tables.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "cli/failure.h"  // the exit statuses

namespace materialist::cli {

enum class Verb : std::uint8_t {
  kRows,
  kFit,
  kCompare,
  kStats,
  kPositions,
  kMatch,
  kAnalyse,
  kSelfplay,
  kUci,
  kBook,
  kElo,
  kReplay,
};
inline constexpr std::array kVerbNames = {"rows",      "fit",   "compare", "stats",
                                          "positions", "match", "analyse", "selfplay",
                                          "uci",       "book",  "elo",     "replay"};
static_assert(kVerbNames.size() == static_cast<std::size_t>(Verb::kReplay) + 1);

// A set of commands, one bit each.
class VerbSet {
 public:
  constexpr VerbSet(std::initializer_list<Verb> verbs) {
    for (const Verb verb : verbs) bits_ |= bit(verb);
  }
  constexpr bool has(Verb verb) const { return (bits_ & bit(verb)) != 0; }
  constexpr VerbSet operator|(VerbSet other) const { return VerbSet(bits_ | other.bits_); }

 private:
  constexpr explicit VerbSet(std::uint32_t bits) : bits_(bits) {}
  static constexpr std::uint32_t bit(Verb verb) { return 1u << static_cast<unsigned>(verb); }
  std::uint32_t bits_ = 0;
};

// Every option, in the order of the help pages.
enum class Opt : std::uint8_t {
  // data
  kPreset,
  kQuietPlies,
  kChecksQuiet,
  kEveryPosition,
  kSkipPlies,
  kFilter,
  kEach,
  kBy,
  // model
  kSolver,
  kOutcomes,
  kTarget,
  kTargets,
  kIterations,
  kAlpha,
  kLambda,
  kIntercept,
  kNoIntercept,
  kSideToMove,
  kBishopPair,
  kPhase,
  kEloOffset,
  kImbalance,
  kSplitSides,
  kModel,
  kMaxPositions,
  kSquaresLambda,
  kUnits,
  kBootstrap,
  // output
  kGameIds,
  kExportMat,
  kExportSquares,
  kFormat,
  kSplit,
  kLogEvery,
  // reading
  kChunkBytes,
  kMaxGames,
  kMaxMb,
  // a player's games
  kLichess,
  kChesscom,
  kSpeed,
  kRated,
  kSince,
  kUntil,
  kBothSides,
  // statistics files
  kOutput,
  kRange,
  kFileIndex,
  // value sets and the engine
  kValues,
  kVs,
  kRoundRobin,
  kNodes,
  kDepth,
  kMovetime,
  kMaterialOnly,
  kHashMb,
  kFen,
  // matches
  kPairs,
  kRounds,
  kBook,
  kBookPlies,
  kDraw,
  kNoDrawAdjudication,
  kResign,
  kNoResign,
  kMaxPlies,
  kNoAdjudication,
  kPgn,
  kOut,
  // match statistics
  kSprt,
  kLogistic,
  kPenta,
  kWdl,
  kSets,
  kPair,
  kPairPenta,
  kAnchor,
  kLevel,
  // shared by many commands
  kSeed,
  kJobs,
  kJson,
  kNoProgress,
  kCount,
};

enum class ValueKind : std::uint8_t {
  kSwitch,   // no value
  kInteger,  // a whole number within [minimum, maximum]
  kNumber,   // a finite number, by NumberRule
  kChoice,   // one of `choices`
  kText,     // any text that `check` accepts
};

enum class NumberRule : std::uint8_t { kAny, kNonNegative, kPositive };

enum class Section : std::uint8_t {
  kData,
  kModel,
  kOutput,
  kReading,
  kPlayer,
  kStatistics,
  kEngine,
  kPlaying,
  kMatchStatistics,
  kGeneral,
};
inline constexpr std::array kSectionTitles = {
    "Data options",
    "Model options",
    "Output options",
    "Reading options",
    "A player's games",
    "Statistics files",
    "Value sets and the engine",
    "Matches",
    "Match statistics",
    "General options",
};
static_assert(kSectionTitles.size() == static_cast<std::size_t>(Section::kGeneral) + 1);

// The reason a text option's value is refused ("ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA"), or none.
using ValueCheck = std::optional<std::string> (*)(std::string_view value);

struct OptionSpec {
  Opt id = Opt::kCount;
  std::string_view name = {};   // "--jobs"
  std::string_view alias = {};  // "-j", or empty
  ValueKind kind = ValueKind::kSwitch;
  std::string_view value_name = {};  // "N" in the help; empty for a switch
  VerbSet verbs = {};
  Section section = Section::kGeneral;
  std::string_view help = {};          // lines, '\n' between them
  std::string_view default_text = {};  // shown as "(default: ...)"; empty when there is none
  std::int64_t minimum = 0;            // kInteger
  std::int64_t maximum = 0;
  NumberRule number_rule = NumberRule::kAny;  // kNumber
  std::span<const char* const> choices = {};  // kChoice
  ValueCheck check = nullptr;                 // kText
  bool repeatable = false;                    // else given at most once
};

struct CommandSpec {
  Verb verb;
  std::string_view summary;   // one line for the global help
  std::string_view usage;     // usage lines, '\n' between them (without "materialist ")
  std::string_view notes;     // paragraphs after the options; may be empty
  std::string_view operands;  // what the operands are ("FILE..."), empty when none are taken
};

// Every option, indexed by Opt.
std::span<const OptionSpec> option_specs();
const OptionSpec& spec_of(Opt id);
// The option spelled `name` ("--jobs" or "-j"), whichever commands take it.
const OptionSpec* find_option(std::string_view name);

std::span<const CommandSpec> command_specs();
const CommandSpec& spec_of(Verb verb);
std::optional<Verb> verb_named(std::string_view name);
inline const char* verb_name(Verb verb) {
  return kVerbNames[static_cast<std::size_t>(verb)];
}

// Exit statuses, one table for every command, its help and the docs.
struct ExitStatusSpec {
  int status;
  std::string_view meaning;
};
std::span<const ExitStatusSpec> exit_statuses();

}  // namespace materialist::cli
