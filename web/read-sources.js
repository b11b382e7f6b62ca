// Reading the chosen sources into the engine (loaded by engine-worker.js with importScripts, in
// its realm: it uses the worker's state and helpers): each file in parallel (decoded here, or by
// ranges) or in order, with live progress and estimates; statistics files imported whole.
'use strict';

/**
 * What one read shares between its files: the engine, the files, the progress and live estimates
 * it posts, and what it found wrong.
 * @typedef {object} ReadContext
 * @property {Engine} engine
 * @property {Source[]} sources
 * @property {{name: string, size: number}[]} files
 * @property {number} myJob
 * @property {AbortSignal | undefined} signal
 * @property {ReturnType<typeof readOptionsOf> & {keep: unknown}} options
 * @property {FileNote[]} fileErrors
 * @property {{helperSlices: number}} tally  slices read by the helper worker (offThreadSlices)
 * @property {number} doneBytes  of the files read whole
 * @property {number} mostReaders  the most parallel readers one file of this read had
 * @property {EngineProgress | null} readers  the summed progress of parallel readers while they run
 * @property {(fileIndex: number, fileBytes: number, force: boolean) => void} sendProgress
 * @property {(shares?: Part[], samples?: Part[]) => boolean} sendEstimate
 */

/**
 * A read's context, with its progress and its live estimates: an exact fit of the data read so far
 * at most every worker.estimateMs (what this engine read or imported, and the parallel readers'
 * live shares). sendEstimate is true when it posted one: the caller then posts the progress of the
 * same moment, so that the status line's games and the estimate's agree.
 * @param {Source[]} sources @param {number} myJob @param {ReadContext['options']} options
 * @returns {ReadContext}
 */
function readContext(sources, myJob, options) {
  const { engine } = loaded();
  const files = sources.map(describe);
  const started = performance.now();
  let lastProgress = 0;
  let lastEstimate = performance.now();
  const previewMs = SQUARES_PREVIEW_ESTIMATES * worker.estimateMs;
  let lastSquares = performance.now() - previewMs;  // the first preview at the first estimate
  let squaresCost = 0;
  // Values by square live: a preview of a sample now and then, at most a fifth of the read's
  // time (the next one waits four times the last one's cost).
  /** @param {Part[]} samples the readers' samples of kept positions */
  const previewSquares = (samples) => {
    if (!(worker.settings.model && worker.settings.model.squares) || !(options.keep && options.keep.boards)) return;
    const now = performance.now();
    if (now - lastSquares < Math.max(previewMs, 4 * squaresCost)) return;
    const preview = engineReply(engine.fitSquaresLive(samples, JSON.stringify(worker.settings)));
    // Settings the engine cannot read end the read with the error (the fit could not use them).
    if (preview.error) throw new Error(`Cannot preview values by square: ${preview.error.message}`);
    if (!('type' in preview.value)) return;  // too few positions yet: tried again at the next estimate
    lastSquares = performance.now();
    squaresCost = lastSquares - now;
    post(preview.value);
  };
  /** @type {ReadContext} */
  const ctx = {
    engine, sources, files, myJob, options, signal: worker.downloads ? worker.downloads.signal : undefined,
    fileErrors: [], tally: { helperSlices: 0 }, doneBytes: 0, mostReaders: 1, readers: null,
    sendProgress: (fileIndex, fileBytes, force) => {
      const now = performance.now();
      if (!force && now - lastProgress < PROGRESS_INTERVAL_MS) return;
      lastProgress = now;
      const totalBytes = files.reduce((sum, f) => sum + f.size, 0);
      const bytes = ctx.doneBytes + fileBytes;
      const seconds = Math.max(1e-3, (now - started) / 1000);
      const rate = bytes / seconds;
      const p = JSON.parse(engine.progress());
      if (ctx.readers) for (const key of COUNT_KEYS) p[key] += ctx.readers[key];
      post({
        type: 'progress', bytes, totalBytes, games: p.games, used: p.used + p.partial,
        skipped: p.skipped, rows: p.rows, mbps: rate / 1e6,
        eta: totalBytes > bytes && rate > 0 ? (totalBytes - bytes) / rate : (totalBytes > 0 ? 0 : -1),
        file: files[fileIndex].name, fileIndex, fileCount: files.length,
      });
    },
    sendEstimate: (shares = [], samples = []) => {
      const now = performance.now();
      if (now - lastEstimate < worker.estimateMs) return false;
      const estimated = engineReply(engine.estimateWith(shares, JSON.stringify(worker.settings)));
      if (estimated.error) throw new Error(`Cannot estimate: ${estimated.error.message}`);
      const estimate = estimated.value;
      lastEstimate = performance.now();  // the fit's own time is not counted as reading
      if (estimate.fits.length === 0) return false;
      post(estimate);
      previewSquares(samples);
      return true;
    },
  };
  return ctx;
}

