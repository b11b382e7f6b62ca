// The harness of the browser end-to-end tests (tests/e2e/run.mjs runs them): a static server for
// dist/ under a sub-path, one headless Chromium (playwright-core) with a fresh browser context
// per page, helpers that click the ImGui buttons where the app says they are, drop files through
// real DataTransfer events and read the #materialist-status mirror, and the test registry with
// its runner.
//
//   import { test, openPage, check } from './harness.mjs';
//   test('name', async ({ baseUrl }) => { const { context, page } = await openPage(baseUrl); ... });
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const HERE = dirname(fileURLToPath(import.meta.url));
export const REPO = resolve(HERE, '../..');
export const ARTIFACTS = join(HERE, 'artifacts');
export const FIXTURES = join(REPO, 'tests/fixtures/pgn');
const ARTICLE_VALUES = { N: 288, B: 345, R: 480, Q: 1077 };
export const CHROMIUM_FLAGS = [  // also the browser benchmarks' (bench/browser/common.mjs)
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--enable-unsafe-swiftshader', '--use-angle=swiftshader',
];

// ---- a tiny static server with the MIME types the site needs ----

const MIME = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm', '.ttf': 'font/ttf', '.pgn': 'application/x-chess-pgn',
  '.json': 'application/json', '.txt': 'text/plain; charset=utf-8', '.png': 'image/png',
};

// The site is served under a sub-path, as on a project page of a static host: every URL it uses
// must be relative.
const SUB_PATH = '/some/sub-path/';

function serve(root) {
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url, 'http://x').pathname);
    if (!path.startsWith(SUB_PATH)) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('outside the site');
      return;
    }
    let file = normalize(join(root, path.slice(SUB_PATH.length)));
    if (!file.startsWith(root)) {
      response.writeHead(403).end();
      return;
    }
    try {
      if (statSync(file).isDirectory()) file = join(file, 'index.html');
      const body = readFileSync(file);
      response.writeHead(200, {
        'content-type': MIME[extname(file)] || 'application/octet-stream',
        'content-length': body.length,
        'cache-control': 'no-store',
      });
      response.end(body);
    } catch {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  return new Promise((ready) => server.listen(0, '127.0.0.1', () => ready(server)));
}

// Serves another copy of the site (a test leaves a file out of it): its address and a close().
export async function serveSite(root) {
  const server = await serve(root);
  return {
    baseUrl: `http://127.0.0.1:${server.address().port}${SUB_PATH.slice(0, -1)}`,
    close: () => new Promise((done) => server.close(done)),
  };
}

// ---- helpers used by the tests ----

class Failure extends Error {}
export function check(condition, message) {
  if (!condition) throw new Failure(message);
}

// One headless Chromium serves the run (launched at the first page, again if it goes away); every
// page gets a browser context of its own: no cookies, storage, cache or downloads shared.
let browser = null;
async function sharedBrowser() {
  if (!browser || !browser.isConnected()) {
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS, headless: true });
  }
  return browser;
}
// The contexts of the running test not yet closed (a failed test leaves its own open).
const openContexts = new Set();

