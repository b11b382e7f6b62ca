// End-to-end tests: hostile inputs. Markup and control bytes in tags and file names stay text. A 1 GB line, a million one-ply games, 10⁵ nested
// variations, a zip bomb and a zstd bomb, 100 MB of games followed by binary data: each gives a
// clear message, keeps every game before it, leaves the app usable, and the engine's heap stays
// small. (A heap exhausted on purpose is reading.mjs's out-of-memory test.) The inputs are
// written once per run to a temporary folder and chosen through the page's file input, so the
// browser streams them from disk.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ARTIFACTS, FIXTURES, check, checkArticleValues, clickButton, clickControl, dropFiles, loadSample,
  mirrorResult, openPage, settle, test, waitForState, watchStates,
} from './harness.mjs';

const MB = 1 << 20;
// The engine's heap may not grow past this while reading any of these inputs.
const HEAP_BOUND_MB = 96;

let folder = null;
// The temporary folder of this run's inputs (removed when the process exits).
function inputs() {
  if (folder === null) {
    folder = mkdtempSync(join(tmpdir(), 'materialist-hostile-'));
    process.on('exit', () => rmSync(folder, { recursive: true, force: true }));
  }
  return folder;
}

// Writes a file from parts (strings or Buffers), each repeated `times`, without holding it whole.
function writeParts(name, parts) {
  const path = join(inputs(), name);
  const fd = openSync(path, 'w');
  for (const { data, times = 1 } of parts) {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'latin1') : data;
    for (let i = 0; i < times; ++i) writeSync(fd, bytes);
  }
  closeSync(fd);
  return path;
}

// The first 19 games of the article's file: what must survive around each hostile part.
const ARTICLE = readFileSync(join(FIXTURES, 'OpenRating.pgn'), 'latin1');
const FIRST_19 = ARTICLE.slice(0, ARTICLE.indexOf('\n\n[Event', 20000)) + '\n\n';

// The engine worker's heap in MB (its WebAssembly memory; nested reader workers are not listed).
async function largestHeapMB(page) {
  let largest = 0;
  for (const thread of page.workers()) {
    // The engine worker's one state object is its top-level `worker` (engine-worker.js).
    const bytes = await thread.evaluate(() => (typeof worker !== 'undefined' && worker.wasm ? worker.wasm.HEAPU8.length : 0))
      .catch(() => 0);
    largest = Math.max(largest, bytes / MB);
  }
  return largest;
}

// Chooses files through the page's file input (streamed from disk), waits for the read to end,
// samples the heap while it runs, and returns the state, the result and the largest heap.
async function readPaths(page, paths, timeout = 180000) {
  // The states seen from here on: the previous read's 'done' or 'error' is not this one's end.
  await watchStates(page);
  await page.setInputFiles('#file-input', paths);
  let heap = 0;
  const deadline = Date.now() + timeout;
  let state = null;
  while (Date.now() < deadline && state === null) {
    heap = Math.max(heap, await largestHeapMB(page));
    state = await page.evaluate(() => {
      const seen = /** @type {any} */ (window).__e2eStates;
      const start = seen.indexOf('reading');
      return start < 0 ? null : seen.slice(start + 1).find((s) => s === 'done' || s === 'error') || null;
    });
    if (state === null) await new Promise((wake) => setTimeout(wake, 250));
  }
  heap = Math.max(heap, await largestHeapMB(page));
  return { state, result: await mirrorResult(page), heap };
}

// After a hostile input: the sample still loads and gives the article's values.
async function checkStillWorks(page) {
  check(await loadSample(page) === 'done', 'the app did not work afterwards');
  checkArticleValues((await mirrorResult(page)).values);
}