// A compressed file decoded here, parsed by parallel readers chunk by chunk (decode-read.js) and
// imported in order. 'sequential' when a chunk was cut inside a game (read everything again, in
// order), null when cancelled.
/** @param {ReadContext} ctx @param {number} i @param {number} count @param {(error: unknown) => never} unreadable */
async function readDecoded(ctx, i, count, unreadable) {
  const file = ctx.files[i];
  const source = /** @type {Source & {kind: 'file'}} */ (ctx.sources[i]);
  ctx.mostReaders = Math.max(ctx.mostReaders, count);
  let decodedBytes = 0;
  const outcome = await readDecodedInParallel(loaded().wasm, ctx.engine, source.file, count, ctx.options,
    () => ctx.myJob === worker.job, (bytes, counts) => {
      ctx.readers = counts;
      decodedBytes = bytes;
      ctx.sendProgress(i, bytes, false);
    }, (counts) => {
      ctx.readers = counts;  // the status line's games then agree with the estimate's
      if (ctx.sendEstimate()) ctx.sendProgress(i, decodedBytes, true);
    }).catch(unreadable);
  ctx.readers = null;
  if (outcome === null || ctx.myJob !== worker.job) return null;
  if (outcome === 'sequential') return 'sequential';
  noteFileEnd(ctx.fileErrors, file.name, outcome.end);
  ctx.doneBytes += file.size;
  ctx.sendProgress(i, 0, true);
  return 'done';
}

// A file's problem as the read lists it: its name with the engine's words, and whether games
// before the problem are in the data (the engine's inPart, never read from the words; `keptBefore`:
// earlier ranges of the same file gave positions).
/** @param {FileNote[]} notes @param {string} name @param {FileEnd | null} end @param {boolean} [keptBefore] */
function noteFileEnd(notes, name, end, keptBefore = false) {
  if (end) notes.push({ text: `${name}: ${end.message}`, inPart: end.inPart || keptBefore });
}

// A large plain file: several readers, one range each; their shares are imported in order.
// Null when cancelled.
/** @param {ReadContext} ctx @param {number} i @param {number} count @param {(error: unknown) => never} unreadable */
async function readRanges(ctx, i, count, unreadable) {
  const file = ctx.files[i];
  const source = /** @type {Source & {kind: 'file'}} */ (ctx.sources[i]);
  const { engine, fileErrors } = ctx;
  engine.beginImport(file.name);  // names the estimates; imports begin after the readers
  let readBytes = 0;
  const shares = await readInParallel(source.file, count, ctx.options, worker.estimateMs, () => ctx.myJob === worker.job, (sum) => {
    ctx.readers = sum;
    readBytes = sum.bytes;
    ctx.sendProgress(i, sum.bytes, false);
  }, (shares, samples) => {
    if (ctx.myJob === worker.job && ctx.sendEstimate(shares, samples)) ctx.sendProgress(i, readBytes, true);
  }).catch(unreadable);
  ctx.readers = null;
  if (!shares || ctx.myJob !== worker.job) return null;
  ctx.mostReaders = Math.max(ctx.mostReaders, shares.length);  // fewer than asked when few games start
  engine.beginImport(file.name);
  let lines = 0;
  let games = 0;
  let rows = 0;  // of the earlier ranges: a later range's error keeps them
  const notedBefore = fileErrors.length;
  /** @type {Set<string>} */
  const said = new Set();  // the ranges' errors, each once
  for (const share of shares) {
    engine.importPart(share.part, lines, games);
    if (share.error && !said.has(share.error.message)) {
      said.add(share.error.message);
      noteFileEnd(fileErrors, file.name, share.error, rows > 0);
    }
    lines += share.lines;
    games += share.part.tally.games;
    rows += share.part.tally.rows;
  }
  const noGames = engine.endImport(file.size);  // a file without games: said unless a range said why
  if (fileErrors.length === notedBefore) noteFileEnd(fileErrors, file.name, noGames);
  ctx.doneBytes += file.size;
  ctx.sendProgress(i, 0, true);
  return 'done';
}

