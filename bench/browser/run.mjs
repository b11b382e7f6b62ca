// By-hand browser benchmark: the app's worker reading a ≥200 MB PGN in headless Chromium, the
// longest gap between animation frames meanwhile, and lichess's chessops parsing and replaying
// the same bytes in the same browser session.
//
//   web/build-dist.sh && node bench/browser/run.mjs [--dist DIR] [--mb 200] [--readers 1,2] [--runs 3] [--app-only]
//     [--input NAME]   (a PGN of bench/data/ instead of the fixture mix, e.g. rated-64mb.pgn)
//
// The input is built from the repo's fixture PGNs into bench/data/ (git-ignored). The app reads it
// through its real file input (a File backed by the file on disk, as a user's would be). Prints
// MB/s for both, their ratio and the frame gaps; writes bench/out/browser.json.
import {
  closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync,
} from 'node:fs';
import os, { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, frameGaps, option, serve } from './common.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, '../..');
const args = process.argv.slice(2);
const DIST = resolve(option('--dist', join(REPO, 'dist')));
const TARGET_MB = Number(option('--mb', '200'));
const READERS = option('--readers', '1,2').split(',').map(Number);  // parallel readers per run
const RUNS = Number(option('--runs', '3'));
const INPUT = option('--input', null);  // served from /data/ to chessops too: a name in bench/data
const DATA = join(REPO, 'bench/data', INPUT || `fixtures-${TARGET_MB}mb.pgn`);
const OUT = join(REPO, 'bench/out');
const FIXTURES = ['OpenRating.pgn', 'lichess-2021-10-first999.pgn', 'lichess-100.pgn']
  .map((name) => join(REPO, 'tests/fixtures/pgn', name));

// ---- the input: the fixtures, concatenated until the target size ----

function buildInput() {
  if (INPUT) {
    if (!existsSync(DATA)) throw new Error(`${DATA}: no such input`);
    return;
  }
  if (existsSync(DATA) && statSync(DATA).size >= TARGET_MB * 1e6) return;
  mkdirSync(dirname(DATA), { recursive: true });
  // Each fixture once, cleaned for concatenation: a trailing DOS end-of-file byte dropped, games
  // separated by a blank line.
  const parts = FIXTURES.map((file) => {
    let text = readFileSync(file);
    while (text.length && (text[text.length - 1] === 0x1a || text[text.length - 1] === 0x0a
      || text[text.length - 1] === 0x0d)) text = text.subarray(0, text.length - 1);
    return Buffer.concat([text, Buffer.from('\n\n')]);
  });
  const fd = openSync(DATA, 'w');
  let written = 0;
  while (written < TARGET_MB * 1e6) {
    for (const part of parts) written += writeSync(fd, part);
  }
  closeSync(fd);
}

// ---- a static server for the site, the bench pages, the data and chessops ----

const MOUNTS = [
  ['/bench/', join(REPO, 'bench/browser')],
  ['/data/', join(REPO, 'bench/data')],
  ['/node_modules/', join(REPO, 'node_modules')],
  ['/', DIST],
];

// ---- measurements ----

