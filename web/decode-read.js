// @ts-check
// Parallel reading of one compressed file (loaded by engine-worker.js with importScripts): this
// worker decodes it (the engine's ChunkDecoder: zstd, gzip, bzip2, zip entries as files
// "<zip>:<entry>") into chunks cut at game starts, transfers each chunk's buffer to a reader
// (reader-worker.js, read-chunk), and imports the readers' shares in file order into its own
// engine, so the result is the same as a sequential read. At most CHUNKS_PER_READER chunks per
// reader are in flight (decoded, not yet imported): memory stays bounded on any file size.
'use strict';

const DECODE_SLICE_BYTES = 1 << 18;       // compressed bytes per feed: a few chunks out at most
const DECODED_CHUNK_BYTES = 2 << 20;      // a chunk ends at the first game start from here on
const CHUNKS_PER_READER = 2;              // one parsed, the next ones waiting: no reader idles

/**
 * Reads `file` with `count` readers into `engine`'s pending read (beginImport … endDecoded).
 * `onProgress(bytes, counts)` gets the compressed bytes decoded and the counts of the entry
 * being imported (those of ended entries are the engine's own progress);
 * `onImported(counts)` follows each import with the counts after it (the estimates). Resolves
 * with the file's error ("" when none), null when cancelled, or "sequential" when a chunk was cut
 * inside a game (a game of more than 8 MiB, or no PGN): only a sequential read then gives the
 * sequential result.
 * @param {EngineModule} wasm @param {Engine} engine @param {File} file @param {number} count
 * @param {ReadOptions} options @param {() => boolean} isCurrent
 * @param {(bytes: number, counts: EngineProgress) => void} onProgress
 * @param {(counts: EngineProgress) => void} onImported
 * @returns {Promise<string | null>}
 */
async function readDecodedInParallel(wasm, engine, file, count, options, isCurrent, onProgress, onImported) {
  const decoder = new wasm.ChunkDecoder(file.name, DECODED_CHUNK_BYTES);
  /** @type {number[]} */
  const busy = Array.from({ length: count }, () => 0);
  /** @type {({kind: 'chunk', index: number} | {kind: 'end-file', file: string, fileBytes: number})[]} */
  const sequence = [];  // what to import, in file order
  /** @type {Map<number, ChunkDoneMessage>} */
  const done = new Map();
  /** @type {Error | null} */
  let failed = null;
  /** @type {(() => void) | null} */
  let wake = null;  // resolves the wait for a reader's answer
  const nudge = () => { if (wake) { wake(); wake = null; } };
  const readers = startReaders(count, (m, r) => {
    if (m.type === 'chunk-done') {
      busy[r] -= 1;
      done.set(m.index, m);
    }
    nudge();
  }, (error) => {
    failed = error;
    nudge();
  });
  let chunks = 0;    // dispatched
  let inFlight = 0;  // dispatched, not imported
  let games = 0;     // in the current entry, before the next chunk to import
  let lines = 0;     // line breaks in the current entry before it (its readers' parsers' counts)
  let entries = 0;
  /** @type {EngineProgress} */
  let counts = { bytes: 0, games: 0, used: 0, partial: 0, skipped: 0, rows: 0 };
  let cutInGame = false;  // the last chunk was cut inside a game
  let sequential = false;
  // Imports the shares that are next in file order.
  const importReady = () => {
    while (sequence.length) {
      const next = sequence[0];
      if (next.kind === 'chunk') {
        const share = done.get(next.index);
        if (!share) return;
        done.delete(next.index);
        engine.importPart(share.part, lines, games);
        lines += share.lines;
        const n = share.part.tally;
        games += n.games;
        counts = { bytes: 0, games: counts.games + n.games, used: counts.used + n.used, partial: counts.partial + n.partial,
          skipped: counts.skipped + n.skipped, rows: counts.rows + n.rows };
        inFlight -= 1;
        onImported(counts);
      } else {
        engine.endDecodedEntry(next.file, next.fileBytes);
        entries += 1;
        games = 0;
        lines = 0;
        counts = { bytes: 0, games: 0, used: 0, partial: 0, skipped: 0, rows: 0 };
      }
      sequence.shift();
    }
  };
  /** @param {Uint8Array<ArrayBuffer>} bytes @param {string} name */
  const dispatch = (bytes, name) => {
    const r = busy.indexOf(Math.min(...busy));
    busy[r] += 1;
    inFlight += 1;
    sequence.push({ kind: 'chunk', index: chunks });
    /** @type {ReadChunkMessage} */
    const message = { type: 'read-chunk', index: chunks++, name, bytes: bytes.buffer, options };
    readers.post(r, message, [bytes.buffer]);
  };
  const takePieces = () => {
    for (let piece = decoder.next(); piece; piece = decoder.next()) {
      if (piece.kind === 'chunk') {
        if (cutInGame) sequential = true;  // this chunk starts inside a game
        cutInGame = !piece.endsBeforeGameStart;
        dispatch(piece.bytes, piece.file);
      } else if (piece.kind === 'end-file') {
        cutInGame = false;
        sequence.push({ kind: 'end-file', file: piece.file, fileBytes: piece.fileBytes });
      }
    }
  };
  // Waits for a reader's answer (or 50 ms, to notice a cancel), then imports what is ready.
  const settle = async () => {
    await new Promise((resolve) => {
      wake = () => resolve(undefined);
      setTimeout(nudge, 50);
    });
    if (failed) throw failed;
    importReady();
  };

  engine.beginImport(file.name);
  try {
    let offset = 0;
    for (; offset < file.size && !sequential; offset += DECODE_SLICE_BYTES) {
      while (inFlight >= count * CHUNKS_PER_READER) {
        if (!isCurrent()) return null;
        await settle();
      }
      if (!isCurrent()) return null;
      const slice = new Uint8Array(await file.slice(offset, Math.min(file.size, offset + DECODE_SLICE_BYTES)).arrayBuffer());
      const pointer = copyIntoEngine(wasm, (n) => decoder.buffer(n), slice, 'a slice of the compressed file');
      const more = decoder.feed(pointer, slice.length);
      takePieces();
      importReady();
      onProgress(Math.min(file.size, offset + DECODE_SLICE_BYTES), counts);
      if (!more) break;  // corrupt or unsupported: the chunks before the damage still count
    }
    if (sequential) return 'sequential';
    decoder.finish();
    takePieces();
    if (sequential) return 'sequential';
    while (sequence.length) {
      if (!isCurrent()) return null;
      await settle();
      onProgress(file.size, counts);
    }
    return engine.endDecoded(file.size, entries, decoder);
  } finally {
    readers.terminate();
    decoder.delete();
  }
}
