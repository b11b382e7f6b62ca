// The engine's Web Worker: reads files as streams into the WASM Engine, posts progress, fits the
// kept histogram and streams snapshots so the page can draw the descent live. Protocol:
// web/PROTOCOL.md. The UI thread never parses a byte.
// @ts-check: types in web/types.d.ts (the engine worker's realm: tsconfig.engine-worker.json).
'use strict';

importScripts('materialist-engine.js', 'read-options.js', 'parallel-read.js', 'decode-read.js', 'out-of-memory.js',
  'player-source.js', 'file-slices.js', 'engine-memory.js');

const CHUNK_BYTES = 1 << 20;          // what one feed parses: 1 MB (a few ms of parsing each)
// File slices: a slice read costs the browser ~5 ms of CPU per MB at 1 MB, ~3 ms at 4 MB.
const FILE_SLICE_BYTES = 4 << 20;
const PROGRESS_INTERVAL_MS = 500;     // two progress messages a second: each redraws the page, which shares the cores
// An exact fit of what was read so far, twice a second (~2% of the read); ?estimateMs=N sets it.
const ESTIMATE_INTERVAL_MS = 500;
const FIT_ANIMATION_MS = 3000;        // gradient descent is paced to take about this long
const FIT_TICK_MS = 30;               // one snapshot per tick
const NEWTON_TICK_MS = 220;           // Newton's few iterates, one by one
/** @type {readonly (keyof Counts)[]} */
const COUNT_KEYS = ['games', 'used', 'partial', 'skipped', 'rows'];  // summed over parallel readers

// True when the current data cannot serve these settings: other read options, or fields not kept.
// Statistics files (.mstats) bring the data settings they were made with: only fields count.
/** @param {Settings} s @returns {boolean} */
const needsRead = (s) => (!worker.fromStats && readKeyOf(s) !== worker.readKey) || missingFields(s, worker.kept) !== '';
// Statistics files by their name (docs/MSTATS.md): read whole by the engine instead of games.
/** @param {Source} source @returns {boolean} */
const isStats = (source) => /\.mstats$/i.test(describe(source).name);
/** @param {string} missing @returns {string} */
const statsLack = (missing) => `The statistics files do not keep ${missing}, which this model reads: ` +
  'make them with the model\'s options (materialist stats --bishop-pair, --phase, --side-to-move, --elo-offset)';
// Why needsRead(s): the status line says it while the files are read again.
/** @param {Settings} s @returns {string} */
function rereadReason(s) {
  const missing = missingFields(s, worker.kept);
  if (readKeyOf(s) !== worker.readKey || !missing) return 'the settings decide which games and positions count';
  return `the model needs ${missing}, which the last read did not keep (a read keeps only what its model uses)`;
}

/**
 * Everything the worker remembers between messages: the one mutable state of this script.
 * @typedef {object} WorkerState
 * @property {EngineModule | null} wasm  the Emscripten module
 * @property {Engine | null} engine  new wasm.Engine(); null while it (re)loads
 * @property {Settings} settings  the last settings the page sent, over DEFAULT_SETTINGS
 * @property {number} job  bumped by every new task and by cancel: running loops check it
 * @property {Source[]} lastSources  what the current data came from (re-read if the read options change)
 * @property {string | null} readKey  readKeyOf(settings) of the current data
 * @property {KeyFields | null} kept  the row-key fields the current data kept
 * @property {boolean} fromStats  the current data came from statistics files (.mstats)
 * @property {WorkerPhase} phase  the last state posted
 * @property {boolean} reading  a read is running: new settings wait for its fit
 * @property {number} requestedReaders  parallel readers per large file, 0: one per core but one
 * @property {number} estimateMs  the least time between two live estimates of a read
 * @property {PageMessage[]} pending  messages that arrive while the engine loads
 * @property {string} activity  what the running task does ("reading games.pgn"), for errors
 * @property {number} heapLimitBytes  the most the engine's heap may grow to
 * @property {AbortController | null} downloads  aborts the running task's downloads (cancel, a new task)
 * @property {{before: Settings, asked: Partial<Settings>} | null} unread  the settings a running
 *   read asked for and what they replaced: undone when it does not commit (undoUnreadSettings)
 */
/** @type {WorkerState} */
const worker = {
  wasm: null, engine: null, settings: { ...DEFAULT_SETTINGS }, job: 0, lastSources: [], readKey: null, kept: null, fromStats: false,
  phase: 'idle', reading: false, requestedReaders: 0, estimateMs: ESTIMATE_INTERVAL_MS, pending: [], activity: 'starting', heapLimitBytes: 0, unread: null,
  downloads: null,
};