// Records every animation frame with the mirror's state, from before the page's own scripts run.
function recordFrames() {
  window.__frames = [];
  const tick = (now) => {
    const mirror = document.getElementById('materialist-status');
    window.__frames.push([now, mirror ? mirror.dataset.state : 'loading']);
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

async function benchApp(context, baseUrl, readers) {
  const page = await context.newPage();
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.addInitScript(recordFrames);
  await page.goto(`${baseUrl}/index.html?readers=${readers}`);
  await page.waitForFunction(() => window.materialist && window.materialist.appReady && window.materialist.workerReady);
  await page.setInputFiles('#file-input', DATA);
  await page.waitForFunction(() => ['done', 'error'].includes(document.getElementById('materialist-status').dataset.state),
    null, { timeout: 600000 });
  const result = await page.$eval('#materialist-status', (e) => JSON.parse(e.dataset.result));
  const frames = await page.evaluate(() => window.__frames);
  await page.close();
  // A file too small for that many readers (16 MB each, at most 16) is read by fewer: say so, not
  // a wrong label.
  if (result.readers !== readers) {
    throw new Error(`asked for ${readers} readers, the read had ${result.readers} (at most 16, each at least 16 MB of the input)`);
  }
  return { result, reading: frameGaps(frames, 'reading'), fitting: frameGaps(frames, 'fitting') };
}

async function benchChessops(context, baseUrl) {
  const page = await context.newPage();
  await page.goto(`${baseUrl}/bench/chessops.html?file=/data/${DATA.split('/').pop()}`);
  await page.waitForFunction(() => window.benchResult, null, { timeout: 1800000, polling: 500 });
  const result = await page.evaluate(() => window.benchResult);
  await page.close();
  return result;
}

async function main() {
  if (!existsSync(join(DIST, 'index.html'))) {
    console.error(`no site in ${DIST}: run web/build-dist.sh first (or pass --dist)`);
    process.exit(2);
  }
  buildInput();
  const size = statSync(DATA).size;
  console.log(`input: ${DATA} (${(size / 1e6).toFixed(1)} MB${INPUT ? '' : ', the fixture PGNs repeated'})`);
  const server = await serve(MOUNTS);
  const baseUrl = `http://127.0.0.1:${server.address().port}`;
  const profile = mkdtempSync(join(tmpdir(), 'materialist-bench-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS, headless: true,
  });
  try {
    // The first read of a session is slower (the WebAssembly is compiled, the file reaches the
    // page cache): one read is thrown away, then each setting is read RUNS times in turn and the
    // median run (by MB/s) is reported.
    await benchApp(context, baseUrl, READERS[0]);
    const runs = [];
    for (let run = 0; run < RUNS; ++run) {
      for (const readers of READERS) runs.push({ readers, ...(await benchApp(context, baseUrl, readers)) });
    }
    const apps = [];
    for (const readers of READERS) {
      const mine = runs.filter((app) => app.readers === readers)
        .sort((a, b) => a.result.mbps - b.result.mbps);
      const app = mine[Math.floor((mine.length - 1) / 2)];
      const r = app.result;
      if (r.error) console.log(`app error: ${r.error}`);
      console.log(`materialist, ${readers} reader${readers === 1 ? '' : 's'}: ${r.mbps.toFixed(1)} MB/s (${(r.bytes / 1e6).toFixed(1)} MB in ${r.seconds.toFixed(2)} s; `
        + `${r.games} games, ${r.rows} rows; parse + legal replay + quiet filter + histogram)`);
      const gaps = app.reading;
      console.log(`  frames while reading: ${gaps.frames} gaps, median ${gaps.median.toFixed(1)} ms, `
        + `p95 ${gaps.p95.toFixed(1)} ms, p99 ${gaps.p99.toFixed(1)} ms (target <= 34), `
        + `${gaps.over50} over 50 ms (target 0), longest ${gaps.max.toFixed(1)} ms`);
      apps.push(app);
    }
    const one = apps.find((app) => app.readers === 1);
    for (const app of apps) {
      if (one && app !== one) {
        console.log(`ratio: ${app.readers} readers / 1 reader: ${(app.result.mbps / one.result.mbps).toFixed(2)}× `
          + `(target >= 1.7× for 2)`);
      }
    }
    if (args.includes('--app-only')) return;
    const peer = await benchChessops(context, baseUrl);
    if (peer.error) throw new Error(`chessops: ${peer.error}`);
    console.log(`chessops 0.14 (PgnParser stream + parseSan/play): ${peer.mbps.toFixed(1)} MB/s `
      + `(${peer.games} games, ${peer.plies} plies, ${peer.unplayable} stopped at an unplayable move, ${peer.seconds.toFixed(2)} s)`);
    for (const app of apps) {
      console.log(`ratio: materialist with ${app.readers} reader${app.readers === 1 ? '' : 's'} is ${(app.result.mbps / peer.mbps).toFixed(2)}× chessops`
        + (app.readers === 1 ? ' (target >= 15×; one reader >= 120 MB/s)' : ''));
    }
    mkdirSync(OUT, { recursive: true });
    const record = { date: new Date().toISOString(), cores: os.cpus().length, inputBytes: size, apps, chessops: peer };
    import('node:fs').then(({ writeFileSync }) => writeFileSync(join(OUT, 'browser.json'), JSON.stringify(record, null, 2)));
  } finally {
    await context.close();
    server.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
