import { chromium } from 'playwright-core';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_FLAGS, serve } from './common.mjs';
const REPO = '/work/main';
const DATA = join(REPO, 'bench/data', process.argv[2] || 'fixtures-200mb.pgn');
const readers = Number(process.argv[3] || 1);
function rec() {
  window.__frames = []; window.__long = [];
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push([e.startTime, e.duration]); }).observe({ type: 'longtask', buffered: true });
  const tick = (now) => { const m = document.getElementById('materialist-status'); window.__frames.push([now, performance.now(), m ? m.dataset.state : 'loading']); requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
}
const server = await serve([['/data/', join(REPO, 'bench/data')], ['/', join(REPO, 'dist')]]);
const base = `http://127.0.0.1:${server.address().port}`;
const ctx = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'gp-')), { executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS, headless: true });
for (let run = 0; run < 2; ++run) {
  const page = await ctx.newPage();
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.addInitScript(rec);
  await page.goto(`${base}/index.html?readers=${readers}`);
  await page.waitForFunction(() => window.materialist && window.materialist.appReady && window.materialist.workerReady);
  await page.setInputFiles('#file-input', DATA);
  await page.waitForFunction(() => ['done', 'error'].includes(document.getElementById('materialist-status').dataset.state), null, { timeout: 600000 });
  const f = await page.evaluate(() => window.__frames);
  const lt = await page.evaluate(() => window.__long);
  const r = await page.$eval('#materialist-status', (e) => JSON.parse(e.dataset.result));
  const reading = f.filter((x) => x[2] === 'reading');
  const t0 = reading.length ? reading[0][0] : 0;
  const gaps = [];
  for (let i = 1; i < f.length; ++i) if (f[i][2] === 'reading' && f[i - 1][2] === 'reading') gaps.push([f[i][0] - t0, f[i][0] - f[i - 1][0], f[i][1] - f[i][0]]);
  const sorted = gaps.map((g) => g[1]).sort((a, b) => a - b);
  console.log(`run ${run}: ${r.mbps.toFixed(1)} MB/s, ${gaps.length} gaps, median ${sorted[sorted.length >> 1].toFixed(1)}, p99 ${sorted[Math.floor(0.99 * sorted.length)].toFixed(1)}, max ${sorted[sorted.length - 1].toFixed(1)}`);
  console.log('  long gaps (t, gap, cbdelay):', gaps.filter((g) => g[1] > 20).map((g) => g.map((v) => v.toFixed(0)).join('/')).join(' '));
  console.log('  long tasks in reading (t, dur):', lt.filter((x) => x[0] >= t0 && x[0] <= t0 + 5000).map((x) => `${(x[0] - t0).toFixed(0)}/${x[1].toFixed(0)}`).join(' '));
  await page.close();
}
await ctx.close(); server.close();