test('hostile: 10⁵ nested variations skip one game, with its reason; the games around it count', async ({ baseUrl }) => {
  const path = writeParts('nested.pgn', [
    { data: FIRST_19 },
    { data: '[Event "nested"]\n[Result "1-0"]\n\n1. e4 ' + '(1. d4 '.repeat(100000) + ')'.repeat(100000) + ' e5 1-0\n\n' },
    { data: FIRST_19 },
  ]);
  const { context, page, problems } = await openPage(baseUrl);
  const { state, result, heap } = await readPaths(page, [path]);
  check(state === 'done', `state ${state}: ${result.error}`);
  check(result.games === 39 && result.skipped === 1, `games ${result.games}, skipped ${result.skipped}`);
  check(heap <= HEAP_BOUND_MB, `the heap grew to ${heap} MB`);
  await settle(page);
  await page.screenshot({ path: join(ARTIFACTS, '50-hostile-nested.png') });
  await checkStillWorks(page);
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('hostile: a 1 GB line skips one game, with its reason; the games around it count', async ({ baseUrl }) => {
  const path = writeParts('one-line.pgn', [
    { data: FIRST_19 },
    { data: '[Event "one line"]\n[Result "1-0"]\n\n1. e4 ' },
    { data: Buffer.alloc(MB, 'x'), times: 1024 },
    { data: ' 1-0\n\n' },
    { data: FIRST_19 },
  ]);
  const { context, page, problems } = await openPage(baseUrl);
  const { state, result, heap } = await readPaths(page, [path]);
  console.log(`      1 GB line: ${result.mbps.toFixed(0)} MB/s, largest heap ${heap} MB`);
  check(state === 'done', `state ${state}: ${result.error}`);
  check(result.games === 39 && result.used === 38 && result.skipped === 1,
    `games ${result.games}, used ${result.used}, skipped ${result.skipped}`);
  check(heap <= HEAP_BOUND_MB, `the heap grew to ${heap} MB`);
  await settle(page);
  await page.screenshot({ path: join(ARTIFACTS, '51-hostile-one-line.png') });
  await checkStillWorks(page);
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('hostile: a million one-ply games, then the article\'s games: all counted, the article\'s values', async ({ baseUrl }) => {
  const path = writeParts('one-ply.pgn', [
    { data: '[Result "1-0"]\n\n1. e4 1-0\n\n', times: 1000000 },
    { data: ARTICLE },
  ]);
  const { context, page, problems } = await openPage(baseUrl);
  const { state, result, heap } = await readPaths(page, [path]);
  console.log(`      10⁶ one-ply games: ${result.mbps.toFixed(0)} MB/s, largest heap ${heap} MB`);
  check(state === 'done', `state ${state}: ${result.error}`);
  check(result.games === 1002997, `games ${result.games}`);
  checkArticleValues(result.values);
  check(heap <= HEAP_BOUND_MB, `the heap grew to ${heap} MB`);
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('hostile: a zip bomb and a zstd bomb (1 GiB of zeros each) say "binary data"; the app keeps working', async ({ baseUrl }) => {
  const zeros = writeParts('zeros.pgn', [{ data: Buffer.alloc(MB), times: 1024 }]);
  execFileSync('zstd', ['-q', '-3', zeros, '-o', join(inputs(), 'bomb.pgn.zst')]);
  execFileSync('zip', ['-q', '-1', '-j', join(inputs(), 'bomb.zip'), zeros]);
  rmSync(zeros);
  const { context, page, problems } = await openPage(baseUrl);
  for (const name of ['bomb.pgn.zst', 'bomb.zip']) {
    const { state, result, heap } = await readPaths(page, [join(inputs(), name)]);
    console.log(`      ${name}: ${result.seconds.toFixed(1)} s, largest heap ${heap} MB`);
    check(state === 'error', `${name}: state ${state}`);
    check(/binary data/.test(result.error || ''), `${name}: error message: ${result.error}`);
    check(heap <= HEAP_BOUND_MB, `${name}: the heap grew to ${heap} MB`);
    await settle(page);
    await page.screenshot({ path: join(ARTIFACTS, `52-hostile-${name.replace(/\./g, '-')}.png`) });
  }
  await checkStillWorks(page);
  // The module's own abort line is not expected here: nothing may go wrong.
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('hostile: 100 MB of games, then binary data: every game before it counts', async ({ baseUrl }) => {
  const lichess = readFileSync(join(FIXTURES, 'lichess-2021-10-first999.pgn'));
  const times = Math.ceil(100e6 / lichess.length);
  // Pseudo-random bytes (a fixed linear congruential sequence): the same file every run.
  const noise = Buffer.alloc(4 * MB);
  let x = 12345;
  for (let i = 0; i < noise.length; ++i) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    noise[i] = x >>> 24;
  }
  const path = writeParts('then-binary.pgn', [{ data: lichess, times }, { data: noise }]);
  const { context, page, problems } = await openPage(baseUrl);
  const { state, result, heap } = await readPaths(page, [path]);
  console.log(`      then binary: ${result.games} games, ${result.used} used, ${result.skipped} skipped, largest heap ${heap} MB`);
  check(state === 'done', `state ${state}: ${result.error}`);
  // lichess-2021-10-first999.pgn's own games all count (used, partial or skipped as when alone).
  check(result.games >= 999 * times, `games ${result.games}, expected at least ${999 * times}`);
  check(heap <= HEAP_BOUND_MB, `the heap grew to ${heap} MB`);
  await settle(page);
  await page.screenshot({ path: join(ARTIFACTS, '53-hostile-then-binary.png') });
  await checkStillWorks(page);
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('hostile: markup and control bytes in tags and file names are shown and exported as text', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl);
  let dialogs = 0;
  page.on('dialog', async (dialog) => {
    dialogs += 1;
    await dialog.dismiss();
  });
  const evil = '[Event "<script>alert(1)</script>\x1b[31mred\x07"]\n[White "<img src=x onerror=alert(2)>"]\n' +
    '[SetUp "1"]\n[FEN "<script>alert(3)</script>\x1b[2J"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n\n';
  const name = '<img src=x onerror=alert(4)>\x1b[2J.pgn';
  const elementsBefore = await page.evaluate(() => document.querySelectorAll('*').length);
  await dropFiles(page, [{ name, text: evil + ARTICLE }]);
  check(await waitForState(page, ['done', 'error'], 90000) === 'done', 'the file did not fit');
  await settle(page, 10);
  const result = await mirrorResult(page);
  check(result.games === 2998 && result.skipped >= 1, `games ${result.games}, skipped ${result.skipped}`);
  // The name as reported: the escape byte shown as '?', the markup as text.
  check(result.files[0] === '<img src=x onerror=alert(4)>?[2J.pgn', `the mirror's file name: ${JSON.stringify(result.files)}`);
  // Nothing ran and nothing was parsed as markup: no dialog, no new element, no <img> at all.
  check(dialogs === 0, `${dialogs} dialogs opened`);
  const after = await page.evaluate(() => ({
    elements: document.querySelectorAll('*').length, images: document.querySelectorAll('img').length,
    mirror: document.getElementById('materialist-status').textContent,
  }));
  check(after.images === 0, `${after.images} <img> elements in the page`);
  check(after.elements === elementsBefore, `the page had ${elementsBefore} elements, now ${after.elements}`);
  const code = await saveExport(page, 'Copy as code');
  // eslint-disable-next-line no-control-regex
  const control = /[\x00-\x09\x0b-\x1f\x7f]/;
  check(!control.test(code), 'the code export holds control bytes');
  const stray = code.split('\n').filter((line) => line && !/^(\/\/|constexpr |#pragma once$)/.test(line));
  check(stray.length === 0, `code lines that are neither comments nor declarations:\n${stray.join('\n')}`);
  check(code.includes('<img src=x onerror=alert(4)>?[2J.pgn'), 'the code export does not name the file as text');
  await page.screenshot({ path: join(ARTIFACTS, '54-hostile-markup.png') });
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

// What an export button offers, as text (real click on the published control).
async function saveExport(page, label) {
  const [file] = await Promise.all([page.waitForEvent('download', { timeout: 20000 }), clickControl(page, label)]);
  return readFileSync(await file.path(), 'utf8');
}
