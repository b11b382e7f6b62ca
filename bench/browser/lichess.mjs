// The browser half of bench/lichess.sh (run by hand): the app reads a lichess-like .pgn.zst in
// headless Chromium through its real file input, once per (readers, estimates) pair, and this
// prints how long the first live estimate takes, MB/s, the cost of the live estimates and memory.
//
//   node bench/browser/lichess.mjs --file F.pgn.zst --pgn-bytes N [--dist dist] [--readers 1,2]
//        [--estimates on,off] [--out bench/data/lichess-browser.json] [--timeout-min 60]
//
// Every run gets a fresh browser. Timestamps are taken in the page (performance.now()): the file
// input's `change` event (the pick), then every change of the #materialist-status mirror, seen by
// a MutationObserver. Estimates are switched off, and timed when on, by wrapping the engine's
// estimate calls inside the engine worker (Playwright evaluates in the worker; web/*.js unchanged).
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, option, serve } from './common.mjs';

const DIST = resolve(option('--dist', 'dist'));
const FILE = resolve(option('--file', ''));
const PGN_BYTES = Number(option('--pgn-bytes', '0'));
const READERS = option('--readers', '1,2').split(',').map(Number);
const ESTIMATES = option('--estimates', 'on,off').split(',');
const OUT = option('--out', '');
const TIMEOUT_MS = Number(option('--timeout-min', '60')) * 60000;
// In the page, before its scripts: the pick time and the mirror's changes.
function recordTimeline() {
  const t = { pick: null, reading: null, firstEstimate: null, endReading: null, end: null, endState: null, readingStarts: 0 };
  window.__timeline = t;
  document.addEventListener('change', (e) => {
    if (e.target && e.target.id === 'file-input') t.pick = performance.now();
  }, true);
  let last = 'idle';
  const seen = (mirror) => {
    const now = performance.now();
    const state = mirror.dataset.state;
    if (state === 'reading') {
      if (last !== 'reading') t.readingStarts += 1;  // 2: read again (a parallel read gave up)
      if (t.reading === null) t.reading = now;
      if (t.firstEstimate === null && JSON.parse(mirror.dataset.result || '{}').estimate) t.firstEstimate = now;
    } else if (last === 'reading') t.endReading = now;
    if ((state === 'done' || state === 'error') && t.pick !== null) { t.end = now; t.endState = state; }
    last = state;
  };
  document.addEventListener('DOMContentLoaded', () => {
    const mirror = document.getElementById('materialist-status');
    new MutationObserver(() => seen(mirror)).observe(mirror, { attributes: true });
  });
}

// In the engine worker (engine-worker.js's global `worker`): wraps every estimate call of its
// Engine to time it, or to answer "no fit" at once when estimates are off.
function hookEstimates(off) {
  const proto = Object.getPrototypeOf(worker.engine);  // eslint-disable-line no-undef
  self.__bench = { ms: 0, calls: 0, off, hooked: [] };
  for (const name of ['estimate', 'estimateWith']) {
    const original = proto[name];
    if (typeof original !== 'function') continue;
    proto[name] = function timed(...rest) {
      const started = performance.now();
      const answer = off ? JSON.stringify({ type: 'estimate', games: 0, rows: 0, bytes: 0, fits: [] })
        : original.apply(this, rest);
      self.__bench.ms += performance.now() - started;
      self.__bench.calls += 1;
      return answer;
    };
    self.__bench.hooked.push(name);
  }
  return self.__bench.hooked;
}

