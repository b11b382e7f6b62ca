// @ts-check
// Words for a WebAssembly heap that ran out (loaded by engine-worker.js with importScripts): how
// to recognise it and what to tell people. The heap grows on demand up to a fixed limit
// (cmake/web.cmake, MAXIMUM_MEMORY); past it an allocation fails and the module aborts.
'use strict';

// What an abort or an allocation failure says when memory ran out: "Aborted(OOM)" (the engine's
// new-handler, src/worker/engine_bindings.cpp), Emscripten's "Cannot enlarge memory", a failed
// chunk buffer, or JavaScript's own allocation failures.
/** @param {string} message @returns {boolean} */
function isOutOfMemory(message) {
  return /\bOOM\b|out of memory|Cannot enlarge memory|allocation failed/i.test(message);
}

/** @param {number} bytes @returns {string} */
function megabytes(bytes) {
  return `${Math.round(bytes / (1 << 20)).toLocaleString('en-US')} MB`;
}

// "The engine ran out of memory (2,048 MB heap of at most 2,048 MB) while reading big.pgn:
// Aborted(OOM). A filter, ...": who ran out, how large its heap was, what it did, what helps.
/** @param {OutOfMemoryFacts} facts @returns {string} */
function outOfMemoryMessage({ who, heapBytes, limitBytes, activity, bootstrap, detail }) {
  const limit = limitBytes > 0 ? ` of at most ${megabytes(limitBytes)}` : '';
  const advice = bootstrap
    ? 'Fewer bootstrap replicates, a filter or a smaller file need less memory.'
    : 'A filter or a smaller file (or several smaller ones) need less memory.';
  return `${who} ran out of memory (${megabytes(heapBytes)} heap${limit}) while ${activity}: ${detail}. ${advice}`;
}

// How a task's failure is told. An abort of the engine worker's own module (out of memory or a
// bug; a JavaScript allocation failure too) leaves nothing to use: `restart`. A parallel
// reader's error (ReaderError) leaves the coordinator's engine intact: `readerAborted` when the
// reader's module ran out of memory. A file that could not be read (FileUnreadableError, from a
// reader too) and anything else is its own message.
/**
 * @param {any} error @param {Omit<OutOfMemoryFacts, 'who' | 'detail'>} facts
 * @returns {{restart: boolean, readerAborted: boolean, message: string}}
 */
function failureOf(error, facts) {
  // Emscripten's advice to developers ("Build with -s ASSERTIONS=1 for more info.") is not for people.
  const detail = (error && error.message ? String(error.message) : String(error))
    .replace(/\s*Build with -s ASSERTIONS=1 for more info\.?/, '').replace(/\.$/, '');
  // A file that could not be read (unreadableFile) is no engine's failure, whatever its name says.
  if (error && error.name === 'FileUnreadableError') return { restart: false, readerAborted: false, message: detail };
  const fromReader = Boolean(error && typeof error === 'object' && 'readerHeapBytes' in error);
  if (fromReader) {
    if (!isOutOfMemory(detail)) return { restart: false, readerAborted: false, message: detail };
    const message = outOfMemoryMessage({ ...facts, who: 'A parallel reader', heapBytes: error.readerHeapBytes, detail });
    return { restart: false, readerAborted: true, message };
  }
  if (isOutOfMemory(detail)) {
    const message = `${outOfMemoryMessage({ ...facts, who: 'The engine', detail })} The engine was restarted; read the files again.`;
    return { restart: true, readerAborted: false, message };
  }
  if (error instanceof WebAssembly.RuntimeError) {
    return { restart: true, readerAborted: false, message: `The engine stopped (${detail}) and was restarted; read the files again.` };
  }
  return { restart: false, readerAborted: false, message: detail };
}