// Ends the running task's downloads at once: a stalled connection sends no chunk that would let
// the read loop notice the cancel.
function abortDownloads() {
  if (worker.downloads) worker.downloads.abort();
  worker.downloads = null;
}

// A read that asks for settings (a player's load, a share link, new read options) applies them
// to the kept data only if it commits: when it fails or is cancelled while earlier data are kept,
// the settings from before it come back and the page and app are told (a "settings" message), so
// nothing (title, filter, model, share link, a later refit) describes the kept data with the
// settings of a read that never happened. Without data too: an action that fails restores what it
// changed (a failed player load must not leave its filter on for the sample read next).
/** @param {Partial<Settings>} asked */
function applyReadSettings(asked) {
  // A read superseded before it committed: its settings never applied. Undone without a message:
  // the page sent this read's settings, which the app shows.
  undoUnreadSettings(false);
  worker.unread = { before: worker.settings, asked };
  worker.settings = { ...worker.settings, ...asked };
}
// A share link's "compare=elo:200" (one word for a comparison by band): its per-filter texts,
// over the link's filter or the current one (learn::band_filters).
/** @param {Partial<Settings> & {compare?: unknown}} asked @returns {Partial<Settings>} */
function expandCompare(asked) {
  const { compare, ...settings } = asked;
  if (typeof compare !== 'string' || !worker.engine) return settings;
  const filters = JSON.parse(worker.engine.bandFilters(compare, settings.filter ?? worker.settings.filter));
  if (!Array.isArray(filters)) {  // said, and left out: the rest of the link still applies
    post({ type: 'error', message: `The share link's comparison could not be made: ${filters.error}` });
    return settings;
  }
  return { ...settings, datasets: 'per-filter', eachFilter: filters };
}
/** @param {boolean} [notify]  post the settings to the page (and app) */
function undoUnreadSettings(notify = true) {
  const unread = worker.unread;
  worker.unread = null;
  if (!unread || !worker.engine) return;
  const settings = { ...worker.settings };
  for (const key of /** @type {(keyof Settings)[]} */ (Object.keys(unread.asked))) {
    // A key changed again since (a fit setting while reading) keeps its newer value.
    if (JSON.stringify(settings[key]) === JSON.stringify(unread.asked[key])) {
      Object.assign(settings, { [key]: unread.before[key] });
    }
  }
  worker.settings = settings;
  if (notify) post({ type: 'settings', settings: worker.settings });
}

// The loaded module and engine. Messages wait in worker.pending until they are, and a restart
// bumps the job first, so a task that runs has them.
/** @returns {{wasm: EngineModule, engine: Engine}} */
function loaded() {
  if (!worker.wasm || !worker.engine) throw new Error('the engine is not loaded');
  return { wasm: worker.wasm, engine: worker.engine };
}

/** @param {WorkerMessage} message */
const post = (message) => self.postMessage(message);
/** @param {WorkerPhase} name @param {string} status */
const state = (name, status) => {
  worker.phase = name;
  post({ type: 'state', state: name, status });
};
/** @param {number} ms @returns {Promise<void>} */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Yields to the worker's event loop (a macrotask), so cancel messages get through between chunks.
/** @returns {Promise<void>} */
function yieldToMessages() {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(0);
  });
}

/** @param {number} n @param {string} word */
function plural(n, word) { return `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`; }

// ---- sources: a File, or a URL (the bundled sample) ----

/** @param {Source} source @returns {{name: string, size: number}} */
function describe(source) {
  if (source.kind === 'player') return { name: `${source.service}-${source.user}.pgn`, size: 0 };
  return source.kind === 'url'
    ? { name: source.name || source.url.split('/').pop() || '', size: source.size || 0 }
    : { name: source.file.name, size: source.file.size };
}

// Compressed files and archives, by their first bytes as the engine's decoder (src/archive) sees
// them: such a file is read by one reader, in order; parallel readers split only plain text.
/** @param {File} file @returns {Promise<boolean>} */
async function isCompressed(file) {
  const { wasm, engine } = loaded();
  const head = new Uint8Array(await file.slice(0, 8).arrayBuffer());
  const pointer = copyIntoEngine(wasm, (n) => engine.chunkBuffer(n), head, "a file's first bytes");
  return engine.compressed(pointer, head.length);
}

// Yields {data: Uint8Array, source: bytes of the source consumed so far} for a source; `onSize`
// learns a URL's length when the server tells it. The bytes are the file's own: the engine
// decodes compressed files and archives (src/archive), so progress counts compressed bytes.
/**
 * @param {Source} source @param {(size: number) => void} onSize
 * @param {AbortSignal} [signal]  aborts a download at once, even a stalled one (a cancel)
 * @param {{helperSlices: number}} [tally]  counts a file's slices read by the helper worker
 * @returns {AsyncGenerator<{data: Uint8Array<ArrayBuffer>, source: number}>}
 */
