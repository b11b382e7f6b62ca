// @ts-check
// Parallel reading of one large PGN file (loaded by engine-worker.js with importScripts). The
// coordinator cuts the file at game starts into one range per reader; each reader (a nested
// worker running reader-worker.js) parses its range with its own Engine and
// sends back its share (histogram, report, line count); the coordinator imports the
// shares in file order, so the result is the same as a sequential read. Histograms add up.
'use strict';

const PARALLEL_MIN_BYTES = 32e6;  // smaller files: one worker is fast enough
// A reader costs about 25-60 MiB of the tab's memory (its module and its share): 16 at most, and
// by default at most two per GB the device reports (navigator.deviceMemory: 0.25 to 8 in Chromium).
const MAX_READERS = 16;
const READERS_PER_GB = 2;
const BOUNDARY_WINDOW = 1 << 20;  // bytes searched at a time for the next game start
/** @type {readonly (keyof EngineProgress)[]} */
const PROGRESS_KEYS = ['bytes', 'games', 'used', 'partial', 'skipped', 'rows'];

// How many readers to use for a file of `size` bytes of text (1: read it here, sequentially): one
// per core but one, which stays free for the page so that the canvas keeps drawing smoothly, no
// more than the device's memory allows, and at least 16 MB for each; `requested` (the page's
// ?readers=N) overrides the core count and the memory's allowance.
/** @param {Source} source @param {number} size @param {number} requested @returns {number} */
function readerCountFor(source, size, requested) {
  if (source.kind !== 'file' || /\.mat$/i.test(source.file.name) || size < PARALLEL_MIN_BYTES) return 1;
  const cores = self.navigator && navigator.hardwareConcurrency ? navigator.hardwareConcurrency : 1;
  const gigabytes = self.navigator ? /** @type {{deviceMemory?: number}} */ (navigator).deviceMemory : undefined;
  const memoryAllows = gigabytes ? Math.max(1, Math.floor(READERS_PER_GB * gigabytes)) : MAX_READERS;
  const wanted = requested > 0 ? requested : Math.min(cores - 1, memoryAllows);
  return Math.max(1, Math.min(MAX_READERS, wanted, Math.floor(size / (PARALLEL_MIN_BYTES / 2))));
}

// The byte offset of the first game that starts at or after `from`: a "[Event " line that follows
// an empty line. null when none does before the end of the file.
/** @param {File} file @param {number} from @returns {Promise<number | null>} */
async function nextGameStart(file, from) {
  const pattern = [0x0a, 0x5b, 0x45, 0x76, 0x65, 0x6e, 0x74, 0x20];  // "\n[Event "
  for (let at = Math.max(0, from - 2); at < file.size; at += BOUNDARY_WINDOW - pattern.length - 2) {
    const bytes = new Uint8Array(await file.slice(at, Math.min(file.size, at + BOUNDARY_WINDOW)).arrayBuffer());
    for (let i = 2; i + pattern.length <= bytes.length; ++i) {
      if (bytes[i] !== 0x0a || bytes[i + 1] !== 0x5b) continue;
      let match = true;
      for (let k = 2; k < pattern.length && match; ++k) match = bytes[i + k] === pattern[k];
      // The line before must be empty ("\n\n" or "\n\r\n"), as between two games.
      const blank = bytes[i - 1] === 0x0a || (bytes[i - 1] === 0x0d && bytes[i - 2] === 0x0a);
      if (match && blank && at + i + 1 > from) return at + i + 1;
    }
    if (at + BOUNDARY_WINDOW >= file.size) break;
  }
  return null;
}

// Cuts [0, size) into up to `count` ranges that each start at a game.
/** @param {File} file @param {number} count @returns {Promise<{start: number, end: number}[]>} */
async function splitAtGames(file, count) {
  const cuts = [0];
  for (let k = 1; k < count; ++k) {
    const start = await nextGameStart(file, Math.floor((file.size * k) / count));
    if (start !== null && start > cuts[cuts.length - 1]) cuts.push(start);
  }
  cuts.push(file.size);
  const ranges = [];
  for (let k = 0; k + 1 < cuts.length; ++k) ranges.push({ start: cuts[k], end: cuts[k + 1] });
  return ranges;
}

