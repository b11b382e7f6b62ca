// @ts-check
// The reader workers of one parallel read (loaded by engine-worker.js with importScripts; used by
// parallel-read.js and decode-read.js): started together, each reader's answers handed on, a
// reader's failure (the range-error it sends, or an error that stops it) turned into a
// ReaderError, and every reader terminated at the end.
'use strict';

const READER_NAME = 'materialist-reader';  // the readers' worker name, as devtools list them

// A reader's failure as an Error; `readerHeapBytes` tells the coordinator it came from a reader
// (whose module may have aborted: out of memory) and how large its heap was.
/** @param {Pick<RangeErrorMessage, 'message' | 'heapBytes' | 'unreadable'>} m @returns {ReaderError} */
function readerError(m) {
  const error = Object.assign(new Error(m.message), { readerHeapBytes: m.heapBytes || 0 });
  if (m.unreadable) error.name = 'FileUnreadableError';  // the file's fault, not the reader's
  return error;
}

/**
 * Starts `count` readers (reader-worker.js). `onMessage(m, i)` gets reader i's answers but its
 * range-error; `onFailure(error, i)` its failure.
 * @param {number} count @param {(m: ReaderMessage, reader: number) => void} onMessage
 * @param {(error: ReaderError, reader: number) => void} onFailure
 * @returns {{post: (reader: number, message: CoordinatorMessage, transfer?: Transferable[]) => void, terminate: () => void}}
 */
function startReaders(count, onMessage, onFailure) {
  const readers = Array.from({ length: count }, () => new Worker('reader-worker.js', { name: READER_NAME }));
  readers.forEach((reader, i) => {
    reader.onmessage = (event) => {
      const m = /** @type {ReaderMessage} */ (event.data);  // structured clone: typed by PROTOCOL.md
      if (m.type === 'range-error') onFailure(readerError(m), i);
      else onMessage(m, i);
    };
    // Handled here: unprevented, a reader's error (also one a cancel causes, terminating it while
    // it loads its scripts) would go on to the engine worker's global scope and from there to the
    // page, which reports "The engine worker failed". It is this read's error, a reader's.
    reader.onerror = (event) => {
      event.preventDefault();
      onFailure(readerError({ message: `a parallel reader stopped: ${event.message || 'no reason given'}` }), i);
    };
  });
  return {
    post: (i, message, transfer = []) => readers[i].postMessage(message, transfer),
    terminate: () => readers.forEach((reader) => reader.terminate()),
  };
}