async function* chunksOf(source, onSize, signal, tally = { helperSlices: 0 }) {
  if (source.kind === 'player') throw new Error('a player source is read through its addresses (playerSources)');
  if (source.kind === 'url' && source.player) {  // lichess's address asks for the read limit's games
    const url = source.player.service === 'lichess' ? lichessExportUrl(source.player, Number(worker.settings.maxGames) || 0,
      worker.settings.target === 'eval') : source.url;
    yield* playerChunks(source.player, url, signal);
    return;
  }
  if (source.kind === 'url') {
    // A refused cross-origin request (no CORS headers) or an unreachable host only says "failed
    // to fetch": name the host so people know whom to ask.
    const host = new URL(source.url, self.location.href).host;
    let response;
    try {
      response = await fetch(source.url, { signal });
    } catch (error) {
      throw new Error(`Could not download ${source.url}: ${host} refused or could not be reached ` +
        '(a server must allow cross-origin requests, CORS, to be read from this page)');
    }
    if (!response.ok) throw new Error(`Could not download ${source.url}: ${host} answered HTTP ${response.status}`);
    if (!response.body) throw new Error(`Could not download ${source.url}: ${host} answered with no body`);
    const length = Number(response.headers.get('content-length'));
    if (length > 0) onSize(length);
    yield* bodyChunks(response.body);  // a read that stops early ends the download
    return;
  }
  const file = source.file;
  // Slices keep memory flat: a multi-GB file is never whole in memory. A helper worker reads the
  // next ones while this one is parsed (offThreadSlices in file-slices.js).
  let end = 0;
  try {
    for await (const data of offThreadSlices(file, 0, file.size, FILE_SLICE_BYTES, tally)) {
      end += data.length;
      yield { data, source: end };
    }
  } catch (error) {
    throw unreadableFile(file.name, end, error);
  }
}

// Player sources become the addresses of their games (one for lichess, a month each for
// chess.com, newest first), each a URL source that keeps its player for the service's messages.
/** @param {Source[]} sources @param {AbortSignal} [signal] @returns {Promise<Source[]>} */
async function playerSources(sources, signal) {
  /** @type {Source[]} */
  const out = [];
  for (const source of sources) {
    if (source.kind !== 'player') {
      out.push(source);
      continue;
    }
    state('reading', `Asking ${source.service === 'lichess' ? 'lichess' : 'chess.com'} for the games of ${source.user}…`);
    for (const { url, name } of await playerStreams(source, Number(worker.settings.maxGames) || 0, signal,
      worker.settings.target === 'eval')) {
      out.push({ kind: 'url', url, name, player: source });
    }
  }
  return out;
}

// Copies a chunk into the engine's buffer (HEAPU8.set) and parses it; false if the file was
// rejected. Large network chunks are split so cancel stays responsive.
/** @param {Uint8Array} bytes @param {Engine} [engine]  the worker's engine unless given */
function feed(bytes, engine = loaded().engine) {
  const { wasm } = loaded();
  for (let at = 0; at < bytes.length; at += CHUNK_BYTES) {
    const part = bytes.subarray(at, Math.min(bytes.length, at + CHUNK_BYTES));
    const pointer = copyIntoEngine(wasm, (n) => engine.chunkBuffer(n), part, 'a chunk of input');
    if (!engine.feed(pointer, part.length)) return false;
  }
  return true;
}

// ---- reading ----

/**
 * @param {Source[]} sources @param {number} myJob @param {string} [why]  why the files are read again
 * @param {boolean} [compressedInOrder]  compressed files by one reader (a parallel decode gave up)
 * @returns {Promise<{committed: boolean, fileErrors: string[], report: DataReport | null} | null>}
 */
