// The play-test's browser benchmark (issue 41), run by hand, never by CI: in headless Chromium,
// through the page's own share link (#play&…, which starts the match at once), prints
//   - nodes per second of one play worker in Chromium (the workers' nodes over their time) against
//     the native engine's (build/native/materialist_play_bench, if built; target >= 0.6x);
//   - games per minute with one play worker and with one per core (?playWorkers=N);
//   - the animation-frame gaps of the page while the match runs.
//   usage: node bench/browser/play.mjs [--dist dist] [--pairs 4] [--nodes 20000] [--workers N]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, frameGaps, option, serve } from './common.mjs';

const REPO = resolve(new URL('../..', import.meta.url).pathname);
const DIST = resolve(option('--dist', join(REPO, 'dist')));
const PAIRS = Number(option('--pairs', '4'));
const NODES = Number(option('--nodes', '20000'));
const CORES = Number(option('--workers', String(cpus().length)));

async function run(workers) {
  const server = await serve([['/', DIST]]);
  const profile = mkdtempSync(join(tmpdir(), 'materialist-bench-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS, headless: true, viewport: { width: 1400, height: 900 },
  });
  const page = context.pages()[0] || await context.newPage();
  const hash = `#play&set=learned-sample&set=classic&nodes=${NODES}&pairs=${PAIRS}&seed=1`;
  await page.goto(`http://127.0.0.1:${server.address().port}/index.html?playWorkers=${workers}${hash}`);
  await page.waitForFunction(() => {
    const r = JSON.parse(document.getElementById('materialist-status').dataset.result || '{}');
    return r.play && r.play.running;
  }, null, { timeout: 60000 });
  const started = Date.now();
  // The frames while it runs, then the face's counts once it ends.
  const frames = await page.evaluate(() => new Promise((done) => {
    const seen = [];
    const tick = (now) => {
      const r = JSON.parse(document.getElementById('materialist-status').dataset.result || '{}');
      const running = Boolean(r.play && r.play.running);
      seen.push([now, running ? 'playing' : 'idle']);
      if (running) requestAnimationFrame(tick);
      else done(seen);
    };
    requestAnimationFrame(tick);
  }));
  const seconds = (Date.now() - started) / 1000;
  const face = await page.evaluate(() => window.materialist.play);
  await context.close();
  rmSync(profile, { recursive: true, force: true });
  server.close();
  return { workers, seconds, gamesPerMinute: (2 * PAIRS * 60) / seconds, nps: face.nodes / (face.workerMs / 1000), gaps: frameGaps(frames, 'playing') };
}

const native = join(REPO, 'build/native/materialist_play_bench');
let nativeNps = NaN;
if (existsSync(native)) {
  const line = execFileSync(native, ['2000000'], { encoding: 'utf8' });
  nativeNps = Number((line.match(/nps (\S+)/) || [])[1]);
}
for (const workers of [...new Set([1, CORES])]) {
  const r = await run(workers);
  console.log(`${workers} play worker${workers === 1 ? '' : 's'}: ${r.gamesPerMinute.toFixed(1)} games/min (${2 * PAIRS} games at ${NODES} nodes a move in ${r.seconds.toFixed(1)} s), `
    + `${Math.round(r.nps)} nodes/s per worker`
    + (Number.isFinite(nativeNps) ? ` (${(r.nps / nativeNps).toFixed(2)}x native ${Math.round(nativeNps)}; target >= 0.6x)` : '')
    + `; frame gaps: median ${r.gaps.median?.toFixed(1)} ms, p95 ${r.gaps.p95?.toFixed(1)} ms, max ${r.gaps.max?.toFixed(1)} ms over ${r.gaps.frames} frames`);
}
