// By-hand profile of the page's main thread while the app reads a large PGN (see run.mjs for
// the input): a Chromium trace (devtools.timeline) of the read, summed by what ran on the page's
// main thread (animation frames, worker messages, GC, paint...), the longest tasks, the
// animation-frame gaps, and the messages the engine worker posted to the page (count and size by
// type). Writes the trace to bench/out/profile-<readers>.json for chrome://tracing or devtools.
//
//   node bench/browser/profile.mjs [--dist DIR] [--mb 200] [--readers 1] [--no-trace]
import {
  mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, frameGaps, option, serve } from './common.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, '../..');
const args = process.argv.slice(2);
const DIST = resolve(option('--dist', join(REPO, 'dist')));
const TARGET_MB = Number(option('--mb', '200'));
const READERS = Number(option('--readers', '1'));
const TRACE = !args.includes('--no-trace');  // CPU times and messages only: tracing costs CPU too
const DATA = join(REPO, 'bench/data', `fixtures-${TARGET_MB}mb.pgn`);
const OUT = join(REPO, 'bench/out');
const CATEGORIES = [
  'devtools.timeline', 'disabled-by-default-devtools.timeline', 'disabled-by-default-devtools.timeline.frame',
  'v8', 'v8.execute', 'blink.user_timing', 'toplevel', 'gpu', 'cc', 'viz',
].join(',');
// In the page, before its scripts: animation frames with the mirror's state, and every message
// of the engine worker (type, size of its structured clone as JSON, arrival time).
function instrument() {
  window.__frames = [];
  window.__messages = [];
  const tick = (now) => {
    const mirror = document.getElementById('materialist-status');
    window.__frames.push([now, mirror ? mirror.dataset.state : 'loading']);
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  const Native = window.Worker;
  window.Worker = class extends Native {
    constructor(...a) {
      super(...a);
      this.addEventListener('message', (event) => {
        let size = 0;
        try { size = JSON.stringify(event.data).length; } catch { size = -1; }
        window.__messages.push([performance.now(), event.data && event.data.type, size]);
      });
    }
  };
}

// CPU time (ms) of every thread of the browser's processes, from /proc (Linux): key "process thread".
// Process kinds by their command line (--type=renderer, gpu-process...), threads by name.
function cpuTimes() {
  const times = new Map();
  const tick = 10;  // ms per clock tick (USER_HZ = 100)
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let command = '';
    try { command = readFileSync(`/proc/${pid}/cmdline`, 'utf8'); } catch { continue; }
    if (!command.includes('chromium')) continue;
    const kind = (/--type=([a-z-]+)/.exec(command) || [, 'browser'])[1];
    let tasks = [];
    try { tasks = readdirSync(`/proc/${pid}/task`); } catch { continue; }
    for (const tid of tasks) {
      try {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const key = `${kind}/${pid} ${name}/${tid}`;
        times.set(key, (Number(fields[11]) + Number(fields[12])) * tick);
      } catch { /* gone */ }
    }
  }
  return times;
}

// Sums the main thread's top-level tasks and their direct children by name.
function summarise(events, window) {
  const threads = new Map();
  for (const e of events) {
    if (e.ph === 'M' && e.name === 'thread_name') threads.set(`${e.pid}:${e.tid}`, e.args.name);
  }
  const byThread = new Map();
  for (const e of events) {
    if (e.ph !== 'X' || e.ts < window[0] || e.ts > window[1]) continue;
    const name = threads.get(`${e.pid}:${e.tid}`) || `?${e.tid}`;
    if (!byThread.has(name)) byThread.set(name, []);
    byThread.get(name).push(e);
  }
  const seconds = (window[1] - window[0]) / 1e6;
  const report = {};
  for (const [thread, list] of byThread) {
    const tasks = list.filter((e) => e.name === 'ThreadControllerImpl::RunTask' || e.name === 'RunTask');
    const busy = tasks.reduce((s, e) => s + (e.dur || 0), 0) / 1e3;
    report[thread] = { busyMs: busy, busyShare: busy / 1e3 / seconds, tasks: tasks.length };
  }
  const main = [...byThread.entries()].filter(([name]) => name === 'CrRendererMain').flatMap(([, list]) => list);
  main.sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  // Inclusive time per event name (nested events counted in their own name too).
  const byName = new Map();
  for (const e of main) {
    const entry = byName.get(e.name) || { ms: 0, count: 0, max: 0 };
    entry.ms += (e.dur || 0) / 1e3;
    entry.count += 1;
    entry.max = Math.max(entry.max, (e.dur || 0) / 1e3);
    byName.set(e.name, entry);
  }
  const tasks = main.filter((e) => e.name === 'ThreadControllerImpl::RunTask' || e.name === 'RunTask');
  const long = tasks.filter((t) => t.dur > 30e3).map((t) => {
    const inside = main.filter((e) => e !== t && e.ts >= t.ts && e.ts + (e.dur || 0) <= t.ts + t.dur && (e.dur || 0) > 2e3);
    return { atMs: (t.ts - window[0]) / 1e3, ms: t.dur / 1e3, inside: inside.map((e) => `${e.name} ${(e.dur / 1e3).toFixed(1)}`).slice(0, 12) };
  });
  return { seconds, threads: report, byName: [...byName.entries()].sort((a, b) => b[1].ms - a[1].ms).slice(0, 40), long };
}

