// The engine's Web Worker: reads files as streams into the WASM Engine, posts progress, fits the
// kept histogram and streams snapshots so the page can draw the descent live. Protocol:
// web/PROTOCOL.md. The UI thread never parses a byte.
// @ts-check: types in web/types.d.ts (the engine worker's realm: tsconfig.engine-worker.json).
'use strict';

importScripts('materialist-engine.js', 'engine-reply.js', 'read-options.js', 'reader-pool.js', 'parallel-read.js', 'decode-read.js', 'out-of-memory.js',
  'player-source.js', 'file-slices.js', 'engine-memory.js', 'read-sources.js',
  'worker-fit.js', 'worker-exports.js');

const CHUNK_BYTES = 1 << 20;          // what one feed parses: 1 MB (a few ms of parsing each)
// File slices: a slice read costs the browser ~5 ms of CPU per MB at 1 MB, ~3 ms at 4 MB.
const FILE_SLICE_BYTES = 4 << 20;
const PROGRESS_INTERVAL_MS = 500;     // two progress messages a second: each redraws the page, which shares the cores
// An exact fit of what was read so far, twice a second (~2% of the read); ?estimateMs=N sets it.
const ESTIMATE_INTERVAL_MS = 500;
const FIT_ANIMATION_MS = 3000;        // gradient descent is paced to take about this long
const FIT_TICK_MS = 30;               // one snapshot per tick
const NEWTON_TICK_MS = 220;           // Newton's few iterates, one by one
const SQUARES_PREVIEW_ESTIMATES = 4; // live values by square: a preview every 4 estimates' time at most (2 s)
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
 * @property {boolean} reducedMotion  the page's prefers-reduced-motion: a fit's snapshots unpaced
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
  phase: 'idle', reading: false, requestedReaders: 0, estimateMs: ESTIMATE_INTERVAL_MS, reducedMotion: false, pending: [], activity: 'starting', heapLimitBytes: 0, unread: null,
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
  const filters = engineReply(worker.engine.bandFilters(compare, settings.filter ?? worker.settings.filter));
  if (filters.error) {  // said, and left out: the rest of the link still applies
    post({ type: 'error', message: `The share link's comparison could not be made: ${filters.error.message}` });
    return settings;
  }
  return { ...settings, datasets: 'per-filter', eachFilter: filters.value };
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

// ---- reading: read-sources.js ----

// ---- fitting: worker-fit.js; exports: worker-exports.js ----

// ---- tasks ----

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
    // The engine says why a read gave no rows (learn/read/empty_read.h): variants named. When
    // games were read, that is the cause (a file that also ended early is said beside it); with
    // no game read, the files' problems are.
    const fileProblems = outcome.fileErrors.map((note) => note.text).join('; ');
    const refused = (outcome.report && outcome.report.emptyReadMessage) || '';
    const why = r.games > 0 && refused ? (fileProblems ? `${refused} (and ${fileProblems})` : refused)
      : fileProblems || refused;
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
    // A file that stopped part way keeps the games before it (the engine's inPart).
    const inPart = outcome.fileErrors.filter((note) => note.inPart).map((note) => note.text);
    const unread = outcome.fileErrors.filter((note) => !note.inPart).map((note) => note.text);
    const said = [
      ...(inPart.length ? [`${inPart.length === 1 ? 'A file was' : 'Some files were'} read only in part: ${inPart.join('; ')}.`] : []),
      ...(unread.length ? [`Some files were not read: ${unread.join('; ')}`] : []),
    ];
    post({ type: 'error', message: said.join(' ') });
  }
  await fit(myJob);
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
    case 'units': {  // the values' unit: the status line says the fit in it, the exports record it
      const units = engineReply(engine.setUnits(message.units));
      if (units.error) {  // said; the values keep their unit
        post({ type: 'error', message: `The values' unit could not be set: ${units.error.message}` });
        break;
      }
      worker.settings = { ...worker.settings, units: message.units };
      if (worker.phase === 'done' && !worker.reading && engine.hasData()) {
        const line = engine.statusLine();
        if (line) state('done', line);
      }
      break;
    }
    case 'compare-targets': {  // both targets on the annotated positions, fitted now
      if (worker.reading) break;
      const settings = { ...worker.settings, ...(message.settings || {}) };
      const compared = engineReply(engine.compareTargets(JSON.stringify(settings)));
      post(compared.error ? { type: 'error', message: `The targets could not be compared: ${compared.error.message}` }
        : compared.value);
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
  // The page's motion preference needs no engine: it applies to the next fit, even a pending one.
  if (message.type === 'motion') worker.reducedMotion = message.reduced === true;
  else if (worker.engine) onMessage(message);
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
