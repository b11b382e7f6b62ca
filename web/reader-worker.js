// @ts-check
// A parallel reader (web/parallel-read.js starts them for a large file): loads the engine and
// parses what the coordinator sends with its own Engine (PROTOCOL.md, "Coordinator ⇄ readers"):
// - read-range: a byte range of a plain file, answered by its share (histogram, report, line
//   count) and, every `liveMs` meanwhile (twice a second), its live share for the coordinator's estimate;
// - read-chunk: a decompressed piece of a compressed file (cut at a game start, its buffer
//   transferred), answered by that piece's share. One Engine serves every chunk.
'use strict';

importScripts('materialist-engine.js', 'engine-reply.js', 'file-slices.js', 'engine-memory.js');

const CHUNK_BYTES = 1 << 20;       // a decompressed chunk is fed in pieces of this size
const FILE_SLICE_BYTES = 4 << 20;  // file slices, as in engine-worker.js
const PROGRESS_INTERVAL_MS = 150;  // as in engine-worker.js
const SQUARES_PREVIEW_ESTIMATES = 4;  // a sample of kept positions every 4 live shares' time (as there)

/** @param {ReaderMessage} message @param {Transferable[]} [transfer] */
function reply(message, transfer = []) { self.postMessage(message, transfer); }

// The buffers of a share's typed arrays: transferred, not copied.
/** @param {Part} part @returns {Transferable[]} */
const partBuffers = (part) => Object.values(part).filter((v) => ArrayBuffer.isView(v)).map((v) => v.buffer);

// Copies bytes into the engine's buffer and parses them; false once the engine rejects them.
/** @param {EngineModule} wasm @param {Engine} engine @param {Uint8Array} bytes */
function feed(wasm, engine, bytes) {
  const pointer = copyIntoEngine(wasm, (n) => engine.chunkBuffer(n), bytes, 'a chunk of input');
  return engine.feed(pointer, bytes.length);
}

// Parses [start, end) of a file and answers with its share and the line breaks its parser read
// (the coordinator's line offset for the next range).
/** @param {EngineModule} wasm @param {ReadRangeMessage} message */
async function serveRange(wasm, message) {
  const { file, start, end, options } = message;
  const engine = new wasm.Engine();
  const begun = engineReply(engine.beginRead(JSON.stringify(options)));
  if (begun.error) throw new Error(begun.error.message);
  engine.beginRange(file.name, start === 0);  // no whole-file errors: the coordinator judges the file
  let lastProgress = 0;
  let lastLive = performance.now();
  const previewMs = SQUARES_PREVIEW_ESTIMATES * (message.liveMs || 0);
  let lastSquares = performance.now() - previewMs;  // the first sample with the first share
  let offset = start;  // of this slice
  try {
    for await (const bytes of fileSlices(file, start, end, FILE_SLICE_BYTES)) {  // the next one read meanwhile
      if (!feed(wasm, engine, bytes)) break;
      const now = performance.now();
      if (now - lastProgress > PROGRESS_INTERVAL_MS) {
        lastProgress = now;
        reply({ type: 'range-progress', progress: { ...JSON.parse(engine.progress()), bytes: offset + bytes.length - start } });
      }
      if (message.liveMs && now - lastLive > message.liveMs) {
        lastLive = now;
        // A sample of the kept positions now and then, for the live values by square.
        const withSquares = Boolean(options.keep && options.keep.boards) && now - lastSquares > previewMs;
        if (withSquares) lastSquares = now;
        const part = engine.exportLivePart(withSquares);
        reply({ type: 'range-live', part }, partBuffers(part));
      }
      offset += bytes.length;
    }
  } catch (error) {
    throw unreadableFile(file.name, 0, error);
  }
  const error = engine.endFile();
  const part = engine.exportPart();
  const lines = engine.lineBreaks();
  const progress = JSON.parse(engine.progress());
  engine.delete();
  reply({ type: 'range-done', part, lines, error, progress }, partBuffers(part));
}

// Parses one decompressed chunk as a file of its own and answers with its share.
/** @param {EngineModule} wasm @param {Engine} engine @param {ReadChunkMessage} message */
function serveChunk(wasm, engine, message) {
  const begun = engineReply(engine.beginRead(JSON.stringify(message.options)));
  if (begun.error) throw new Error(begun.error.message);
  engine.beginFile(message.name, message.bytes.byteLength);
  const bytes = new Uint8Array(message.bytes);
  for (let at = 0; at < bytes.length; at += CHUNK_BYTES) {
    if (!feed(wasm, engine, bytes.subarray(at, Math.min(bytes.length, at + CHUNK_BYTES)))) break;
  }
  const error = engine.endFile();
  const part = engine.exportPart();
  const lines = engine.lineBreaks();
  engine.cancelRead();  // the chunk's data goes now, not with the next chunk
  reply({ type: 'chunk-done', index: message.index, part, lines, error }, partBuffers(part));
}

// An abort of the module (out of memory, a bug) or a file the browser would not read
// (unreadableFile) ends this reader: the coordinator says why.
/** @param {EngineModule | null} wasm @param {unknown} error */
function fail(wasm, error) {
  const message = error instanceof Error ? error.message : String(error);
  const unreadable = error instanceof Error && error.name === 'FileUnreadableError';
  reply({ type: 'range-error', message, heapBytes: wasm ? wasm.HEAPU8.length : 0, ...(unreadable ? { unreadable } : {}) });
}

// The reader's one mutable state: the loaded module (for fail: its heap), the one Engine of
// read-chunk messages, and the queue that keeps messages in order while the engine loads.
/** @type {{wasm: EngineModule | null, chunkEngine: Engine | null, queue: Promise<void>}} */
const reader = { wasm: null, chunkEngine: null, queue: Promise.resolve() };
const loading = createMaterialistEngine().then((wasm) => { reader.wasm = wasm; return wasm; });
self.onmessage = (event) => {
  const message = /** @type {CoordinatorMessage} */ (event.data);  // structured clone: typed by PROTOCOL.md
  reader.queue = reader.queue.then(() => loading).then(async (wasm) => {
    if (message.type === 'read-range') await serveRange(wasm, message);
    else if (message.type === 'read-chunk') serveChunk(wasm, reader.chunkEngine || (reader.chunkEngine = new wasm.Engine()), message);
  }).catch((error) => fail(reader.wasm, error));
};
