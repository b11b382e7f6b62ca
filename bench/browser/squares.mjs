// Values by square in the browser against the native tool (issue 49's "the browser ≤ 2× native,
// memory ≤ 128 MB", "streaming into the model no slower than 0.5× the material fit"): the same
// games, every quiet position (`--every-position`, the page's "one row per material vector" off),
// draws left out. Prints the native fit's seconds and peak resident memory, the engine worker's
// fit seconds (its own clock) and WebAssembly heap, the ratio, and the page's read with the
// squares model (its live previews included) against the same read for the material fit.
//
//   node bench/browser/squares.mjs [--dist dist] [--cli build/native/materialist]
//        [--file tests/fixtures/pgn/lichess-2021-10-first999.pgn] [--times 27] [--readers 1]
//
// The file is the fixture repeated `--times` times (×27: 67 MB, about 970 000 quiet positions),
// written once under the system's temporary folder for the native run and built in the page as a
// Blob for the browser's (dropped on the canvas, as a user does).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, option, serve } from './common.mjs';

const DIST = resolve(option('--dist', 'dist'));
const CLI = resolve(option('--cli', 'build/native/materialist'));
const FILE = resolve(option('--file', 'tests/fixtures/pgn/lichess-2021-10-first999.pgn'));
const TIMES = Number(option('--times', '27'));
const READERS = Number(option('--readers', '1'));

const text = readFileSync(FILE, 'utf8') + '\n\n';
const big = join(tmpdir(), `materialist-squares-bench-x${TIMES}.pgn`);
if (!existsSync(big)) writeFileSync(big, text.repeat(TIMES));
const megabytes = (text.length * TIMES) / 1e6;

// ---- native: the CLI's fit (its own clock for the squares), GNU time's peak resident memory ----
const peakFile = join(tmpdir(), 'materialist-squares-bench.peak');
const native = JSON.parse(execFileSync('/usr/bin/time', ['-f', '%M', '-o', peakFile, CLI, 'fit', '--model', 'squares',
  '--every-position', '--preset', 'article', '--json', '-j', '1', big], { encoding: 'utf8', maxBuffer: 64 << 20 }));
const peakKiB = Number(readFileSync(peakFile, 'utf8').trim().split('\n').pop());

// ---- the browser: the page's worker reads and fits the same positions ----
const server = await serve([['/', DIST]]);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS, headless: true });

// Drops the file on a fresh page with `hash`'s settings: the read's seconds (drop to the end of
// reading, the page's clock), the live previews of values by square during it, the final
// squares message (when the model asks for it) and the engine worker's WebAssembly heap.
async function readInPage(hash, withSquares) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(`http://127.0.0.1:${server.address().port}/?readers=${READERS}#${hash}`);
  await page.waitForFunction(() => window.materialist && window.materialist.appReady && window.materialist.workerReady,
    null, { timeout: 60000 });
  await page.evaluate(({ body, times, name }) => {
    const mirror = document.getElementById('materialist-status');
    const clock = { dropped: performance.now(), readEnd: 0 };
    window.readClock = clock;
    new MutationObserver(() => {
      if (!clock.readEnd && mirror.dataset.state !== 'reading' && mirror.dataset.state !== 'idle') clock.readEnd = performance.now();
    }).observe(mirror, { attributes: true, attributeFilter: ['data-state'] });
    const transfer = new DataTransfer();
    transfer.items.add(new File(Array(times).fill(body), name, { type: 'application/x-chess-pgn' }));
    const canvas = document.getElementById('canvas');
    for (const type of ['dragenter', 'dragover', 'drop']) {
      canvas.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer }));
    }
  }, { body: text, times: TIMES, name: `lichess-x${TIMES}.pgn` });
  const result = await (await page.waitForFunction((squares) => {
    const mirror = document.getElementById('materialist-status');
    const r = JSON.parse(mirror.dataset.result);
    return mirror.dataset.state === 'done' && (!squares || r.squares) ? r : null;
  }, withSquares, { timeout: 30 * 60000, polling: 500 })).jsonValue();
  const clock = await page.evaluate(() => window.readClock);
  let heapMb = NaN;
  for (const w of page.workers()) {
    const bytes = await w.evaluate(() => (typeof worker !== 'undefined' && worker.wasm ? worker.wasm.HEAPU8.length : 0))  // eslint-disable-line no-undef
      .catch(() => 0);
    if (bytes > 0) heapMb = bytes / 1e6;
  }
  await page.close();
  return { readSeconds: (clock.readEnd - clock.dropped) / 1000, previews: result.squaresPreviews || 0, squares: result.squares, heapMb };
}

const material = await readInPage('quiet.distinct=false', false);
const model = await readInPage('model.squares=true&quiet.distinct=false', true);
const { squares, heapMb } = model;
await browser.close();
server.close();

if (squares.error) throw new Error(`the page fitted no values by square: ${squares.error}`);
const rows = [
  ['input', `${megabytes.toFixed(0)} MB (${FILE.split('/').pop()} ×${TIMES})`],
  ['positions (training)', `native ${native.validation.trainingPositions}, browser ${squares.validation.trainingPositions}`],
  ['sampled', `native ${native.squaresData.sampled}, browser ${squares.data.sampled}`],
  ['squares fit, native (one core)', `${native.squaresSeconds.toFixed(2)} s, peak resident ${(peakKiB / 1024).toFixed(0)} MB (whole CLI run)`],
  ['squares fit, browser worker', `${squares.seconds.toFixed(2)} s, WebAssembly heap ${heapMb.toFixed(0)} MB (after the fit; it never shrinks)`],
  ['browser / native', `${(squares.seconds / native.squaresSeconds).toFixed(2)}×`],
  ['held-out log-loss', `native ${native.validation.logLoss.toFixed(5)}, browser ${squares.validation.logLoss.toFixed(5)}`],
  ['the page\'s read, material fit', `${material.readSeconds.toFixed(2)} s (${(megabytes / material.readSeconds).toFixed(1)} MB/s)`],
  ['the page\'s read, squares model', `${model.readSeconds.toFixed(2)} s (${(megabytes / model.readSeconds).toFixed(1)} MB/s), ` +
    `${model.previews} live preview(s): ${(material.readSeconds / model.readSeconds).toFixed(2)}× the material read's speed`],
];
for (const [what, figure] of rows) console.log(`${what.padEnd(32)} ${figure}`);
