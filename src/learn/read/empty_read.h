// Why a read gave nothing to learn from, said once for every reader of the engine: a code the
// page may switch on, and one sentence for people ("Nothing to learn from: <message>").
//
//   const EmptyRead why = empty_read_of(report.games, target);
//   empty_read_code(why);               // "all-variants"
//   empty_read_message(why, report.games);
//   // "all 3 games are Crazyhouse, Atomic: chess variants Materialist does not learn from (...)"
#pragma once

#include <cstdint>
#include <string>

#include "learn/read/ingest.h"
#include "learn/vocabulary/eval_target.h"

namespace materialist::learn {

enum class EmptyRead : std::uint8_t {
  kNoEvaluations,  // the evaluation target, and no game carries an [%eval]
  kAllVariants,    // every game was removed for its variant (they are named)
  kAllFiltered,    // every game was removed by the filters
  kNoRows,         // every game was skipped, or none recorded a row
};

EmptyRead empty_read_of(const IngestReport& games, Target target);
// "no-evaluations", "all-variants", "all-filtered", "no-rows".
const char* empty_read_code(EmptyRead why);
std::string empty_read_message(EmptyRead why, const IngestReport& games);

// A count and its noun as the page writes them: "1 game", "2,997 games".
std::string count_of(std::uint64_t n, const char* noun);

}  // namespace materialist::learn