// motion: 'reduce' (the default) asks for reduced motion, so a fit's descent is posted at once;
// 'no-preference' for a test that watches the descent converge (the page's default for users).
export async function openPage(baseUrl, { hash = '', query = '', scale = 1, width = 1400, height = 900, touch = false, motion = 'reduce' } = {}) {
  const browserContext = await (await sharedBrowser()).newContext({
    viewport: { width, height }, deviceScaleFactor: scale, hasTouch: touch, reducedMotion: motion,
  });
  const page = await browserContext.newPage();
  const context = {
    // Requests of the page and of its workers (a test makes one fail).
    route: (pattern, handler) => browserContext.route(pattern, handler),
    // Every request of the page and of its workers, nested ones too (a test looks for one).
    onRequest: (listener) => browserContext.on('request', listener),
    close: async () => {
      openContexts.delete(context);
      await browserContext.close();
    },
    page,
  };
  openContexts.add(context);
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message || error.stack || error.name || String(error)}`));
  await page.goto(`${baseUrl}/index.html${query}${hash}`);
  await page.waitForFunction(() => window.materialist && window.materialist.appReady
    && window.materialist.workerReady && window.materialist.ui.buttons['Load sample'], null,
  { timeout: 30000 });
  return { context, page, problems };
}

export const mirrorState = (page) => page.$eval('#materialist-status', (e) => e.dataset.state);
export const mirrorResult = (page) => page.$eval('#materialist-status', (e) => JSON.parse(e.dataset.result));

// Records every data-state the mirror takes from now on (call before starting a read), so that
// waitForReadEnd cannot mistake the previous read's final state for the next read's.
export async function watchStates(page) {
  await page.evaluate(() => {
    const mirror = document.getElementById('materialist-status');
    const seen = [];
    /** @type {any} */ (window).__e2eStates = seen;
    // Each change's new value is the next change's old value (or the current one for the last),
    // so that two changes within one task are both recorded.
    new MutationObserver((records) => {
      records.forEach((record, i) => seen.push(i + 1 < records.length ? records[i + 1].oldValue : mirror.dataset.state));
    }).observe(mirror, { attributes: true, attributeFilter: ['data-state'], attributeOldValue: true });
  });
}

// After watchStates: waits for `begin` ('reading' or 'fitting') and then 'done' or 'error', and
// returns which (never the end an earlier read or fit left on the mirror).
async function waitForEndAfter(page, begin, timeout) {
  const handle = await page.waitForFunction((first) => {
    const seen = /** @type {any} */ (window).__e2eStates || [];
    const start = seen.indexOf(first);
    if (start < 0) return null;
    return seen.slice(start + 1).find((state) => state === 'done' || state === 'error') || null;
  }, begin, { timeout });
  return handle.jsonValue();
}

// After watchStates and the start of a read: waits for 'reading' and then 'done' or 'error'.
export function waitForReadEnd(page, timeout = 60000) {
  return waitForEndAfter(page, 'reading', timeout);
}

// After watchStates and the start of a fit without a read: waits for 'fitting' and then 'done' or
// 'error'.
export function waitForFitEnd(page, timeout = 60000) {
  return waitForEndAfter(page, 'fitting', timeout);
}

// Waits until data-state is one of `wanted` and returns the state it saw (not a later one).
export async function waitForState(page, wanted, timeout = 60000) {
  const handle = await page.waitForFunction((states) => {
    const state = document.getElementById('materialist-status').dataset.state;
    return states.includes(state) ? state : null;
  }, [].concat(wanted), { timeout });
  return handle.jsonValue();
}

// Clicks Load sample and returns how that read ended ('done' or 'error'): never the state a
// previous read left behind, which is still on the mirror for a moment after the click.
export async function loadSample(page, timeout = 90000) {
  await watchStates(page);
  await clickButton(page, 'Load sample');
  return waitForReadEnd(page, timeout);
}

// Waits until the app has drawn the current state: a few animation frames.
export async function settle(page, frames = 6) {
  await page.evaluate((n) => new Promise((done) => {
    const tick = (left) => (left === 0 ? done() : requestAnimationFrame(() => tick(left - 1)));
    tick(n);
  }), frames);
}

// A real mouse click at the centre of an ImGui button, located through the app's layout hook.
export async function clickButton(page, label) {
  await page.waitForFunction((l) => window.materialist.ui.buttons[l], label, { timeout: 10000 });
  // The rect once it holds still for a frame: a popup's first frame measures it (hidden) and the
  // next may move it (one that would overflow the bottom opens upwards), so a rect read in the
  // first frame can be a click beside the item.
  const rectNow = () => page.evaluate((l) => JSON.stringify(window.materialist.ui.buttons[l]), label);
  let seen = await rectNow();
  for (let frame = 0; frame < 10; ++frame) {
    await settle(page, 1);
    const now = await rectNow();
    if (now !== undefined && now === seen) break;
    seen = now;
  }
  if (seen === undefined) throw new Error(`the control '${label}' is no longer drawn`);
  const rect = JSON.parse(seen);
  const box = await page.$eval('#canvas', (c) => { const r = c.getBoundingClientRect(); return { x: r.left, y: r.top }; });
  const x = box.x + rect.x + rect.width / 2;
  const y = box.y + rect.y + rect.height / 2;
  // One move + press + release; the ImGui GLFW backend keeps a press that lasted less than a frame.
  await page.mouse.click(x, y);
  await settle(page, 2);
}

// Dispatches dragenter, dragover and drop on the canvas with real File objects in a DataTransfer.
// files: [{name, text}] or [{name, bytes: number[]}] or [{name, repeat: {text, times}}].
export async function dropFiles(page, files, { screenshotWhileDragging = null } = {}) {
  await page.evaluate((specs) => {
    window.__e2eTransfer = null;  // let the previous drop's Blob go
    const transfer = new DataTransfer();
    for (const spec of specs) {
      let parts;
      if (spec.bytes) parts = [new Uint8Array(spec.bytes)];
      else if (spec.repeat) parts = Array(spec.repeat.times).fill(spec.repeat.text);
      else parts = [spec.text];
      transfer.items.add(new File(parts, spec.name, { type: 'application/x-chess-pgn' }));
    }
    window.__e2eTransfer = transfer;
    const canvas = document.getElementById('canvas');
    const init = { bubbles: true, cancelable: true, dataTransfer: transfer };
    canvas.dispatchEvent(new DragEvent('dragenter', init));
    canvas.dispatchEvent(new DragEvent('dragover', init));
  }, files);
  await settle(page, 4);
  if (screenshotWhileDragging) await page.screenshot({ path: join(ARTIFACTS, screenshotWhileDragging) });
  await page.evaluate(() => {
    const canvas = document.getElementById('canvas');
    canvas.dispatchEvent(new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: window.__e2eTransfer }));
  });
}

// Scrolls the settings panel (mouse wheel over it; the one scrolling column on a phone) until the
// published control is inside it.
async function reveal(page, label) {
  const height = (await page.viewportSize()).height;
  for (let i = 0; i < 40; ++i) {
    await page.waitForFunction((l) => window.materialist.ui.buttons[l], label, { timeout: 10000 });
    const [rect, panel] = await page.evaluate((l) => [window.materialist.ui.buttons[l],
      window.materialist.ui.buttons['panel:scroll']], label);
    const top = panel ? panel.y : 110;
    const bottom = panel ? Math.min(height, panel.y + panel.height) : height;
    if (rect.y >= top - 1 && rect.y + rect.height < bottom - 10) return;
    await page.mouse.move(panel ? panel.x + panel.width / 2 : 150, panel ? (top + bottom) / 2 : height / 2);
    await page.mouse.wheel(0, rect.y + rect.height >= bottom - 10 ? 150 : -150);
    await settle(page, 3);
  }
}

// Clicks a control of the settings panel (opening the panel first if needed).
export async function clickControl(page, label) {
  const open = await page.evaluate(() => Boolean(window.materialist.ui.buttons['model:ordinal']));
  if (!open && label !== 'Settings') {
    await reveal(page, 'Settings');
    await clickButton(page, 'Settings');
  }
  await reveal(page, label);
  await clickButton(page, label);
}

// Clicks the app's "Copy share link" and resolves with the link it wrote (once its toast shows).
export async function copyShareLink(page) {
  await clickControl(page, 'Copy share link');
  return page.waitForFunction(() => {
    const r = JSON.parse(document.getElementById('materialist-status').dataset.result);
    return r.shareLink && r.toast && r.shareLink;
  }, null, { timeout: 10000 }).then((h) => h.jsonValue());
}

// Types into a published text or number field: click, select all, type, Tab.
export async function typeInto(page, label, text) {
  await clickControl(page, label);
  await page.keyboard.press('Control+A');
  await page.keyboard.type(text, { delay: 20 });
  // Frames for the field to take the last key before Tab moves on: on a loaded machine a limit
  // typed as 250 was once applied as 25.
  await settle(page, 2);
  await page.keyboard.press('Tab');
  await settle(page, 3);
}

// The article's values (N 288, B 345, R 480, Q 1077) within 2 centipawns, the pawn at 100.
export function checkArticleValues(values) {
  for (const [piece, expected] of Object.entries(ARTICLE_VALUES)) {
    check(Math.abs(values[piece] - expected) <= 2,
      `${piece} = ${values[piece]?.toFixed(2)}, expected ${expected} ± 2`);
  }
  check(Math.abs(values.P - 100) < 1e-9, `pawn is ${values.P}, expected 100`);
}

// Saves what a download button offers (real click) as text.
export async function saveDownload(page, label, viaControl = true) {
  const [file] = await Promise.all([
    page.waitForEvent('download', { timeout: 30000 }),
    viaControl ? clickControl(page, label) : clickButton(page, label),
  ]);
  return { name: file.suggestedFilename(), text: readFileSync(await file.path(), 'utf8') };
}

// ---- the test registry and its runner ----

const tests = [];
// Registers a test; they run in the order they were registered.
export const test = (name, body) => tests.push({ name, body });

// Serves `dist` and runs the registered tests whose name contains `only` (all when null): one
// line per test, then "N passed, N failed"; exits non-zero when a test fails.
export async function runTests({ dist, only = null }) {
  try {
    statSync(join(dist, 'index.html'));
  } catch {
    console.error(`no site in ${dist}: build it first (web/build-dist.sh)`);
    process.exit(2);
  }
  mkdirSync(ARTIFACTS, { recursive: true });
  const server = await serve(dist);
  const baseUrl = `http://127.0.0.1:${server.address().port}${SUB_PATH.slice(0, -1)}`;
  let passed = 0;
  let failed = 0;
  let flaky = 0;
  for (const [index, { name, body }] of tests.entries()) {
    if (only && !name.includes(only)) continue;
    // A test that fails runs once more: one that then passes is reported as flaky, with its first
    // failure and a screenshot of it, and counts as passed; one that fails twice fails.
    let firstFailure = null;
    for (let attempt = 1; attempt <= 2; ++attempt) {
      const started = Date.now();
      try {
        await body({ baseUrl, dist });
        passed += 1;
        if (firstFailure !== null) {
          flaky += 1;
          console.log(`FLAKY ${name}: passed on its second attempt; the first failed: ${firstFailure}`);
        }
        console.log(`PASS  ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
        break;
      } catch (error) {
        const message = error instanceof Failure ? error.message : error.stack;
        const failure = `${message}${await closeLeftOpen(`failed-${index + 1}-attempt-${attempt}`)}`;
        if (firstFailure === null) {
          firstFailure = failure;
        } else {
          failed += 1;
          console.log(`FAIL  ${name}: ${failure}; its first attempt failed too: ${firstFailure}`);
        }
      } finally {
        await closeLeftOpen(null);
      }
    }
  }
  server.close();
  if (browser) await browser.close();
  console.log(`${passed} passed, ${failed} failed${flaky > 0 ? ` (${flaky} flaky, passed on a second attempt: see FLAKY above)` : ''}`);
  process.exit(failed === 0 ? 0 : 1);
}

// Closes the browsers a test left open, first saving each page's screenshot as `shot`-K.png when
// `shot` is given; returns a note naming the screenshots.
async function closeLeftOpen(shot) {
  const names = [];
  for (const [k, context] of [...openContexts].entries()) {
    if (shot) {
      const file = `${shot}-${k + 1}.png`;
      const taken = await context.page.screenshot({ path: join(ARTIFACTS, file), timeout: 10000 })
        .then(() => true, () => false);
      if (taken) names.push(file);
    }
    await context.close().catch(() => openContexts.delete(context));
  }
  return names.length > 0 ? ` (screenshot: tests/e2e/artifacts/${names.join(', ')})` : '';
}

// Types into a published field (the play-test window's): click, select all, type, Tab.
export async function typeField(page, label, text) {
  await clickButton(page, label);
  // Frames for the field to become active before the keys (a loaded machine once typed "1" into
  // a field holding 20 as 201).
  await settle(page, 3);
  // The old text deleted key by key: a Control+A whose keys fall in one frame may select nothing.
  await page.keyboard.press('End');
  for (let i = 0; i < 16; ++i) await page.keyboard.press('Backspace', { delay: 5 });
  await settle(page, 1);
  await page.keyboard.type(text, { delay: 20 });
  await settle(page, 2);
  await page.keyboard.press('Tab');
  await settle(page, 3);
}