async function read(sources, myJob, why = '', compressedInOrder = false) {
  if (sources.some(isStats)) return readStats(sources, myJob);
  const signal = worker.downloads ? worker.downloads.signal : undefined;  // this task's
  if (sources.some((source) => source.kind === 'player')) {
    worker.activity = 'asking for the player\'s games';
    sources = await playerSources(sources, signal);
    if (myJob !== worker.job) return null;
  }
  const { engine } = loaded();
  const files = sources.map(describe);
  let totalBytes = files.reduce((sum, f) => sum + f.size, 0);
  const started = performance.now();
  let doneBytes = 0;
  const tally = { helperSlices: 0 };  // slices read by the helper worker (offThreadSlices)
  let mostReaders = 1;  // the most parallel readers one file of this read had
  let lastProgress = 0;
  /** @type {string[]} */
  const fileErrors = [];
  const keep = keyFieldsOf(worker.settings.model);
  const options = { ...readOptionsOf(worker.settings), keep };
  const key = readKeyOf(worker.settings);
  worker.activity = `reading ${files.length === 1 ? files[0].name : plural(files.length, 'file')}`;
  const refused = engine.beginRead(JSON.stringify(options));
  if (refused) throw new Error(`Cannot read: ${refused}`);
  // Several datasets or bootstrap replicates are built by this engine alone: one reader; so is a
  // read limit ("the first N games" are those of a reading in order), and the evaluation target
  // (a reader's share carries counts by outcome, not the summed evaluations).
  const limited = Number(options.maxGames) > 0 || Number(options.maxMegabytes) > 0;
  const parallelAllowed = options.datasets === 'merge' && options.bootstrap === 0 && !limited &&
    options.target !== 'eval';
  state('reading', `Reading ${files.length === 1 ? files[0].name : plural(files.length, 'file')}${why ? ` again: ${why}` : ''}…`);

  /** @type {EngineProgress | null} */
  let readers = null;  // the summed progress of parallel readers while they run
  /** @param {number} fileIndex @param {number} fileBytes @param {boolean} force */
  const sendProgress = (fileIndex, fileBytes, force) => {
    const now = performance.now();
    if (!force && now - lastProgress < PROGRESS_INTERVAL_MS) return;
    lastProgress = now;
    const bytes = doneBytes + fileBytes;
    const seconds = Math.max(1e-3, (now - started) / 1000);
    const rate = bytes / seconds;
    const p = JSON.parse(engine.progress());
    if (readers) for (const key of COUNT_KEYS) p[key] += readers[key];
    post({
      type: 'progress', bytes, totalBytes, games: p.games, used: p.used + p.partial,
      skipped: p.skipped, rows: p.rows, mbps: rate / 1e6,
      eta: totalBytes > bytes && rate > 0 ? (totalBytes - bytes) / rate : (totalBytes > 0 ? 0 : -1),
      file: files[fileIndex].name, fileIndex, fileCount: files.length,
    });
  };

  let lastEstimate = performance.now();
  // Posts an exact fit of the data read so far (the live view), at most every worker.estimateMs:
  // what this engine read or imported, and the parallel readers' live shares. True when it posted
  // one: the caller then posts the progress of the same moment, so that the status line's games
  // and the estimate's agree (the page draws both together).
  /** @param {Part[]} [shares] @returns {boolean} */
  const sendEstimate = (shares = []) => {
    const now = performance.now();
    if (now - lastEstimate < worker.estimateMs) return false;
    const estimate = JSON.parse(engine.estimateWith(shares, JSON.stringify(worker.settings)));
    lastEstimate = performance.now();  // the fit's own time is not counted as reading
    if (estimate.fits.length === 0) return false;
    post(estimate);
    return true;
  };

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
    let count = parallelAllowed ? readerCountFor(source, file.size * (compressed ? 6 : 1), worker.requestedReaders) : 1;
    if (count > 1 && compressed) {
      if (compressedInOrder) count = 1;
      // Decoded here, parsed by the readers chunk by chunk (decode-read.js), imported in order.
      else {
        mostReaders = Math.max(mostReaders, count);
        let decodedBytes = 0;
        const error = await readDecodedInParallel(loaded().wasm, engine, source.file, count, options,
          () => myJob === worker.job, (bytes, counts) => {
            readers = counts;
            decodedBytes = bytes;
            sendProgress(i, bytes, false);
          }, (counts) => {
            readers = counts;  // the status line's games then agree with the estimate's
            if (sendEstimate()) sendProgress(i, decodedBytes, true);
          }).catch(unreadable);
        readers = null;
        if (error === null || myJob !== worker.job) return null;
        if (error === 'sequential') {  // a chunk was cut inside a game: everything again, in order
          engine.cancelRead();
          return read(sources, myJob, why, true);
        }
        if (error) fileErrors.push(`${file.name}: ${error}`);
        doneBytes += file.size;
        sendProgress(i, 0, true);
        continue;
      }
    }
    if (count > 1 && source.kind === 'file') {  // (only files are read in parallel)
      // A large file: several readers, one range each; their shares are imported in order.
      engine.beginImport(file.name);  // names the estimates; imports begin after the readers
      let readBytes = 0;
      const shares = await readInParallel(source.file, count, options, worker.estimateMs, () => myJob === worker.job, (sum) => {
        readers = sum;
        readBytes = sum.bytes;
        sendProgress(i, sum.bytes, false);
      }, (shares) => {
        if (myJob === worker.job && sendEstimate(shares)) sendProgress(i, readBytes, true);
      }).catch(unreadable);
      readers = null;
      if (!shares || myJob !== worker.job) return null;
      mostReaders = Math.max(mostReaders, shares.length);  // fewer than asked when few games start
      engine.beginImport(file.name);
      let lines = 0;
      let games = 0;
      for (const share of shares) {
        engine.importPart(share.part, lines, games);
        lines += share.lines;
        games += share.part.report[1];  // games read: see report_numbers in engine_bindings.cpp
        if (share.error && !fileErrors.includes(`${file.name}: ${share.error}`)) fileErrors.push(`${file.name}: ${share.error}`);
      }
      engine.endImport(file.size);
      if (games === 0 && !fileErrors.length) fileErrors.push(`${file.name}: no games found: is this a PGN file?`);
      doneBytes += file.size;
      sendProgress(i, 0, true);
      continue;
    }
    engine.beginFile(file.name, file.size);
    let fileBytes = 0;  // of the source (compressed bytes for a compressed file)
    for await (const chunk of chunksOf(sources[i], (size) => {
      totalBytes += size - file.size;
      file.size = size;
    }, signal, tally)) {
      if (myJob !== worker.job) return null;  // cancelled or superseded: the new task owns the engine
      fileBytes = chunk.source;
      if (!feed(chunk.data)) break;  // rejected (binary): stop reading this file
      sendProgress(i, fileBytes, sendEstimate());
      await yieldToMessages();
      if (myJob !== worker.job) return null;
    }
    const error = engine.endFile();
    if (error) fileErrors.push(`${file.name}: ${error}`);
    const stopped = engine.limitReached();
    doneBytes += stopped ? fileBytes : Math.max(fileBytes, file.size);
    sendProgress(i, 0, true);
    if (stopped) break;  // the read limit: no further byte, no further file
  }
  const committed = engine.endRead();
  const seconds = (performance.now() - started) / 1000;
  const report = JSON.parse(engine.report());
  report.seconds = seconds;
  report.mbps = seconds > 0 ? doneBytes / seconds / 1e6 : 0;
  report.bytesRead = doneBytes;
  report.helperSlices = tally.helperSlices;
  report.readers = mostReaders;
  if (!committed) report.bytes = doneBytes;
  post({ type: 'report', report, committed });
  if (committed) {
    worker.unread = null;  // the read's settings are now those of the data
    worker.lastSources = sources;
    worker.readKey = key;
    worker.kept = keep;
    worker.fromStats = false;
    post(JSON.parse(engine.balance()));
  }
  return { committed, fileErrors, report };
}

