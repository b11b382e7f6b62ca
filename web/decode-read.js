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
 * with the file's end ({end: null} when it was read whole), null when cancelled, or "sequential"
 * when a chunk was cut inside a game (a game of more than 8 MiB, or no PGN): only a sequential
 * read then gives the sequential result.
 * @param {EngineModule} wasm @param {Engine} engine @param {File} file @param {number} count
 * @param {ReadOptions} options @param {() => boolean} isCurrent
 * @param {(bytes: number, counts: EngineProgress) => void} onProgress
 * @param {(counts: EngineProgress) => void} onImported
 * @returns {Promise<{end: FileEnd | null} | 'sequential' | null>}
 */
async function readDecodedInParallel(wasm, engine, file, count, options, isCurrent, onProgress, onImported) {
  const read = new DecodedRead(wasm, engine, file, count, options, onImported);
  engine.beginImport(file.name);
  try {
    for (let offset = 0; offset < file.size && !read.sequential; offset += DECODE_SLICE_BYTES) {
      while (read.inFlight >= count * CHUNKS_PER_READER) {
        if (!isCurrent()) return null;
        await read.settle();
      }
      if (!isCurrent()) return null;
      const end = Math.min(file.size, offset + DECODE_SLICE_BYTES);
      const more = read.decode(new Uint8Array(await file.slice(offset, end).arrayBuffer()));
      onProgress(end, read.counts);
      if (!more) break;  // corrupt or unsupported: the chunks before the damage still count
    }
    if (read.sequential) return 'sequential';
    read.finish();
    if (read.sequential) return 'sequential';
    while (read.waiting()) {
      if (!isCurrent()) return null;
      await read.settle();
      onProgress(file.size, read.counts);
    }
    return { end: engine.endDecoded(file.size, read.entries, read.decoder) };
  } finally {
    read.close();
  }
}

const NO_COUNTS = Object.freeze({ bytes: 0, games: 0, used: 0, partial: 0, skipped: 0, rows: 0 });

// One compressed file's parallel read: the decoder, the readers, and the shares imported in file
// order as they come back.
class DecodedRead {
  /**
   * @param {EngineModule} wasm @param {Engine} engine @param {File} file @param {number} count
   * @param {ReadOptions} options @param {(counts: EngineProgress) => void} onImported
   */
  constructor(wasm, engine, file, count, options, onImported) {
    this.wasm = wasm;
    this.engine = engine;
    this.options = options;
    this.onImported = onImported;
    this.decoder = new wasm.ChunkDecoder(file.name, DECODED_CHUNK_BYTES);
    /** @type {number[]} chunks out per reader */
    this.busy = Array.from({ length: count }, () => 0);
    /** @type {({kind: 'chunk', index: number} | {kind: 'end-file', file: string, fileBytes: number})[]} */
    this.sequence = [];  // what to import, in file order
    /** @type {Map<number, ChunkDoneMessage>} */
    this.done = new Map();
    /** @type {Error | null} */
    this.failed = null;
    /** @type {(() => void) | null} */
    this.wake = null;  // resolves the wait for a reader's answer
    this.chunks = 0;    // dispatched
    this.inFlight = 0;  // dispatched, not imported
    this.games = 0;     // in the current entry, before the next chunk to import
    this.lines = 0;     // line breaks in the current entry before it (its readers' parsers' counts)
    this.entries = 0;
    /** @type {EngineProgress} the entry being imported */
    this.counts = { ...NO_COUNTS };
    this.cutInGame = false;  // the last chunk was cut inside a game
    this.sequential = false;  // a chunk started inside a game: only a sequential read will do
    this.readers = startReaders(count, (m, r) => {
      if (m.type === 'chunk-done') {
        this.busy[r] -= 1;
        this.done.set(m.index, m);
      }
      this.nudge();
    }, (error) => {
      this.failed = error;
      this.nudge();
    });
  }

  nudge() {
    if (this.wake) {
      this.wake();
      this.wake = null;
    }
  }

  // The next compressed bytes: decoded, their chunks sent to readers, the ready shares imported.
  // False once the decoder stopped (corrupt or unsupported data).
  /** @param {Uint8Array<ArrayBuffer>} slice @returns {boolean} */
  decode(slice) {
    const pointer = copyIntoEngine(this.wasm, (n) => this.decoder.buffer(n), slice, 'a slice of the compressed file');
    const more = this.decoder.feed(pointer, slice.length);
    this.takePieces();
    this.importReady();
    return more;
  }

  // The end of the compressed bytes: the last chunks go out.
  finish() {
    this.decoder.finish();
    this.takePieces();
  }

  // Shares still to import.
  waiting() { return this.sequence.length > 0; }

  takePieces() {
    for (let piece = this.decoder.next(); piece; piece = this.decoder.next()) {
      if (piece.kind === 'chunk') {
        if (this.cutInGame) this.sequential = true;  // this chunk starts inside a game
        this.cutInGame = !piece.endsBeforeGameStart;
        this.dispatch(piece.bytes, piece.file);
      } else if (piece.kind === 'end-file') {
        this.cutInGame = false;
        this.sequence.push({ kind: 'end-file', file: piece.file, fileBytes: piece.fileBytes });
      }
    }
  }

  // A chunk to the least busy reader (its buffer transferred).
  /** @param {Uint8Array<ArrayBuffer>} bytes @param {string} name */
  dispatch(bytes, name) {
    const r = this.busy.indexOf(Math.min(...this.busy));
    this.busy[r] += 1;
    this.inFlight += 1;
    this.sequence.push({ kind: 'chunk', index: this.chunks });
    /** @type {ReadChunkMessage} */
    const message = { type: 'read-chunk', index: this.chunks++, name, bytes: bytes.buffer, options: this.options };
    this.readers.post(r, message, [bytes.buffer]);
  }

  // Imports the shares that are next in file order, and ends the entries they complete.
  importReady() {
    while (this.sequence.length) {
      const next = this.sequence[0];
      if (next.kind === 'chunk') {
        const share = this.done.get(next.index);
        if (!share) return;
        this.done.delete(next.index);
        this.importShare(share);
      } else {
        this.engine.endDecodedEntry(next.file, next.fileBytes);
        this.entries += 1;
        this.games = 0;
        this.lines = 0;
        this.counts = { ...NO_COUNTS };
      }
      this.sequence.shift();
    }
  }

  /** @param {ChunkDoneMessage} share */
  importShare(share) {
    this.engine.importPart(share.part, this.lines, this.games);
    this.lines += share.lines;
    const n = share.part.tally;
    this.games += n.games;
    const c = this.counts;
    this.counts = { bytes: 0, games: c.games + n.games, used: c.used + n.used, partial: c.partial + n.partial,
      skipped: c.skipped + n.skipped, rows: c.rows + n.rows };
    this.inFlight -= 1;
    this.onImported(this.counts);
  }

  // Waits for a reader's answer (or 50 ms, to notice a cancel), then imports what is ready.
  async settle() {
    await new Promise((resolve) => {
      this.wake = () => resolve(undefined);
      setTimeout(() => this.nudge(), 50);
    });
    if (this.failed) throw this.failed;
    this.importReady();
  }

  close() {
    this.readers.terminate();
    this.decoder.delete();
  }
}
