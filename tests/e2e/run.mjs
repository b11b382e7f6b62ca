// End-to-end tests of the browser app: serves dist/ on a free localhost port, drives headless
// Chromium with playwright-core, clicks the ImGui buttons where the app says they are, drops
// files through real DataTransfer events, and reads the #materialist-status mirror.
//
//   node tests/e2e/run.mjs [--dist DIR] [--only NAME]     (default DIR: <repo>/dist)
//
// Screenshots go to tests/e2e/artifacts/. Prints one line per test and "N passed, N failed";
// exits non-zero when a test fails.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { gzipSync } from 'node:zlib';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, '../..');
const ARTIFACTS = join(HERE, 'artifacts');
const FIXTURES = join(REPO, 'tests/fixtures/pgn');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
};
const DIST = resolve(option('--dist', process.env.MATERIALIST_DIST || join(REPO, 'dist')));
const ONLY = option('--only', null);
const ARTICLE_VALUES = { N: 288, B: 345, R: 480, Q: 1077 };
const CHROMIUM_FLAGS = [
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

// ---- helpers used by the tests ----

class Failure extends Error {}
function check(condition, message) {
  if (!condition) throw new Failure(message);
}

// Every test gets its own Chromium with a fresh --user-data-dir (a new temporary profile).
async function openPage(baseUrl, { hash = '', query = '', scale = 1, width = 1400, height = 900 } = {}) {
  const profile = mkdtempSync(join(tmpdir(), 'materialist-e2e-'));
  const browserContext = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS, headless: true,
    viewport: { width, height }, deviceScaleFactor: scale,
  });
  const context = {
    close: async () => {
      await browserContext.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
  const page = browserContext.pages()[0] || await browserContext.newPage();
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  await page.goto(`${baseUrl}/index.html${query}${hash}`);
  await page.waitForFunction(() => window.materialist && window.materialist.appReady
    && window.materialist.workerReady && window.materialist.ui.buttons['Load sample'], null,
  { timeout: 30000 });
  return { context, page, problems };
}

const mirrorState = (page) => page.$eval('#materialist-status', (e) => e.dataset.state);
const mirrorResult = (page) => page.$eval('#materialist-status', (e) => JSON.parse(e.dataset.result));

async function waitForState(page, wanted, timeout = 60000) {
  await page.waitForFunction((states) => states.includes(
    document.getElementById('materialist-status').dataset.state), [].concat(wanted), { timeout });
  return mirrorState(page);
}

// Waits until the app has drawn the current state: a few animation frames.
async function settle(page, frames = 6) {
  await page.evaluate((n) => new Promise((done) => {
    const tick = (left) => (left === 0 ? done() : requestAnimationFrame(() => tick(left - 1)));
    tick(n);
  }), frames);
}

// A real mouse click at the centre of an ImGui button, located through the app's layout hook.
async function clickButton(page, label) {
  await page.waitForFunction((l) => window.materialist.ui.buttons[l], label, { timeout: 10000 });
  const rect = await page.evaluate((l) => window.materialist.ui.buttons[l], label);
  const box = await page.$eval('#canvas', (c) => { const r = c.getBoundingClientRect(); return { x: r.left, y: r.top }; });
  const x = box.x + rect.x + rect.width / 2;
  const y = box.y + rect.y + rect.height / 2;
  // One move + press + release; the ImGui GLFW backend keeps a press that lasted less than a frame.
  await page.mouse.click(x, y);
  await settle(page, 2);
}

// Dispatches dragenter, dragover and drop on the canvas with real File objects in a DataTransfer.
// files: [{name, text}] or [{name, bytes: number[]}] or [{name, repeat: {text, times}}].
async function dropFiles(page, files, { screenshotWhileDragging = null } = {}) {
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

// Scrolls the left column (mouse wheel over it) until the published control is in view.
async function reveal(page, label) {
  const height = (await page.viewportSize()).height;
  for (let i = 0; i < 40; ++i) {
    await page.waitForFunction((l) => window.materialist.ui.buttons[l], label, { timeout: 10000 });
    const rect = await page.evaluate((l) => window.materialist.ui.buttons[l], label);
    if (rect.y > 110 && rect.y + rect.height < height - 10) return;
    await page.mouse.move(150, height / 2);
    await page.mouse.wheel(0, rect.y + rect.height >= height - 10 ? 150 : -150);
    await settle(page, 3);
  }
}

// Clicks a control of the Analysis panel (opening the panel first if needed).
async function clickControl(page, label) {
  const open = await page.evaluate(() => Boolean(window.materialist.ui.buttons['model:ordinal']));
  if (!open && label !== 'Analysis') {
    await reveal(page, 'Analysis');
    await clickButton(page, 'Analysis');
  }
  await reveal(page, label);
  await clickButton(page, label);
}

// Types into a published text or number field: click, select all, type, Tab.
async function typeInto(page, label, text) {
  await clickControl(page, label);
  await page.keyboard.press('Control+A');
  await page.keyboard.type(text, { delay: 20 });
  await page.keyboard.press('Tab');
  await settle(page, 3);
}

function checkArticleValues(values) {
  for (const [piece, expected] of Object.entries(ARTICLE_VALUES)) {
    check(Math.abs(values[piece] - expected) <= 2,
      `${piece} = ${values[piece]?.toFixed(2)}, expected ${expected} ± 2`);
  }
  check(Math.abs(values.P - 100) < 1e-9, `pawn is ${values.P}, expected 100`);
}

// ---- the tests ----

const tests = [];
const test = (name, body) => tests.push({ name, body });

test('page loads without console errors', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl);
  await settle(page, 10);
  check(await mirrorState(page) === 'idle', `data-state is ${await mirrorState(page)}`);
  const size = await page.$eval('#canvas', (c) => [c.width, c.height, c.clientWidth, c.clientHeight]);
  check(size[0] === size[2] && size[1] === size[3], `canvas backing store ${size[0]}×${size[1]} ≠ CSS ${size[2]}×${size[3]}`);
  await page.screenshot({ path: join(ARTIFACTS, '01-idle.png') });
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('Load sample (real click) fits the article values', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl);
  await clickButton(page, 'Load sample');
  await waitForState(page, ['reading', 'fitting', 'done']);
  await page.waitForFunction(() => {
    const r = JSON.parse(document.getElementById('materialist-status').dataset.result);
    return r.iterations > 300 && r.iterations < 9000;
  }, null, { timeout: 30000 }).catch(() => {});
  await page.screenshot({ path: join(ARTIFACTS, '02-sample-fitting.png') });
  check(await waitForState(page, ['done', 'error']) === 'done', 'the sample did not fit');
  const result = await mirrorResult(page);
  check(result.games === 2997, `games = ${result.games}, expected 2997`);
  check(result.preset === 'article' && result.solver === 'gd', `preset ${result.preset}, solver ${result.solver}`);
  check(result.iterations === 10000, `iterations = ${result.iterations}`);
  checkArticleValues(result.values);
  check(result.rows >= 20196 && result.rows < 20196 * 1.01, `rows = ${result.rows}`);
  check(result.alpha > 0.5 && result.alpha < 1, `alpha = ${result.alpha}`);
  await settle(page);
  await page.screenshot({ path: join(ARTIFACTS, '03-sample-done.png') });
  // Hovering a plot shows the values at that iteration.
  await page.mouse.move(760, 250);
  await settle(page);
  await page.screenshot({ path: join(ARTIFACTS, '03b-hover-convergence.png') });
  await page.mouse.move(1010, 690);
  await settle(page);
  await page.screenshot({ path: join(ARTIFACTS, '03c-hover-balance.png') });
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('#sample loads and fits at once; Newton is one click away', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl, { hash: '#sample' });
  check(await waitForState(page, ['done', 'error']) === 'done', 'the #sample fit did not finish');
  checkArticleValues((await mirrorResult(page)).values);
  const reads = await page.evaluate(() => window.materialist.reads);
  await clickButton(page, 'Newton');
  await page.waitForFunction(() => JSON.parse(document.getElementById('materialist-status').dataset.result).solver === 'newton');
  check(await waitForState(page, ['done', 'error']) === 'done', 'Newton did not finish');
  const result = await mirrorResult(page);
  check(result.iterations > 2 && result.iterations < 30, `Newton took ${result.iterations} iterations`);
  // Gradient descent stopped at 10 000 steps sits next to the exact optimum.
  checkArticleValues(result.values);
  check(result.standardErrors && result.standardErrors.N > 0, 'no standard errors after Newton');
  check(await page.evaluate(() => window.materialist.reads) === reads, 'the refit read the file again');
  await settle(page);
  await page.screenshot({ path: join(ARTIFACTS, '04-newton.png') });
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('the Exact preset (combo, real clicks) refits with Newton and draws as half points', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl, { hash: '#sample' });
  check(await waitForState(page, ['done', 'error']) === 'done', 'the sample did not fit');
  const article = (await mirrorResult(page)).values;
  await clickButton(page, 'Preset');
  await clickButton(page, 'preset:exact');
  await page.waitForFunction(() => JSON.parse(document.getElementById('materialist-status').dataset.result).preset === 'exact');
  check(await waitForState(page, ['done', 'error'], 90000) === 'done', 'the Exact fit did not finish');
  const result = await mirrorResult(page);
  check(result.solver === 'newton', `solver ${result.solver}`);
  // Draws as half points move the values (the draws carry information the article left out).
  check(Math.abs(result.values.Q - article.Q) > 1, `Q unchanged: ${result.values.Q} vs ${article.Q}`);
  check(Number.isFinite(result.values.N) && result.values.N > 150 && result.values.N < 450, `N = ${result.values.N}`);
  await settle(page);
  await page.screenshot({ path: join(ARTIFACTS, '04b-exact-preset.png') });
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('drop a PGN file on the canvas (DataTransfer)', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl);
  const text = readFileSync(join(FIXTURES, 'lichess-100.pgn'), 'utf8');
  await dropFiles(page, [{ name: 'lichess-100.pgn', text }], { screenshotWhileDragging: '05-drag-over.png' });
  check(await waitForState(page, ['done', 'error']) === 'done', 'the dropped file did not fit');
  const result = await mirrorResult(page);
  check(result.games === 100, `games = ${result.games}, expected 100`);
  check(result.files.length === 1 && result.files[0] === 'lichess-100.pgn', `files = ${result.files}`);
  check(result.rows > 0 && Number.isFinite(result.values.Q), 'no rows or values');
  await settle(page);
  await page.screenshot({ path: join(ARTIFACTS, '06-dropped.png') });
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test("the article's .mat rows reproduce its values exactly", async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl);
  const text = readFileSync(join(REPO, 'tests/fixtures/learn/OpenRating.article.mat'), 'utf8');
  await dropFiles(page, [{ name: 'OpenRating.article.mat', text }]);
  check(await waitForState(page, ['done', 'error']) === 'done', 'the .mat file did not fit');
  const result = await mirrorResult(page);
  check(result.rows === 20196, `rows = ${result.rows}, expected the article's 20196`);
  // METHOD.md: 288.478, 345.377, 479.66, 1076.56 after 10 000 steps of the article's descent.
  const article = { N: 288.478, B: 345.377, R: 479.66, Q: 1076.56 };
  for (const [piece, value] of Object.entries(article)) {
    check(Math.abs(result.values[piece] - value) < 0.01, `${piece} = ${result.values[piece]}, article ${value}`);
  }
  check(Math.abs(result.loss - 0.469324) < 1e-6, `loss = ${result.loss}`);
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('Open files… opens the file chooser; .pgn.gz files are decompressed', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl);
  const chooser = page.waitForEvent('filechooser');
  await clickButton(page, 'Open files…');
  const picker = await chooser;
  check(picker.isMultiple(), 'the file input does not take several files');
  const lichess = readFileSync(join(FIXTURES, 'lichess-100.pgn'));
  await picker.setFiles([{ name: 'lichess-100.pgn.gz', mimeType: 'application/gzip', buffer: gzipSync(lichess) }]);
  check(await waitForState(page, ['done', 'error']) === 'done', 'the .gz file did not fit');
  const result = await mirrorResult(page);
  check(result.games === 100, `games = ${result.games}, expected 100`);
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('several files at once, one with a truncated game', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl);
  const lichess = readFileSync(join(FIXTURES, 'lichess-100.pgn'), 'utf8');
  const truncated = '[Event "cut"]\n[Result "1-0"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O f6 6. d4';
  await dropFiles(page, [{ name: 'a.pgn', text: lichess }, { name: 'cut.pgn', text: lichess + '\n\n' + truncated }]);
  check(await waitForState(page, ['done', 'error']) === 'done', 'the two files did not fit');
  const result = await mirrorResult(page);
  check(result.games === 201, `games = ${result.games}, expected 201`);
  check(result.partial + result.skipped >= 1, 'the truncated game was not reported');
  // Scroll the left column down to the skipped-games list.
  await page.mouse.move(200, 600);
  for (let i = 0; i < 6; ++i) {
    await page.mouse.wheel(0, 400);
    await settle(page, 2);
  }
  await settle(page);
  await page.screenshot({ path: join(ARTIFACTS, '07-two-files-truncated.png') });
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('malformed files give an error state; the app keeps working', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl);
  const jpeg = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, ...Array(4000).fill(0x41)];
  await dropFiles(page, [{ name: 'photo.pgn', bytes: jpeg }]);
  check(await waitForState(page, ['error', 'done']) === 'error', 'a JPEG did not give the error state');
  let result = await mirrorResult(page);
  check(/JPEG/.test(result.error || ''), `error message: ${result.error}`);
  await settle(page);
  await page.screenshot({ path: join(ARTIFACTS, '08-error-jpeg.png') });

  await dropFiles(page, [{ name: 'empty.pgn', text: '' }]);
  await page.waitForFunction(() => /empty/.test(JSON.parse(document.getElementById('materialist-status').dataset.result).error || ''), null, { timeout: 20000 });
  check(await mirrorState(page) === 'error', 'an empty file did not give the error state');

  // A 50 MB line without a newline: bounded buffering, a clear message, no hang.
  await dropFiles(page, [{ name: 'long-line.pgn', repeat: { text: 'x'.repeat(1000), times: 50000 } }]);
  await page.waitForFunction(() => /long-line/.test(JSON.parse(document.getElementById('materialist-status').dataset.result).error || ''), null, { timeout: 60000 });
  check(await mirrorState(page) === 'error', 'a 50 MB line did not give the error state');
  result = await mirrorResult(page);
  check(/no (usable )?games?/.test(result.error), `error message: ${result.error}`);

  await clickButton(page, 'Load sample');
  check(await waitForState(page, ['done'], 90000) === 'done', 'the app did not recover');
  checkArticleValues((await mirrorResult(page)).values);
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('Cancel stops a long parallel read at once; the app keeps working', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl, { query: '?readers=2' });
  const lichess = readFileSync(join(FIXTURES, 'lichess-100.pgn'), 'utf8');
  const times = Math.ceil(250e6 / lichess.length);  // about 250 MB, as Blob parts
  const big = [{ name: 'big.pgn', repeat: { text: lichess + '\n\n', times } }];
  // The button's place is known before the drop, so the click follows the start of the read at
  // once even on a loaded machine; the page times the press and the mirror's change.
  const rect = await page.evaluate(() => window.materialist.ui.buttons.Cancel);
  let took = null;
  let state = null;
  for (let attempt = 0; attempt < 3 && took === null; ++attempt) {
    await page.evaluate(() => {
      window.__e2eClicked = null;
      window.__e2eChanged = null;
      const mirror = document.getElementById('materialist-status');
      new MutationObserver((records, observer) => {
        if (window.__e2eClicked !== null && mirror.dataset.state !== 'reading') {
          window.__e2eChanged = performance.now();
          observer.disconnect();
        }
      }).observe(mirror, { attributes: true, attributeFilter: ['data-state'] });
      window.addEventListener('mousedown', () => {
        window.__e2eClicked = mirror.dataset.state === 'reading' ? performance.now() : -1;
      }, { capture: true, once: true });
    });
    await dropFiles(page, big);
    await waitForState(page, ['reading'], 20000);
    await page.mouse.click(rect.x + rect.width / 2, rect.y + rect.height / 2);
    state = await waitForState(page, ['idle', 'done', 'error'], 20000);
    const times = await page.evaluate(() => [window.__e2eClicked, window.__e2eChanged]);
    if (times[0] > 0) took = times[1] - times[0];  // else the read ended before the click: again
  }
  check(took !== null, 'the read always ended before the click');
  console.log(`      Cancel took effect ${took.toFixed(0)} ms after the press`);
  check(state === 'idle', `after Cancel data-state is ${state}`);
  check(took < 1500, `Cancel took ${took.toFixed(0)} ms`);

  await clickButton(page, 'Load sample');
  check(await waitForState(page, ['done', 'error'], 90000) === 'done', 'the app did not work after Cancel');
  checkArticleValues((await mirrorResult(page)).values);
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('a 200 MB file read by two parallel readers: every game counted once', async ({ baseUrl }) => {
  // ?readers=2: the file is cut at game starts into two ranges read by two nested workers.
  const { context, page, problems } = await openPage(baseUrl, { query: '?readers=2' });
  const lichess = readFileSync(join(FIXTURES, 'lichess-100.pgn'), 'utf8');
  const times = Math.ceil(200e6 / lichess.length);
  await dropFiles(page, [{ name: 'lichess-x' + times + '.pgn', repeat: { text: lichess + '\n\n', times } }]);
  await waitForState(page, ['reading'], 20000);
  await page.screenshot({ path: join(ARTIFACTS, '11-reading-progress.png') });
  check(await waitForState(page, ['done', 'error'], 120000) === 'done',
    `the 200 MB read did not fit: ${(await mirrorResult(page)).error}`);
  const result = await mirrorResult(page);
  check(result.games === 100 * times, `games = ${result.games}, expected ${100 * times}`);
  // The same file read sequentially gives exactly the same rows and values.
  await page.goto(page.url().replace('?readers=2', '?readers=1'));
  await page.waitForFunction(() => window.materialist && window.materialist.appReady && window.materialist.workerReady);
  await dropFiles(page, [{ name: 'lichess-x' + times + '.pgn', repeat: { text: lichess + '\n\n', times } }]);
  check(await waitForState(page, ['done', 'error'], 120000) === 'done', 'the sequential read did not fit');
  const sequential = await mirrorResult(page);
  check(sequential.rows === result.rows && sequential.games === result.games,
    `sequential ${sequential.games} games ${sequential.rows} rows, parallel ${result.games} games ${result.rows} rows`);
  for (const piece of ['N', 'B', 'R', 'Q']) {
    check(Math.abs(sequential.values[piece] - result.values[piece]) < 1e-6, `${piece}: ${sequential.values[piece]} vs ${result.values[piece]}`);
  }
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('exports: .mat rows, values CSV and JSON, PNG', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl, { hash: '#sample' });
  check(await waitForState(page, ['done', 'error']) === 'done', 'the sample did not fit');
  for (const label of ['Export .mat', 'Values CSV', 'Values JSON', 'PNG']) await clickButton(page, label);
  await page.waitForFunction(() => window.materialist.downloads.length >= 4, null, { timeout: 20000 });
  const downloads = await page.evaluate(() => window.materialist.downloads);
  const size = (name) => (downloads.find((d) => d.name === name) || { size: 0 }).size;
  const rows = (await mirrorResult(page)).rows;
  check(size('materialist-rows.mat') >= rows * 12, `.mat has ${size('materialist-rows.mat')} bytes for ${rows} rows`);
  check(size('materialist-values.csv') > 60, 'the CSV is empty');
  check(size('materialist-values.json') > 100, 'the JSON is empty');
  check(size('materialist.png') > 20000, `the PNG has ${size('materialist.png')} bytes`);
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('exports: analysis JSON with provenance, values as code', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl, { hash: '#sample' });
  check(await waitForState(page, ['done', 'error']) === 'done', 'the sample did not fit');
  const save = async (label) => {
    const [file] = await Promise.all([page.waitForEvent('download', { timeout: 20000 }), clickControl(page, label)]);
    return { name: file.suggestedFilename(), text: readFileSync(await file.path(), 'utf8') };
  };
  const analysis = await save('Analysis JSON');
  check(analysis.name === 'materialist-analysis.json', `analysis download named ${analysis.name}`);
  const provenance = JSON.parse(analysis.text);
  const sample = readFileSync(join(REPO, 'tests/fixtures/pgn/OpenRating.pgn'));
  const sha = createHash('sha256').update(sample).digest('hex');
  check(analysis.text.includes(sha), `the provenance does not name the sample's sha-256 ${sha}`);
  check(analysis.text.includes('OpenRating.pgn'), 'the provenance does not name the file');
  check(JSON.stringify(provenance).includes('knight'), 'the provenance holds no fitted values');
  const code = await save('Copy as code');
  check(code.name.endsWith('.h'), `code download named ${code.name}`);
  check(/\{\s*100,\s*2(8|9)\d,\s*34\d,\s*4[78]\d,\s*10[78]\d\s*\}/.test(code.text),
    `the code does not hold the sample's centipawn values:\n${code.text}`);
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

// ---- honest results ----

// Saves what a download button offers (real click) as text.
async function saveDownload(page, label, viaControl = true) {
  const [file] = await Promise.all([
    page.waitForEvent('download', { timeout: 30000 }),
    viaControl ? clickControl(page, label) : clickButton(page, label),
  ]);
  return { name: file.suggestedFilename(), text: readFileSync(await file.path(), 'utf8') };
}

// The sample cut in three "player files" at game starts.
function threePlayerFiles() {
  const pgn = readFileSync(join(FIXTURES, 'OpenRating.pgn'), 'utf8');
  const cut1 = pgn.indexOf('\n[Event ', Math.floor(pgn.length / 3)) + 1;
  const cut2 = pgn.indexOf('\n[Event ', Math.floor((2 * pgn.length) / 3)) + 1;
  return [
    { name: 'anand.pgn', text: pgn.slice(0, cut1) },
    { name: 'carlsen.pgn', text: pgn.slice(cut1, cut2) },
    { name: 'tal.pgn', text: pgn.slice(cut2) },
  ];
}

test('three files, one dataset each: every export holds all three with their own values', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl);
  await clickControl(page, 'datasets:per-file');
  await clickControl(page, 'model:bishop-pair');
  await clickControl(page, 'Apply filters');
  await dropFiles(page, threePlayerFiles());
  check(await waitForState(page, ['done', 'error'], 120000) === 'done', 'the three datasets did not fit');
  const result = await mirrorResult(page);
  check(result.fits && result.fits.length === 3, `fits: ${JSON.stringify(result.fits)}`);
  const status = await page.$eval('#materialist-status', (e) => e.textContent);
  for (const name of ['anand.pgn', 'carlsen.pgn', 'tal.pgn']) {
    check(status.includes(`${name}: P 100`), `the status line does not name ${name}: ${status}`);
  }
  const knights = result.fits.map((f) => f.values.N);
  check(new Set(knights.map((n) => n.toFixed(3))).size === 3, `the datasets' knights are not their own: ${knights}`);
  const csv = await saveDownload(page, 'Values CSV', false);
  const json = JSON.parse((await saveDownload(page, 'Values JSON', false)).text);
  const code = await saveDownload(page, 'Copy as code');
  const provenance = JSON.parse((await saveDownload(page, 'Analysis JSON')).text);
  check(csv.text.startsWith('dataset,coefficient,'), `CSV header: ${csv.text.split('\n')[0]}`);
  for (const [i, name] of ['anand.pgn', 'carlsen.pgn', 'tal.pgn'].entries()) {
    const row = csv.text.split('\n').find((line) => line.startsWith(`"${name}",knight,`));
    check(row, `the CSV has no knight row for ${name}`);
    check(row && Math.abs(Number(row.split(',')[4]) - knights[i]) < 1e-3, `CSV knight of ${name}: ${row} vs ${knights[i]}`);
    check(csv.text.includes(`"${name}",bishop-pair,`), `the CSV has no bishop pair for ${name}`);
    const fit = json.fits.find((f) => f.name === name);
    const knight = fit && fit.coefficients.find((c) => c.name === 'knight');
    check(knight && Math.abs(knight.value - knights[i]) < 1e-3, `Values JSON knight of ${name}`);
    check(provenance.fits.some((f) => f.name === name), `the analysis JSON lacks ${name}`);
    const id = name.replace('.pgn', '').replace(/^./, (c) => c.toUpperCase()) + 'Pgn';
    check(code.text.includes(`k${id}PieceValues[5] = {100, `), `the code lacks k${id}PieceValues:\n${code.text}`);
    check(code.text.includes(`k${id}BishopPair = `), `the code does not name ${name}'s bishop pair bonus`);
  }
  await clickControl(page, 'Analysis');
  await settle(page);
  await page.screenshot({ path: join(ARTIFACTS, '17-three-datasets.png') });
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('Refit keeps λ = 1e-6 exactly and the article\'s values', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl, { hash: '#sample' });
  check(await waitForState(page, ['done', 'error']) === 'done', 'the sample did not fit');
  const before = (await mirrorResult(page)).values;
  await clickButton(page, 'Refit');
  await page.waitForFunction(() => JSON.parse(document.getElementById('materialist-status').dataset.result).settings);
  check(await waitForState(page, ['done', 'error'], 90000) === 'done', 'the refit did not finish');
  const result = await mirrorResult(page);
  check(result.settings.lambda === 1e-6, `Refit sent λ = ${result.settings.lambda}`);
  for (const piece of ['N', 'B', 'R', 'Q']) {
    check(Math.abs(result.values[piece] - before[piece]) < 1e-3, `${piece}: ${result.values[piece]} vs ${before[piece]}`);
  }
  checkArticleValues(result.values);
  const provenance = JSON.parse((await saveDownload(page, 'Analysis JSON')).text);
  check(provenance.settings.lambda === 1e-6, `the analysis JSON holds λ = ${provenance.settings.lambda}`);
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('a degenerate file shows its warning, not "Fitted"', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl);
  let text = '';
  for (const result of ['1-0', '0-1', '1-0']) {
    text += `[Result "${result}"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O ${result}\n\n`;
  }
  for (let i = 0; i < 300; ++i) text += '[Result "1/2-1/2"]\n\n1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 1/2-1/2\n\n';
  await dropFiles(page, [{ name: 'draws.pgn', text }]);
  check(await waitForState(page, ['done', 'error'], 60000) === 'done', 'the degenerate file did not end');
  const status = await page.$eval('#materialist-status', (e) => e.textContent);
  check(status.startsWith('Fit with warnings'), `status: ${status}`);
  check(!/ -0[,.]| -0$/.test(status), `status shows -0 values: ${status}`);
  const result = await mirrorResult(page);
  check(result.fits[0].state === 'warnings' && result.fits[0].warnings.includes('too-few-decisive'),
    `fit: ${JSON.stringify(result.fits[0])}`);
  check(Object.values(result.fits[0].values).every((v) => v === null), `values shown: ${JSON.stringify(result.fits[0].values)}`);
  await settle(page);
  await page.screenshot({ path: join(ARTIFACTS, '18-degenerate-warning.png') });
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('the ordinal draw margin appears once, with its error, in the table and every export', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl, { hash: '#sample' });
  check(await waitForState(page, ['done', 'error']) === 'done', 'the sample did not fit');
  await clickControl(page, 'model:ordinal');
  await page.waitForFunction(() => {
    const r = JSON.parse(document.getElementById('materialist-status').dataset.result);
    return r.fits && r.fits[0] && r.fits[0].coefficients.includes('draw-margin');
  }, null, { timeout: 60000 });
  check(await waitForState(page, ['done', 'error'], 60000) === 'done', 'the ordinal fit did not finish');
  const fit = (await mirrorResult(page)).fits[0];
  check(fit.coefficients.filter((c) => c === 'draw-margin').length === 1, `coefficients: ${fit.coefficients}`);
  check(Number.isFinite(fit.drawMargin) && fit.drawMargin > 0, `draw margin ${fit.drawMargin}`);
  const csv = (await saveDownload(page, 'Values CSV', false)).text;
  const rows = csv.split('\n').filter((line) => line.includes(',draw-margin,'));
  check(rows.length === 1 && rows[0].split(',')[5] !== '', `CSV draw margin rows: ${rows}`);
  const json = JSON.parse((await saveDownload(page, 'Values JSON', false)).text);
  const margins = json.fits[0].coefficients.filter((c) => c.name === 'draw-margin');
  check(margins.length === 1 && margins[0].eloSe > 0 && margins[0].valueSe > 0, `JSON draw margin: ${JSON.stringify(margins)}`);
  const code = (await saveDownload(page, 'Copy as code')).text;
  check(/kDrawMargin = \d+;/.test(code), `the code lacks the draw margin:\n${code}`);
  await clickControl(page, 'Analysis');
  await settle(page);
  await page.screenshot({ path: join(ARTIFACTS, '19-ordinal-draw-margin.png') });
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('HiDPI: crisp backing store at devicePixelRatio 2, follows resizes', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl, { hash: '#sample', scale: 2, width: 1280, height: 800 });
  check(await waitForState(page, ['done', 'error']) === 'done', 'the sample did not fit');
  await settle(page);
  let size = await page.$eval('#canvas', (c) => [c.width, c.height]);
  check(size[0] === 2560 && size[1] === 1600, `backing store ${size}`);
  await page.screenshot({ path: join(ARTIFACTS, '09-hidpi.png') });
  await page.setViewportSize({ width: 900, height: 700 });
  await settle(page, 10);
  size = await page.$eval('#canvas', (c) => [c.width, c.height]);
  check(size[0] === 1800 && size[1] === 1400, `after resize: ${size}`);
  await page.screenshot({ path: join(ARTIFACTS, '10-narrow.png') });
  await page.setViewportSize({ width: 420, height: 860 });  // a phone: one scrolling column
  await settle(page, 10);
  size = await page.$eval('#canvas', (c) => [c.width, c.height]);
  check(size[0] === 840 && size[1] === 1720, `phone size: ${size}`);
  await page.screenshot({ path: join(ARTIFACTS, '12-phone.png') });
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('Analysis panel: a game filter and the ordinal model set by clicks and typing', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl);
  const lichess = readFileSync(join(FIXTURES, 'lichess-2021-10-first999.pgn'), 'utf8');
  await dropFiles(page, [{ name: 'lichess-2021-10-first999.pgn', text: lichess }]);
  check(await waitForState(page, ['done', 'error']) === 'done', 'the lichess file did not fit');
  const before = await mirrorResult(page);
  await clickControl(page, 'model:ordinal');
  await page.waitForFunction(() => JSON.parse(document.getElementById('materialist-status').dataset.result)
    .settings?.model?.outcomes === 'ordinal', null, { timeout: 10000 });
  await typeInto(page, 'filter:elo-min', '1500');
  await clickControl(page, 'tc:bullet');
  const reads = await page.evaluate(() => window.materialist.reads);
  await clickControl(page, 'Apply filters');
  const applied = await page.waitForFunction(() => {
    const r = JSON.parse(document.getElementById('materialist-status').dataset.result);
    return /elo=1500-/.test(r.settings?.filter || '') && /tc=/.test(r.settings?.filter || '') && r.settings.filter;
  }, null, { timeout: 10000 }).then((h) => h.jsonValue());
  const speeds = (applied.match(/tc=([^;]*)/) || [])[1]?.split(',') || [];
  check(speeds.includes('blitz') && !speeds.includes('bullet'), `bullet still kept: ${applied}`);
  await page.waitForFunction((n) => window.materialist.reads > n, reads, { timeout: 60000 });
  check(await waitForState(page, ['done', 'error'], 90000) === 'done', 'the filtered refit did not finish');
  const result = await mirrorResult(page);
  check(result.filtered > 0, `no games filtered (filtered = ${result.filtered})`);
  check(result.used < before.used, `used ${result.used} not below ${before.used}`);
  check(result.fits && result.fits.length === 1 && Number.isFinite(result.fits[0].drawMargin),
    `no ordinal draw margin: ${JSON.stringify(result.fits)}`);
  await settle(page);
  await page.screenshot({ path: join(ARTIFACTS, '13-analysis-panel.png') });
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('each file a dataset: two fits compared side by side', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl);
  await clickControl(page, 'datasets:per-file');
  await clickControl(page, 'Apply filters');  // no data yet: the worker keeps the settings
  const a = readFileSync(join(FIXTURES, 'lichess-2021-10-first999.pgn'), 'utf8');
  const b = readFileSync(join(FIXTURES, 'OpenRating.pgn'), 'utf8');
  await dropFiles(page, [{ name: 'lichess-999.pgn', text: a }, { name: 'OpenRating.pgn', text: b }]);
  check(await waitForState(page, ['done', 'error'], 120000) === 'done', 'the two datasets did not fit');
  const result = await mirrorResult(page);
  check(result.fits && result.fits.length === 2, `fits: ${JSON.stringify(result.fits)}`);
  check(result.differences >= 1, 'no B-N difference between the datasets');
  // Close the panel so the comparison table shows at the top of the column.
  await clickControl(page, 'Analysis');
  await settle(page);
  await page.screenshot({ path: join(ARTIFACTS, '14-comparison.png') });
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('bootstrap replicates: values shown as value ± se [low, high]', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl, { hash: '#sample' });
  check(await waitForState(page, ['done', 'error']) === 'done', 'the sample did not fit');
  const reads = await page.evaluate(() => window.materialist.reads);
  await clickControl(page, 'bootstrap:100');
  await clickControl(page, 'Apply filters');
  await page.waitForFunction((n) => window.materialist.reads > n, reads, { timeout: 60000 });
  check(await waitForState(page, ['done', 'error'], 120000) === 'done', 'the bootstrap read did not finish');
  const result = await mirrorResult(page);
  check(result.settings.bootstrap === 100, `bootstrap ${result.settings.bootstrap}`);
  await clickControl(page, 'Analysis');
  await settle(page);
  await page.screenshot({ path: join(ARTIFACTS, '15-uncertainty.png') });
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('a share link restores the settings in the app\'s controls', async ({ baseUrl }) => {
  const shared = {
    preset: 'custom', solver: 'newton', step: 1, iterations: 10000, lambda: 1e-6, draws: 'half', unknown: 'skip',
    model: { outcomes: 'ordinal', intercept: true, bishopPair: true, phase: false, eloOffset: false },
    units: 'elo', bootstrap: 200, seed: 1, filter: 'elo=1500-;tc=blitz,rapid;exclude_termination=Time forfeit',
    quiet: { plies: 3, checksBreak: false, distinct: true, skipFirst: 8 },
    datasets: 'per-filter', eachFilter: ['tc=blitz', 'tc=rapid'],
  };
  const { context, page, problems } = await openPage(baseUrl,
    { hash: `#sample&s=${encodeURIComponent(JSON.stringify(shared))}` });
  await settle(page, 10);
  // The app's own share button writes what its controls hold.
  await clickControl(page, 'Copy share link');
  const restored = await page.waitForFunction(() => {
    const r = JSON.parse(document.getElementById('materialist-status').dataset.result);
    return r.shareLink && r.settings;
  }, null, { timeout: 10000 }).then((h) => h.jsonValue());
  for (const key of ['solver', 'draws', 'unknown', 'units', 'bootstrap', 'datasets', 'preset']) {
    check(restored[key] === shared[key], `${key}: ${restored[key]} vs ${shared[key]}`);
  }
  check(JSON.stringify(restored.model) === JSON.stringify(shared.model), `model ${JSON.stringify(restored.model)}`);
  check(JSON.stringify(restored.quiet) === JSON.stringify(shared.quiet), `quiet ${JSON.stringify(restored.quiet)}`);
  check(JSON.stringify(restored.eachFilter) === JSON.stringify(shared.eachFilter), `eachFilter ${restored.eachFilter}`);
  check(restored.filter === shared.filter, `filter ${restored.filter}`);
  const link = await page.evaluate(() => location.hash);
  check(link.startsWith('#s='), `address bar hash ${link}`);
  await page.screenshot({ path: join(ARTIFACTS, '16-share-restored.png') });
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

// ---- compressed files and archives, decoded in the engine (src/archive) by their first bytes ----

const ARCHIVES = join(REPO, 'tests/fixtures/archive');

// The plain lichess-100.pgn's result, read by a drop, for the compressed files to equal.
async function plainLichessResult(baseUrl) {
  const { context, page } = await openPage(baseUrl);
  await dropFiles(page, [{ name: 'lichess-100.pgn', text: readFileSync(join(FIXTURES, 'lichess-100.pgn'), 'utf8') }]);
  check(await waitForState(page, ['done', 'error']) === 'done', 'the plain file did not fit');
  const result = await mirrorResult(page);
  await context.close();
  return result;
}

/** @param {any} got @param {any} plain @param {string} what */
function checkSameResult(got, plain, what) {
  for (const key of ['games', 'used', 'rows', 'iterations', 'loss']) {
    check(got[key] === plain[key], `${what}: ${key} = ${got[key]}, the plain file's ${plain[key]}`);
  }
  check(JSON.stringify(got.values) === JSON.stringify(plain.values),
    `${what}: values ${JSON.stringify(got.values)}, the plain file's ${JSON.stringify(plain.values)}`);
}

test('a .pgn.zst chosen with Open files… gives the plain file\'s result', async ({ baseUrl }) => {
  const plain = await plainLichessResult(baseUrl);
  const { context, page, problems } = await openPage(baseUrl);
  const chooser = page.waitForEvent('filechooser');
  await clickButton(page, 'Open files…');
  const picker = await chooser;
  await picker.setFiles([{ name: 'lichess-100.pgn.zst', mimeType: 'application/zstd', buffer: readFileSync(join(ARCHIVES, 'lichess-100.pgn.zst')) }]);
  check(await waitForState(page, ['done', 'error']) === 'done', 'the .pgn.zst file did not fit');
  const result = await mirrorResult(page);
  checkSameResult(result, plain, '.pgn.zst (file chooser)');
  check(result.files.length === 1 && result.files[0] === 'lichess-100.pgn.zst', `files = ${result.files}`);
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('a .pgn.zst dropped on the canvas (named .pgn) gives the plain file\'s result', async ({ baseUrl }) => {
  const plain = await plainLichessResult(baseUrl);
  const { context, page, problems } = await openPage(baseUrl);
  const bytes = [...readFileSync(join(ARCHIVES, 'lichess-100.pgn.zst'))];
  await dropFiles(page, [{ name: 'renamed.pgn', bytes }]);  // by its bytes, not its name
  check(await waitForState(page, ['done', 'error']) === 'done', 'the dropped .pgn.zst did not fit');
  checkSameResult(await mirrorResult(page), plain, '.pgn.zst (drop)');
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('a zip of three PGNs (and a README) gives the three files\' games', async ({ baseUrl }) => {
  const plain = await plainLichessResult(baseUrl);
  const { context, page, problems } = await openPage(baseUrl);
  const bytes = [...readFileSync(join(ARCHIVES, 'lichess-100-three.zip'))];
  await dropFiles(page, [{ name: 'three.zip', bytes }]);
  check(await waitForState(page, ['done', 'error']) === 'done', 'the zip did not fit');
  const result = await mirrorResult(page);
  checkSameResult(result, plain, 'zip');
  const files = ['three.zip:games1.pgn', 'three.zip:games2.pgn', 'three.zip:games3.pgn'];
  check(JSON.stringify(result.files) === JSON.stringify(files), `files = ${result.files}`);
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

// ---- runner ----

async function main() {
  try {
    statSync(join(DIST, 'index.html'));
  } catch {
    console.error(`no site in ${DIST}: build it first (web/build-dist.sh)`);
    process.exit(2);
  }
  mkdirSync(ARTIFACTS, { recursive: true });
  const server = await serve(DIST);
  const baseUrl = `http://127.0.0.1:${server.address().port}${SUB_PATH.slice(0, -1)}`;
  let passed = 0;
  let failed = 0;
  for (const { name, body } of tests) {
    if (ONLY && !name.includes(ONLY)) continue;
    const started = Date.now();
    try {
      await body({ baseUrl });
      passed += 1;
      console.log(`PASS  ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    } catch (error) {
      failed += 1;
      console.log(`FAIL  ${name}: ${error instanceof Failure ? error.message : error.stack}`);
    }
  }
  server.close();
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