// Statistics files instead of games: each read whole into the engine, merged there with the data
// settings they were made with (docs/MSTATS.md), and committed as a read's data: the fit follows.
/**
 * @param {Source[]} sources @param {number} myJob
 * @returns {Promise<{committed: boolean, fileErrors: string[], report: DataReport | null} | null>}
 */
async function readStats(sources, myJob) {
  const { wasm, engine } = loaded();
  if (!sources.every(isStats)) {
    return { committed: false, fileErrors: ['statistics files (.mstats) are read alone: open them without games'], report: null };
  }
  const files = sources.map(describe);
  const signal = worker.downloads ? worker.downloads.signal : undefined;  // this task's
  const started = performance.now();
  state('reading', `Reading ${files.length === 1 ? files[0].name : plural(files.length, 'statistics file')}…`);
  /** @type {string[]} */
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
    const error = engine.addStats(files[i].name, pointer, size);
    if (error) fileErrors.push(error);
    bytes += size;
  }
  if (myJob !== worker.job) return null;
  if (!fileErrors.length) {
    const error = engine.endStats();
    if (error) fileErrors.push(error);
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

// ---- fitting ----

// Iteration targets for gradient descent: dense at the start, where the values move most.
/** @param {number} planned @param {number} ticks @returns {number[]} */
function descentSchedule(planned, ticks) {
  const targets = [];
  for (let i = 1; i <= ticks; ++i) {
    const t = Math.max(Math.round(planned * (i / ticks) ** 2), (targets[targets.length - 1] || 0) + 1);
    if (t >= planned) { targets.push(planned); break; }
    targets.push(t);
  }
  return targets;
}

/** @param {Snapshot} snapshot @returns {SnapshotMessage} */
function snapshotMessage(snapshot) { return { type: 'snapshot', ...snapshot }; }

// Posts the other datasets' states first, so the first dataset's snapshot stays the latest one.
/** @param {Snapshot} first */
function postSnapshots(first) {
  const { engine } = loaded();
  for (const other of JSON.parse(engine.otherSnapshots())) post(snapshotMessage(other));
  post(snapshotMessage(first));
}

/** @param {number} myJob */
async function fit(myJob) {
  const { engine } = loaded();
  worker.activity = 'fitting';
  const plan = JSON.parse(engine.beginFit(JSON.stringify(worker.settings)));
  if ('error' in plan) {
    post({ type: 'error', message: `Fit failed: ${plan.error}` });
    state('error', `Fit failed: ${plan.error}`);
    return;
  }
  // Models gradient descent cannot fit (ordinal, rating offset) run with Newton: plan.reason.
  const newton = plan.solver === 'newton';
  post(plan);  // the fit-begin message
  const first = JSON.parse(engine.snapshot());
  if (newton) post(first);
  else postSnapshots(first);
  state('fitting', newton ? 'Fitting: Newton…' : `Fitting: gradient descent, ${plural(plan.planned, 'iteration')}…`);
  let last = first;
  if (newton) {
    while (!engine.fitFinished()) {
      await sleep(NEWTON_TICK_MS);
      if (myJob !== worker.job) return;
      last = JSON.parse(engine.step(1));
      post(snapshotMessage(last));
    }
  } else {
    let done = 0;
    for (const target of descentSchedule(plan.planned, Math.round(FIT_ANIMATION_MS / FIT_TICK_MS))) {
      await sleep(FIT_TICK_MS);
      if (myJob !== worker.job) return;
      last = JSON.parse(engine.step(target - done));
      done = last.iteration;
      postSnapshots(last);
      if (engine.fitFinished()) break;
    }
  }
  if (myJob !== worker.job) return;
  post(JSON.parse(engine.fitDone()));  // every dataset's fit; the final state with its errors
  engine.setUnits(worker.settings.units || 'pawn');  // the status line in the values' unit
  state('done', engine.statusLine());
}

// ---- tasks ----

// The engine's words (worker::kReadInPartMarker) in a file error whose earlier games were kept.
const READ_IN_PART = 'read up to there';

/** @param {Source[]} sources @param {number} myJob @param {string} [why] @returns {Promise<void>} */
async function readAndFit(sources, myJob, why = '') {
  const { engine } = loaded();
  worker.reading = true;
  const outcome = await read(sources, myJob, why).finally(() => {
    if (myJob === worker.job) worker.reading = false;
  });
  if (!outcome || myJob !== worker.job) return;
  if (worker.fromStats && outcome.committed && needsRead(worker.settings)) {
    const message = statsLack(missingFields(worker.settings, worker.kept));
    post({ type: 'error', message });
    state('error', message);
    return;
  }
  if (needsRead(worker.settings) && outcome.committed) {
    await readAndFit(sources, myJob, rereadReason(worker.settings));  // the settings changed while reading
    return;
  }
  if (!outcome.committed) {
    const used = worker.settings;  // the settings of this read, before they are undone
    const undone = worker.unread !== null;
    undoUnreadSettings();
    const r = outcome.report || { games: 0, filtered: 0 };
    const why = outcome.fileErrors.length ? outcome.fileErrors.join('; ')
      : outcome.report && outcome.report.target === 'eval' && !outcome.report.gamesWithEvals &&
        (outcome.report.gamesWithoutEvals || 0) > 0 ? noEvaluations(outcome.report)
      : r.games > 0 && r.filtered === r.games
        ? `the filters removed all ${plural(r.games, 'game')} (see which filter in the Analysis panel)`
        : 'no game produced a row (every game was skipped: see the data report)';
    const kept = engine.hasData() ? ' The previous data and fit are kept.' : '';
    // Games all filtered out: the filter is named, and the way back to the preset's settings.
    const filtering = Boolean(used.filter) || (used.datasets === 'per-filter' && (used.eachFilter || []).length > 0);
    const filters = r.games > 0 && r.filtered === r.games && filtering
      ? ` The filter: ${used.filter ? `"${used.filter}"` : 'none'}${used.datasets === 'per-filter' && (used.eachFilter || []).length ? ', one dataset per filter' : ''}; ${undone
        ? 'the settings are back as they were before this read' : 'Reset returns every setting to the preset\'s'}.`
      : '';
    post({ type: 'error', message: `Nothing to learn from: ${why}.${kept}${filters}` });
    state('error', `Nothing to learn from: ${why}`);
    return;
  }
  if (outcome.fileErrors.length) {
    // A file that stopped part way keeps the games before it (engine: "read up to there").
    const inPart = outcome.fileErrors.filter((e) => e.includes(READ_IN_PART));
    const unread = outcome.fileErrors.filter((e) => !e.includes(READ_IN_PART));
    const said = [
      ...(inPart.length ? [`${inPart.length === 1 ? 'A file was' : 'Some files were'} read only in part: ${inPart.join('; ')}.`] : []),
      ...(unread.length ? [`Some files were not read: ${unread.join('; ')}`] : []),
    ];
    post({ type: 'error', message: said.join(' ') });
  }
  await fit(myJob);
}

// Why an evaluation-target read has no row: no game carries an [%eval], and where they come from.
/** @param {DataReport} r @returns {string} */
function noEvaluations(r) {
  return `none of the ${plural(r.gamesWithoutEvals || 0, 'game')} carries an engine evaluation ` +
    '([%eval] comments), and the evaluation target learns only from annotated positions. Read ' +
    'games with evaluations (lichess: evals=true in the API, "Include analysis" when downloading), ' +
    'or choose Target: game result in Settings (Read)';
}

// The current data's rows as .mat text. Rows are not kept while reading (memory stays bounded by
// the model, whatever the number of games): a second engine reads the same files with the same
// options again, and its text is taken after every chunk, so the Blob parts hold it, not the heap.
/** @returns {Promise<string[]>} */
async function matTextParts() {
  const { wasm } = loaded();
  if (!worker.readKey) throw new Error('no data to export: read games first');
  if (worker.fromStats) throw new Error('statistics files hold counts, not rows: export .mat from the games');
  const exporter = new wasm.Engine();
  /** @type {string[]} */
  const parts = [];
  try {
    const options = { ...JSON.parse(worker.readKey), keepRows: true };
    const refused = exporter.beginRead(JSON.stringify(options));
    if (refused) throw new Error(refused);
    for (const source of worker.lastSources) {
      const { name, size } = describe(source);
      exporter.beginFile(name, size);
      for await (const { data } of chunksOf(source, () => {})) {
        const accepted = feed(data, exporter);
        parts.push(exporter.takeMatText());
        await yieldToMessages();
        if (!accepted) break;
      }
      exporter.endFile();
      parts.push(exporter.takeMatText());
      if (exporter.limitReached()) break;  // the same read limit as the data's
    }
    exporter.cancelRead();
  } finally {
    exporter.delete();
  }
  return parts;
}

/** @param {ExportFormat} format */
async function exportData(format) {
  const { engine } = loaded();
  engine.setUnits(worker.settings.units || 'pawn');  // the JSON's units and the header's terms
  worker.activity = `exporting ${format}`;
  if (format === 'mat') {
    post({ type: 'download', name: 'materialist-rows.mat', blob: new Blob(await matTextParts(), { type: 'text/plain' }) });
  } else if (format === 'csv') {
    post({ type: 'download', name: 'materialist-values.csv', blob: new Blob([engine.valuesCsv()], { type: 'text/csv' }) });
  } else if (format === 'provenance') {
    await hashMissingFiles();
    const provenance = JSON.parse(engine.provenanceJson());
    provenance.report = JSON.parse(engine.report());
    post({
      type: 'download', name: 'materialist-analysis.json',
      blob: new Blob([JSON.stringify(provenance, null, 2)], { type: 'application/json' }),
    });
  } else if (format === 'code') {
    const code = engine.codeHeader();
    post({ type: 'download', name: 'materialist-values.h', blob: new Blob([code], { type: 'text/x-c++hdr' }), text: code });
  } else if (format === 'json') {
    const result = JSON.parse(engine.resultJson());
    result.report = JSON.parse(engine.report());
    post({
      type: 'download', name: 'materialist-values.json',
      blob: new Blob([JSON.stringify(result, null, 2)], { type: 'application/json' }),
    });
  }
}

// The worker reads without hashing (SHA-256 costs as much as parsing here): the provenance export
// hashes every file then, in order, from the sources it came from (the same File objects).
async function hashMissingFiles() {
  const { wasm, engine } = loaded();
  const missing = engine.missingDigests();
  for (const index of missing) {
    const source = worker.lastSources[index];
    if (!source) continue;
    engine.hashBegin();
    for await (const chunk of chunksOf(source, () => {})) {
      for (let at = 0; at < chunk.data.length; at += CHUNK_BYTES) {
        const part = chunk.data.subarray(at, Math.min(chunk.data.length, at + CHUNK_BYTES));
        const pointer = copyIntoEngine(wasm, (n) => engine.chunkBuffer(n), part, 'a chunk to hash');
        engine.hashFeed(pointer, part.length);
      }
      await yieldToMessages();
    }
    engine.hashEndInto(index);
  }
}

// Starts a task after invalidating the running one; errors become an error state, never a dead
// worker (failureOf in out-of-memory.js says which).
/** @param {(myJob: number) => Promise<void>} task */
function start(task) {
  const myJob = ++worker.job;
  abortDownloads();  // the task before, superseded
  worker.downloads = new AbortController();
  task(myJob).catch((error) => {
    const failure = failureOf(error, {
      heapBytes: worker.wasm ? worker.wasm.HEAPU8.length : 0, limitBytes: worker.heapLimitBytes,
      activity: worker.activity, bootstrap: worker.settings.bootstrap > 0,
    });
    if (failure.restart) {  // the module aborted: its state is gone; a fresh one takes over
      restartEngine(failure.message);
      return;
    }
    if (myJob !== worker.job) return;
    undoUnreadSettings();
    let message = failure.message;
    if (failure.readerAborted && worker.engine) {  // this engine is intact: drop the read, keep the data
      worker.engine.cancelRead();
      worker.reading = false;
      if (worker.engine.hasData()) message += ' The previous data and fit are kept.';
    }
    post({ type: 'error', message });
    state('error', message);
  });
}

/** @param {string} why */
function restartEngine(why) {
  ++worker.job;
  worker.engine = null;
  abortDownloads();
  worker.unread = null;
  worker.lastSources = [];
  worker.fromStats = false;
  post({ type: 'reset' });
  post({ type: 'error', message: why });
  state('error', why);
  loadEngine();
}

/** @param {PageMessage} message */
function onMessage(message) {
  const { engine } = loaded();
  switch (message.type) {
    case 'read':
      if (typeof message.readers === 'number' && message.readers >= 0) worker.requestedReaders = message.readers;
      if (typeof message.estimateMs === 'number' && message.estimateMs > 0) worker.estimateMs = message.estimateMs;
      if (message.settings && message.fromLink && !engine.hasData()) {
        // The opening link's settings are the page's starting state: kept whatever the read
        // finds (Reset returns to the preset's), as a link's settings without a read are.
        undoUnreadSettings(false);
        worker.settings = { ...worker.settings, ...expandCompare(message.settings) };
      } else if (message.settings) {
        applyReadSettings(expandCompare(message.settings));
      } else {
        undoUnreadSettings();
      }
      start((myJob) => readAndFit(message.sources, myJob));
      break;
    case 'fit': {
      const before = worker.settings;
      const asked = expandCompare(message.settings);
      worker.settings = { ...worker.settings, ...asked };
      if (worker.reading || !engine.hasData()) break;  // the running read fits with them at its end
      if (worker.fromStats && needsRead(worker.settings)) {  // statistics are not read again
        const message = statsLack(missingFields(worker.settings, worker.kept));
        post({ type: 'error', message });
        state('error', message);
      } else if (needsRead(worker.settings) && worker.lastSources.length) {
        worker.settings = before;  // the read asks for them: they apply if it commits
        applyReadSettings(asked);
        const why = rereadReason(worker.settings);
        start((myJob) => readAndFit(worker.lastSources, myJob, why));  // they decide which games count
      } else {
        start((myJob) => fit(myJob));
      }
      break;
    }
    case 'cancel':
      ++worker.job;
      worker.reading = false;
      engine.cancelRead();
      abortDownloads();
      undoUnreadSettings();
      state(engine.hasData() ? 'done' : 'idle', 'Cancelled: the previous data and fit are kept.');
      break;
    case 'units':  // the values' unit: the status line says the fit in it, the exports record it
      worker.settings = { ...worker.settings, units: message.units };
      engine.setUnits(message.units);
      if (worker.phase === 'done' && !worker.reading && engine.hasData()) {
        const line = engine.statusLine();
        if (line) state('done', line);
      }
      break;
    case 'compare-targets': {  // both targets on the annotated positions, fitted now
      if (worker.reading) break;
      const settings = { ...worker.settings, ...(message.settings || {}) };
      post(JSON.parse(engine.compareTargets(JSON.stringify(settings))));
      break;
    }
    case 'export':
      exportData(message.format).catch((error) => post({ type: 'error', message: `Export failed: ${error}` }));
      break;
    case 'reset':
      ++worker.job;
      worker.reading = false;
      engine.reset();
      abortDownloads();
      worker.unread = null;
      // The app's Reset returns every setting to its preset's: the next read starts from them.
      if (message.settings) worker.settings = { ...DEFAULT_SETTINGS, ...message.settings };
      worker.lastSources = [];
      worker.fromStats = false;
      post({ type: 'reset' });
      state('idle', 'Ready.');
      break;
    default:
      break;
  }
}

self.onmessage = (event) => {
  const message = /** @type {PageMessage} */ (event.data);  // structured clone: typed by PROTOCOL.md
  if (worker.engine) onMessage(message);
  else worker.pending.push(message);
};

function loadEngine() {
  createMaterialistEngine().then((module) => {
    worker.wasm = module;
    worker.engine = new module.Engine();
    worker.heapLimitBytes = worker.engine.heapLimitBytes();
    post({ type: 'ready' });
    for (const message of worker.pending.splice(0)) onMessage(message);
  }).catch((error) => {
    post({ type: 'error', message: `The engine failed to start: ${error}` });
    state('error', `The engine failed to start: ${error}`);
  });
}
loadEngine();
