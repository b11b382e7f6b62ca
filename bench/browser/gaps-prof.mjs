import { chromium } from 'playwright-core';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_FLAGS, serve } from './common.mjs';
const REPO = '/work/main';
const DATA = join(REPO, 'bench/data', process.argv[2] || 'fixtures-200mb.pgn');
const server = await serve([['/data/', join(REPO, 'bench/data')], ['/', join(REPO, 'dist')]]);
const base = `http://127.0.0.1:${server.address().port}`;
const ctx = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'gp-')), { executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS, headless: true });
for (let run = 0; run < 2; ++run) {
  const page = await ctx.newPage();
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${base}/index.html?readers=1`);
  await page.waitForFunction(() => window.materialist && window.materialist.appReady && window.materialist.workerReady);
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
  await cdp.send('Profiler.start');
  await page.setInputFiles('#file-input', DATA);
  await page.waitForFunction(() => ['done', 'error'].includes(document.getElementById('materialist-status').dataset.state), null, { timeout: 600000 });
  const { profile } = await cdp.send('Profiler.stop');
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children || []) parent.set(c, n.id);
  const name = (id) => { const n = byId.get(id); return `${n.callFrame.functionName || '(anon)'}@${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`; };
  const stack = (id) => { const s = []; for (let x = id; x !== undefined; x = parent.get(x)) s.push(name(x)); return s; };
  let t = profile.startTime; const samples = profile.samples.map((id, i) => { t += profile.timeDeltas[i]; return [t / 1000, id]; });
  // runs of busy samples
  const idle = (id) => byId.get(id).callFrame.functionName === '(idle)';
  let start = null, counts = new Map();
  const t0 = samples[0][0];
  for (let i = 0; i < samples.length; ++i) {
    const [ts, id] = samples[i];
    if (!idle(id)) {
      if (start === null) { start = ts; counts = new Map(); }
      const key = stack(id).slice(0, 6).join(' < ');
      counts.set(key, (counts.get(key) || 0) + 1);
    } else if (start !== null) {
      if (ts - start > 25) {
        console.log(`busy ${(start - t0).toFixed(0)} ms for ${(ts - start).toFixed(0)} ms:`);
        for (const [k, c] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, 6)) console.log(`   ${c}  ${k}`);
      }
      start = null;
    }
  }
  await page.close();
}
await ctx.close(); server.close();