// A file read here, chunk by chunk. 'stop' at the read limit (no further byte, no further file),
// null when cancelled or superseded (the new task owns the engine).
/** @param {ReadContext} ctx @param {number} i */
async function readInOrder(ctx, i) {
  const file = ctx.files[i];
  const { engine } = ctx;
  engine.beginFile(file.name, file.size);
  let fileBytes = 0;  // of the source (compressed bytes for a compressed file)
  for await (const chunk of chunksOf(ctx.sources[i], (size) => { file.size = size; }, ctx.signal, ctx.tally)) {
    if (ctx.myJob !== worker.job) return null;
    fileBytes = chunk.source;
    if (!feed(chunk.data)) break;  // rejected (binary): stop reading this file
    ctx.sendProgress(i, fileBytes, ctx.sendEstimate());
    await yieldToMessages();
    if (ctx.myJob !== worker.job) return null;
  }
  noteFileEnd(ctx.fileErrors, file.name, engine.endFile());
  const stopped = engine.limitReached();
  ctx.doneBytes += stopped ? fileBytes : Math.max(fileBytes, file.size);
  ctx.sendProgress(i, 0, true);
  return stopped ? 'stop' : 'done';
}

// The read's end: the report posted, and when the data were committed, the read's settings kept.
/** @param {ReadContext} ctx @param {string} key @param {KeyFields} keep @param {number} started */
function endRead(ctx, key, keep, started) {
  const committed = ctx.engine.endRead();
  const seconds = (performance.now() - started) / 1000;
  const report = JSON.parse(ctx.engine.report());
  report.seconds = seconds;
  report.mbps = seconds > 0 ? ctx.doneBytes / seconds / 1e6 : 0;
  report.bytesRead = ctx.doneBytes;
  report.helperSlices = ctx.tally.helperSlices;
  report.readers = ctx.mostReaders;
  if (!committed) report.bytes = ctx.doneBytes;
  post({ type: 'report', report, committed });
  if (committed) {
    worker.unread = null;  // the read's settings are now those of the data
    worker.lastSources = ctx.sources;
    worker.readKey = key;
    worker.kept = keep;
    worker.fromStats = false;
    post(JSON.parse(ctx.engine.balance()));
  }
  return { committed, fileErrors: ctx.fileErrors, report };
}

/**
 * Reads the sources into the engine: each file in parallel (decoded here, or by ranges) or in
 * order, as its kind, size and the settings allow.
 * @param {Source[]} sources @param {number} myJob @param {string} [why]  why the files are read again
 * @param {boolean} [compressedInOrder]  compressed files by one reader (a parallel decode gave up)
 * @returns {Promise<{committed: boolean, fileErrors: FileNote[], report: DataReport | null} | null>}
 */
