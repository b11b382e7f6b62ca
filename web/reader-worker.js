// @ts-check
// A parallel reader (web/parallel-read.js starts one per byte range of a large file): loads the
// engine, parses its range of the file with its own Engine and answers with its share: histogram,
// report, kept rows and its line count (PROTOCOL.md, "Coordinator ⇄ readers"). One range, then
// the coordinator terminates it.
'use strict';

importScripts('materialist-engine.js');

const CHUNK_BYTES = 1 << 20;       // file slices, as in engine-worker.js
const PROGRESS_INTERVAL_MS = 150;  // as in engine-worker.js

/** @param {ReaderMessage} message @param {Transferable[]} [transfer] */
function reply(message, transfer = []) { self.postMessage(message, transfer); }

// Parses [start, end) of a file and answers with its share; counts lines for the coordinator.
/** @param {EngineModule} wasm @param {ReadRangeMessage} message */
async function serveRange(wasm, message) {
  const { file, start, end, options } = message;
  const engine = new wasm.Engine();
  const refused = engine.beginRead(JSON.stringify({ ...options, keepRows: true }));
  if (refused) throw new Error(refused);
  engine.beginFile(file.name, end - start);
  let lines = 0;
  let last = 0;
  for (let offset = start; offset < end; offset += CHUNK_BYTES) {
    const bytes = new Uint8Array(await file.slice(offset, Math.min(end, offset + CHUNK_BYTES)).arrayBuffer());
    for (let i = bytes.indexOf(0x0a); i >= 0; i = bytes.indexOf(0x0a, i + 1)) ++lines;
    const pointer = engine.chunkBuffer(bytes.length);
    wasm.HEAPU8.set(bytes, pointer);
    if (!engine.feed(pointer, bytes.length)) break;
    const now = performance.now();
    if (now - last > PROGRESS_INTERVAL_MS) {
      last = now;
      reply({ type: 'range-progress', progress: { ...JSON.parse(engine.progress()), bytes: offset + bytes.length - start } });
    }
  }
  const error = engine.endFile();
  const part = engine.exportPart();
  const progress = JSON.parse(engine.progress());
  engine.delete();
  reply({ type: 'range-done', part, lines, error, progress },
    [part.keys.buffer, part.counts.buffer, part.report.buffer, part.rows.buffer]);
}

// The range may arrive while the engine loads: it waits for it.
const loading = createMaterialistEngine();
self.onmessage = (event) => {
  const message = /** @type {ReadRangeMessage} */ (event.data);  // structured clone: typed by PROTOCOL.md
  loading.then((wasm) => serveRange(wasm, message)).catch((error) => {
    reply({ type: 'range-error', message: error && error.message ? error.message : String(error) });
  });
};
