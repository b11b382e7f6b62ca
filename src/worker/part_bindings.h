// A reader's share of a parallel read (worker::Part) as it travels between Web Workers
// (web/reader-worker.js → web/read-sources.js, web/decode-read.js): a plain object of typed
// arrays, transferred without a copy, with its counts by name in `tally` (games, used, partial,
// skipped, rows) for the coordinator's progress. Both ends of the transfer are this file.
//
//   val part = part_object(engine.export_part());        // a reader
//   engine.import_part(part_from_object(part), lines, games);  // the coordinator
#pragma once

#include <emscripten/val.h>

#include "worker/part_import.h"

namespace materialist::worker {

emscripten::val part_object(const Part& part);
Part part_from_object(const emscripten::val& object);

}  // namespace materialist::worker
