#include "learn/read/empty_read.h"

#include <array>

#include "core/enum_names.h"
#include "core/text.h"

namespace materialist::learn {

namespace {

constexpr std::array<const char*, 4> kEmptyReadCodes = {"no-evaluations", "all-variants",
                                                        "all-filtered", "no-rows"};

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) {
    if (!text.empty()) text += ", ";
    text += name;
  }
  return text;
}

}  // namespace

EmptyRead empty_read_of(const IngestReport& games, Target target) {
  if (target == Target::kEval && games.games_with_evals == 0 && games.games_without_evals > 0) {
    return EmptyRead::kNoEvaluations;
  }
  if (games.games_read > 0 && games.games_filtered == games.games_read) {
    const bool variants = games.filter_tally.count(FilterReason::kVariant) == games.games_read;
    return variants && !games.filtered_variants.empty() ? EmptyRead::kAllVariants
                                                        : EmptyRead::kAllFiltered;
  }
  return EmptyRead::kNoRows;
}

const char* empty_read_code(EmptyRead why) {
  return name_of(kEmptyReadCodes, why);
}

std::string empty_read_message(EmptyRead why, const IngestReport& games) {
  switch (why) {
    case EmptyRead::kNoEvaluations:
      return "none of the " + count_of(games.games_without_evals, "game") +
             " carries an engine evaluation ([%eval] comments), and the evaluation target learns "
             "only from annotated positions. Read games with evaluations (lichess: evals=true in "
             "the API, \"Include analysis\" when downloading), or choose Target: game result in "
             "Settings (Read)";
    case EmptyRead::kAllVariants:
      return "all " + count_of(games.games_read, "game") + " are " +
             joined(games.filtered_variants) +
             ": chess variants Materialist does not learn from (it learns from standard chess, "
             "and from Chess960 when \"keep Chess960\" is on)";
    case EmptyRead::kAllFiltered:
      return "the filters removed all " + count_of(games.games_read, "game") +
             " (each filter's count is under the values)";
    case EmptyRead::kNoRows:
      break;
  }
  return "no game produced a row (every game was skipped: see the data report)";
}

std::string count_of(std::uint64_t n, const char* noun) {
  std::string text = grouped(n) + ' ';
  text += noun;
  if (n != 1) text += 's';
  return text;
}

}  // namespace materialist::learn
