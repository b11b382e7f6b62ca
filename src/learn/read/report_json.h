// JSON for what a dataset and a fit produced: the CLI's --json output and the worker's messages
// use the same field names (games, skipped, rows, values {P N B R Q}, loss, iterations, ...).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/json.h"
#include "learn/read/dataset.h"
#include "learn/vocabulary/pieces.h"  // piece_key

namespace materialist::learn {

// Writes the report's fields into the currently open JSON object, keys in camelCase: games,
// used, partial, skipped, filtered, rows, gameRows, matRows, matBadLines, plies, bytes,
// gameRowsByOutcome {whiteWins, draws, blackWins}, skippedReasons, partialReasons,
// filteredReasons (keyed by the reasons' names: "unknown-result", ...), files [{name, kind,
// bytes, games, rows, badLines, error}], issueCount and the first `max_issues` issues [{game,
// line, status, reason, detail, rowsKept}].
void write_dataset_fields(JsonWriter& json, const DatasetReport& report, std::size_t max_issues);

// Writes "values": {"P":..,"N":..,...} for the five piece columns of `names` (other columns
// under their own names).
void write_named_values(JsonWriter& json, const char* key, const std::vector<std::string>& names,
                        const std::vector<double>& values);

}  // namespace materialist::learn