// The largest peak resident memory (VmHWM, KiB) of the Chromium renderer processes under rootPid.
function rendererPeakKiB(rootPid) {
  const parent = new Map();
  for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      parent.set(Number(pid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch { /* gone */ }
  }
  const under = (pid) => { for (let p = pid; p > 1; p = parent.get(p) || 0) if (p === rootPid) return true; return false; };
  let peak = 0;
  for (const pid of parent.keys()) {
    try {
      if (!under(pid) || !readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer')) continue;
      const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (m) peak = Math.max(peak, Number(m[1]));
    } catch { /* gone */ }
  }
  return peak;
}

async function run(baseUrl, readers, estimates) {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS, headless: true });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.addInitScript(recordTimeline);
    await page.goto(`${baseUrl}/index.html?readers=${readers}`);
    await page.waitForFunction(() => window.materialist && window.materialist.appReady && window.materialist.workerReady,
      null, { timeout: 60000 });
    const engineWorker = page.workers().find((w) => w.url().endsWith('engine-worker.js'));
    if (!engineWorker) throw new Error('no engine worker found');
    const hooked = await engineWorker.evaluate(hookEstimates, estimates === 'off');
    if (hooked.length === 0) throw new Error('the engine has no estimate method to hook');
    // Heap poller: the WebAssembly memory of the engine and of every reader worker. A module's
    // memory only grows, so its last size is its peak; readers are sampled while they live.
    const heap = { engine: 0, reader: 0, readersTogether: 0, samples: 0 };
    let polling = true;
    const poller = (async () => {
      while (polling) {
        let together = 0;
        for (const w of page.workers()) {
          const bytes = await w.evaluate(() => {
            // The module's global in engine-worker.js (worker.wasm) and reader-worker.js
            // (reader.wasm; `loaded` in older versions): names not found read as 0.
            /* global worker, reader, loaded */
            const heaps = [() => worker.wasm, () => reader.wasm, () => loaded].map((get) => {
              try { const m = get(); return m && m.HEAPU8 ? m.HEAPU8.length : 0; } catch { return 0; }
            });
            return Math.max(...heaps);
          }).catch(() => 0);
          if (w === engineWorker) heap.engine = Math.max(heap.engine, bytes);
          else { heap.reader = Math.max(heap.reader, bytes); together += bytes; }
        }
        heap.readersTogether = Math.max(heap.readersTogether, together);
        heap.samples += 1;
        await new Promise((r) => setTimeout(r, 250));
      }
    })();
    await page.setInputFiles('#file-input', FILE);
    await page.waitForFunction(() => window.__timeline.end !== null, null, { timeout: TIMEOUT_MS, polling: 500 });
    polling = false;
    await poller;
    const t = await page.evaluate(() => window.__timeline);
    const result = await page.$eval('#materialist-status', (e) => JSON.parse(e.dataset.result));
    // (an engine that ran out of memory restarts: its hook and counts are gone)
    const bench = await engineWorker.evaluate(() => self.__bench).catch(() => ({ calls: null, ms: null }));
    const sec = (a, b) => (a === null || b === null ? null : (b - a) / 1000);
    const readSeconds = sec(t.pick, t.endReading);
    return {
      readers, estimates, state: t.endState, error: result.error || null, readingStarts: t.readingStarts,
      games: result.games, pgnBytesParsed: result.bytes, fileBytes: statSync(FILE).size,
      firstEstimateSeconds: sec(t.pick, t.firstEstimate), readSeconds, doneSeconds: sec(t.pick, t.end),
      mbpsFile: readSeconds ? statSync(FILE).size / readSeconds / 1e6 : null,
      mbpsPgn: readSeconds ? (PGN_BYTES || result.bytes) / readSeconds / 1e6 : null,
      workerSeconds: result.seconds, workerMbps: result.mbps,
      estimatesShown: result.estimates || 0, estimateCalls: bench.calls, estimateMs: bench.ms,
      heapEngineBytes: heap.engine, heapReaderBytes: heap.reader, heapReadersTogetherBytes: heap.readersTogether,
      heapSamples: heap.samples, rendererPeakKiB: rendererPeakKiB(process.pid),  // the one browser running is a child of this process
    };
  } finally {
    await browser.close();
  }
}

const f1 = (x, digits = 1) => (x === null || x === undefined || Number.isNaN(x) ? '-' : x.toFixed(digits));
const mib = (bytes) => f1(bytes / 1048576);

async function main() {
  if (!existsSync(join(DIST, 'index.html'))) throw new Error(`no site in ${DIST}`);
  if (!existsSync(FILE)) throw new Error(`no input ${FILE}`);
  const server = await serve([['/', DIST]]);
  const baseUrl = `http://127.0.0.1:${server.address().port}`;
  const runs = [];
  console.log(`browser: ${FILE} (${f1(statSync(FILE).size / 1e6)} MB .zst, ${f1(PGN_BYTES / 1e6)} MB PGN), site ${DIST}`);
  console.log(['readers', 'estimates', 'first est. s', 'read s', 'done s', 'MB/s zst', 'MB/s PGN', 'est. calls', 'est. ms',
    'engine heap MiB', 'reader heap MiB', 'renderer peak MiB', 'state'].join(' | '));
  try {
    for (const estimates of ESTIMATES) {
      for (const readers of READERS) {
        const r = await run(baseUrl, readers, estimates);
        runs.push(r);
        console.log([r.readers, r.estimates, f1(r.firstEstimateSeconds, 2), f1(r.readSeconds, 2), f1(r.doneSeconds, 2), f1(r.mbpsFile),
          f1(r.mbpsPgn), r.estimateCalls, f1(r.estimateMs, 0), mib(r.heapEngineBytes),
          r.heapReaderBytes ? `${mib(r.heapReaderBytes)} (all: ${mib(r.heapReadersTogetherBytes)})` : '-',
          f1(r.rendererPeakKiB / 1024),
          `${r.state}${r.readingStarts > 1 ? ` (read ${r.readingStarts}×)` : ''}${r.error ? `: ${r.error}` : ''}`].join(' | '));
      }
    }
  } finally {
    server.close();
  }
  // The cost of the live estimates: the read with them against the read without, per readers.
  const costs = READERS.map((readers) => {
    const on = runs.find((r) => r.readers === readers && r.estimates === 'on');
    const off = runs.find((r) => r.readers === readers && r.estimates === 'off');
    if (!on || !off) return null;
    const extra = on.readSeconds - off.readSeconds;
    console.log(`estimates, ${readers} reader(s): read ${f1(on.readSeconds, 2)} s with, ${f1(off.readSeconds, 2)} s without `
      + `(${f1(extra, 2)} s, ${f1(100 * extra / off.readSeconds)} %); ${on.estimateCalls} estimate calls took `
      + `${f1(on.estimateMs, 0)} ms in the engine worker (${f1(on.estimateCalls ? on.estimateMs / on.estimateCalls : NaN)} ms each)`);
    return { readers, withSeconds: on.readSeconds, withoutSeconds: off.readSeconds, extraSeconds: extra,
      estimateCalls: on.estimateCalls, estimateMs: on.estimateMs };
  }).filter(Boolean);
  if (OUT) writeFileSync(OUT, JSON.stringify({ file: FILE, pgnBytes: PGN_BYTES, runs, estimateCost: costs }, null, 2));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