async function read(sources, myJob, why = '', compressedInOrder = false) {
  if (sources.some(isStats)) return readStats(sources, myJob);
  if (sources.some((source) => source.kind === 'player')) {
    worker.activity = 'asking for the player\'s games';
    sources = await playerSources(sources, worker.downloads ? worker.downloads.signal : undefined);
    if (myJob !== worker.job) return null;
  }
  const started = performance.now();
  const keep = keyFieldsOf(worker.settings.model);
  const options = { ...readOptionsOf(worker.settings), keep };
  const key = readKeyOf(worker.settings);
  const ctx = readContext(sources, myJob, options);
  const { files, engine } = ctx;
  worker.activity = `reading ${files.length === 1 ? files[0].name : plural(files.length, 'file')}`;
  const begun = engineReply(engine.beginRead(JSON.stringify(options)));
  if (begun.error) throw new Error(`Cannot read: ${begun.error.message}`);
  // Several datasets or bootstrap replicates are built by this engine alone: one reader; so is a
  // read limit ("the first N games" are those of a reading in order), and the evaluation target
  // (a reader's share carries counts by outcome, not the summed evaluations).
  const limited = Number(options.maxGames) > 0 || Number(options.maxMegabytes) > 0;
  const parallelAllowed = options.datasets === 'merge' && options.bootstrap === 0 && !limited &&
    options.target !== 'eval';
  state('reading', `Reading ${files.length === 1 ? files[0].name : plural(files.length, 'file')}${why ? ` again: ${why}` : ''}…`);

  for (let i = 0; i < sources.length; ++i) {
    const file = files[i];
    const source = sources[i];
    worker.activity = `reading ${file.name}`;
    // What reads the file here (its first bytes, its game starts, its slices to decode) fails
    // with an error that names it when the browser no longer reads it.
    /** @param {unknown} error @returns {never} */
    const unreadable = (error) => { throw unreadableFile(file.name, 0, error); };
    const compressed = source.kind === 'file' && await isCompressed(source.file).catch(unreadable);
    // A compressed byte is several bytes of text (PGN: about 5 to 10): as many readers as those.
    const count = parallelAllowed ? readerCountFor(source, file.size * (compressed ? 6 : 1), worker.requestedReaders) : 1;
    let outcome;
    if (count > 1 && compressed && !compressedInOrder) {
      outcome = await readDecoded(ctx, i, count, unreadable);
      if (outcome === 'sequential') {
        engine.cancelRead();
        return read(sources, myJob, why, true);
      }
    } else if (count > 1 && !compressed && source.kind === 'file') {  // (only files in parallel)
      outcome = await readRanges(ctx, i, count, unreadable);
    } else {
      outcome = await readInOrder(ctx, i);
    }
    if (outcome === null) return null;
    if (outcome === 'stop') break;
  }
  return endRead(ctx, key, keep, started);
}


// Statistics files instead of games: each read whole into the engine, merged there with the data
// settings they were made with (docs/MSTATS.md), and committed as a read's data: the fit follows.
/**
 * @param {Source[]} sources @param {number} myJob
 * @returns {Promise<{committed: boolean, fileErrors: FileNote[], report: DataReport | null} | null>}
 */
async function readStats(sources, myJob) {
  const { wasm, engine } = loaded();
  if (!sources.every(isStats)) {
    return { committed: false, fileErrors: [{ text: 'statistics files (.mstats) are read alone: open them without games', inPart: false }], report: null };
  }
  const files = sources.map(describe);
  const signal = worker.downloads ? worker.downloads.signal : undefined;  // this task's
  const started = performance.now();
  state('reading', `Reading ${files.length === 1 ? files[0].name : plural(files.length, 'statistics file')}…`);
  /** @type {FileNote[]} */
  const fileErrors = [];
  let bytes = 0;
  for (let i = 0; i < sources.length && !fileErrors.length; ++i) {
    worker.activity = `reading ${files[i].name}`;
    /** @type {Uint8Array[]} */
    const chunks = [];
    let size = 0;
    for await (const chunk of chunksOf(sources[i], () => {}, signal)) {
      if (myJob !== worker.job) return null;
      chunks.push(chunk.data);
      size += chunk.data.length;
    }
    const pointer = copyIntoEngine(wasm, (n) => engine.chunkBuffer(n), chunks, files[i].name);
    const added = engineReply(engine.addStats(files[i].name, pointer, size));
    if (added.error) fileErrors.push({ text: added.error.message, inPart: false });
    bytes += size;
  }
  if (myJob !== worker.job) return null;
  if (!fileErrors.length) {
    const merged = engineReply(engine.endStats());
    if (merged.error) fileErrors.push({ text: merged.error.message, inPart: false });
  }
  const committed = !fileErrors.length && engine.endRead();
  const seconds = (performance.now() - started) / 1000;
  const report = JSON.parse(engine.report());
  report.seconds = seconds;
  report.mbps = seconds > 0 ? bytes / seconds / 1e6 : 0;
  report.bytesRead = bytes;
  post({ type: 'report', report, committed });
  if (committed) {
    worker.unread = null;  // the read's settings are now those of the data
    worker.lastSources = sources;
    worker.readKey = readKeyOf(worker.settings);
    worker.kept = JSON.parse(engine.statsOptions()).keep || null;
    worker.fromStats = true;
    post(JSON.parse(engine.balance()));
  }
  return { committed, fileErrors, report };
}