// A share without its issues, as live shares are: enough for an estimate.
/** @param {Part} part @returns {Part} */
const withoutIssues = (part) => ({ ...part, issues: [] });
// A share without its kept positions: an estimate does not read them.
/** @param {Part} part @returns {Part} */
const withoutRows = (part) => {
  const { squaresRows, squaresTally, ...rest } = part;
  return rest;
};

// Reads one file with several readers. `isCurrent()` turns false when the task is cancelled
// (the readers are then terminated); `options` are the engine's read options (filter, quiet...); `onProgress(totals)` gets the readers' summed progress;
// `onLive(shares, samples)`, whenever a reader sends its live share (every `liveMs` each), every
// reader's latest share (live, or final without issues), for an estimate, and their latest
// samples of kept positions (values by square).
// Resolves with the shares in file order, or null when cancelled.
/** @typedef {RangeDoneMessage & {range: {start: number, end: number}}} Share */
/**
 * @param {File} file @param {number} count @param {ReadOptions} options @param {number} liveMs
 * @param {() => boolean} isCurrent @param {(totals: EngineProgress) => void} onProgress
 * @param {(shares: Part[], samples: Part[]) => void} onLive
 * @returns {Promise<Share[] | null>}
 */
async function readInParallel(file, count, options, liveMs, isCurrent, onProgress, onLive) {
  const ranges = await splitAtGames(file, count);
  /** @type {EngineProgress[]} */
  const progress = ranges.map(() => ({ bytes: 0, games: 0, used: 0, partial: 0, skipped: 0, rows: 0 }));
  /** @type {(Part | null)[]} */
  const live = ranges.map(() => null);
  // Each reader's latest sample of kept positions (the live values by square), kept apart: the
  // estimates twice a second do not carry them.
  /** @type {(Part | null)[]} */
  const samples = ranges.map(() => null);
  const sendLive = () => onLive(/** @type {Part[]} */ (live.filter((part) => part !== null)),
    /** @type {Part[]} */ (samples.filter((part) => part !== null)));
  const report = () => {
    const sum = { bytes: 0, games: 0, used: 0, partial: 0, skipped: 0, rows: 0 };
    for (const p of progress) for (const key of PROGRESS_KEYS) sum[key] += p[key];
    onProgress(sum);
  };
  /** @type {{resolve: (share: Share) => void, reject: (error: Error) => void}[]} */
  const settle = [];
  const all = Promise.all(ranges.map((_, i) => new Promise(/** @param {(share: Share) => void} resolve */ (resolve, reject) => {
    settle[i] = { resolve, reject };
  })));
  const readers = startReaders(ranges.length, (m, i) => {
    if (m.type === 'range-progress') {
      progress[i] = m.progress;
      report();
    } else if (m.type === 'range-live') {
      if (m.part.squaresRows) samples[i] = m.part;
      live[i] = withoutRows(m.part);
      // The share may be ahead of the reader's last progress: the counts take it in first, so
      // the status line posted with its estimate never shows fewer games than the estimate.
      for (const [key, value] of Object.entries(m.part.tally)) {
        const k = /** @type {keyof EngineProgress} */ (key);
        progress[i] = { ...progress[i], [k]: Math.max(progress[i][k], value) };
      }
      report();
      sendLive();
    } else if (m.type === 'range-done') {
      const range = ranges[i];
      progress[i] = { ...m.progress, bytes: range.end - range.start };
      live[i] = withoutRows(withoutIssues(m.part));
      report();
      settle[i].resolve({ ...m, range });
    }
  }, (error, i) => settle[i].reject(error));
  ranges.forEach((range, i) => readers.post(i, { type: 'read-range', file, start: range.start, end: range.end, options, liveMs }));
  // Cancelling settles the wait at once: terminated readers never answer.
  /** @type {ReturnType<typeof setInterval> | undefined} */
  let poll;
  const cancelled = new Promise(/** @param {(none: null) => void} resolve */ (resolve) => {
    poll = setInterval(() => {
      if (!isCurrent()) resolve(null);
    }, 50);
  });
  try {
    const shares = await Promise.race([all, cancelled]);
    return isCurrent() ? shares : null;
  } finally {
    clearInterval(poll);
    readers.terminate();
  }
}