async function main() {
  const server = await serve([['/', DIST]]);
  const baseUrl = `http://127.0.0.1:${server.address().port}`;
  const profile = mkdtempSync(join(tmpdir(), 'materialist-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS, headless: true,
  });
  try {
    const page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.addInitScript(instrument);
    await page.goto(`${baseUrl}/index.html?readers=${READERS}`);
    await page.waitForFunction(() => window.materialist && window.materialist.appReady && window.materialist.workerReady);
    const cdp = await page.context().newCDPSession(page);
    const events = [];
    cdp.on('Tracing.dataCollected', (data) => events.push(...data.value));
    const complete = new Promise((done) => cdp.once('Tracing.tracingComplete', done));
    if (TRACE) await cdp.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReportEvents' });
    const cpuBefore = cpuTimes();
    const wallBefore = Date.now();
    // Sampled meanwhile too: readers end (and leave /proc) before the read does.
    const cpuLatest = new Map(cpuBefore);
    const sampler = setInterval(() => { for (const [key, ms] of cpuTimes()) cpuLatest.set(key, ms); }, 200);
    await page.setInputFiles('#file-input', DATA);
    await page.waitForFunction(() => document.getElementById('materialist-status').dataset.state === 'reading');
    await page.waitForFunction(() => document.getElementById('materialist-status').dataset.state !== 'reading', null, { timeout: 600000, polling: 200 });
    clearInterval(sampler);
    for (const [key, ms] of cpuTimes()) cpuLatest.set(key, ms);
    const cpuAfter = cpuLatest;
    const wall = Date.now() - wallBefore;
    if (TRACE) {
      await cdp.send('Tracing.end');
      await complete;
    }
    const frames = await page.evaluate(() => window.__frames);
    const messages = await page.evaluate(() => window.__messages);
    const result = await page.$eval('#materialist-status', (e) => JSON.parse(e.dataset.result));
    const reading = frames.filter((f) => f[1] === 'reading');
    const types = {};
    const readStart = reading.length ? reading[0][0] : 0;
    const readEnd = reading.length ? reading[reading.length - 1][0] : 0;
    for (const [t, type, size] of messages) {
      if (t < readStart || t > readEnd) continue;
      const entry = types[type] || (types[type] = { count: 0, bytes: 0, max: 0 });
      entry.count += 1;
      entry.bytes += size;
      entry.max = Math.max(entry.max, size);
    }
    console.log(`read: ${result.mbps && result.mbps.toFixed(1)} MB/s, ${((readEnd - readStart) / 1e3).toFixed(1)} s`);
    console.log('frame gaps while reading:', JSON.stringify(frameGaps(frames, 'reading')));
    console.log('messages to the page while reading (count, JSON bytes total, max):');
    for (const [type, e] of Object.entries(types)) console.log(`  ${type}: ${e.count}, ${e.bytes}, ${e.max}`);
    const cpu = [...cpuAfter].map(([key, ms]) => [key, ms - (cpuBefore.get(key) || 0)]).filter(([, ms]) => ms > 0);
    const total = cpu.reduce((sum, [, ms]) => sum + ms, 0);
    console.log(`CPU time of the browser's threads during the read (${wall} ms of wall time; total ${total} ms = ${(total / wall).toFixed(2)} cores):`);
    for (const [key, ms] of cpu.sort((a, b) => b[1] - a[1]).slice(0, 14)) console.log(`  ${key}: ${ms} ms (${(100 * ms / wall).toFixed(0)}%)`);
    if (TRACE) {
      // The read's window in trace time: its animation frames, half a second in from either end.
      const tsOf = events.filter((e) => e.ph === 'X' && e.name === 'FireAnimationFrame').map((e) => e.ts);
      const summary = summarise(events, [Math.min(...tsOf) + 500e3, Math.max(...tsOf) - 500e3]);
      console.log(`threads (busy ms, share of ${summary.seconds.toFixed(1)} s, tasks):`);
      for (const [thread, t] of Object.entries(summary.threads).sort((a, b) => b[1].busyMs - a[1].busyMs).slice(0, 12)) {
        console.log(`  ${thread}: ${t.busyMs.toFixed(0)} ms, ${(100 * t.busyShare).toFixed(1)}%, ${t.tasks}`);
      }
      console.log('main thread, inclusive ms by event (count, max):');
      for (const [name, e] of summary.byName) console.log(`  ${name}: ${e.ms.toFixed(0)} ms (${e.count}, max ${e.max.toFixed(1)})`);
      console.log(`main-thread tasks over 30 ms: ${summary.long.length}`);
      for (const t of summary.long.slice(0, 15)) console.log(`  at ${t.atMs.toFixed(0)} ms: ${t.ms.toFixed(1)} ms: ${t.inside.join(' | ')}`);
      mkdirSync(OUT, { recursive: true });
      writeFileSync(join(OUT, `profile-${READERS}.json`), JSON.stringify({ traceEvents: events }));
    }
    await page.close();
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
