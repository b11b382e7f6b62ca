// End-to-end tests: reading. The page loads; the sample fits the article's values (gradient
// descent, Newton, the Exact preset); files come in by drop, by the file chooser (.pgn.gz too) and
// as the article's .mat rows; several files, truncated and malformed ones; Cancel; two parallel
// readers counting every game once.
import { gzipSync } from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ARTIFACTS, FIXTURES, REPO, check, checkArticleValues, clickButton, clickControl, dropFiles, loadSample,
  mirrorResult, mirrorState, openPage, serveSite, settle, test, waitForReadEnd, waitForState, watchStates,
} from './harness.mjs';

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
  const { context, page, problems } = await openPage(baseUrl, { motion: 'no-preference' });  // the descent paced
  await clickButton(page, 'Load sample');
  await waitForState(page, ['reading', 'fitting', 'done']);
  await page.waitForFunction(() => {
    const r = JSON.parse(document.getElementById('materialist-status').dataset.result);
    return r.iterations > 300 && r.iterations < 9000;
  }, null, { timeout: 30000 });  // the descent paced, drawn as it converges
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
  await clickControl(page, 'Newton');
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

  // The worker posts the error's text and the error state one after the other: both are awaited.
  /** @param {string} name @param {number} timeout */
  const errorNaming = (name, timeout) => page.waitForFunction((word) => {
    const mirror = document.getElementById('materialist-status');
    return mirror.dataset.state === 'error' && new RegExp(word).test(JSON.parse(mirror.dataset.result).error || '');
  }, name, { timeout });
  await dropFiles(page, [{ name: 'empty.pgn', text: '' }]);
  await errorNaming('empty', 20000);

  // A 50 MB line without a newline: bounded buffering, a clear message, no hang.
  await dropFiles(page, [{ name: 'long-line.pgn', repeat: { text: 'x'.repeat(1000), times: 50000 } }]);
  await errorNaming('long-line', 60000);
  result = await mirrorResult(page);
  check(/no (usable )?games?/.test(result.error), `error message: ${result.error}`);

  check(await loadSample(page) === 'done', 'the app did not recover');
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
  check(state === 'idle', `after Cancel data-state is ${state}: ${await page.$eval('#materialist-status', (e) => e.textContent)}`);
  check(took < 1500, `Cancel took ${took.toFixed(0)} ms`);

  check(await loadSample(page) === 'done', 'the app did not work after Cancel');
  checkArticleValues((await mirrorResult(page)).values);
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('a parallel reader that fails ends the read with its message; the engine worker lives on', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl, { query: '?readers=2' });
  // The engine worker has its scripts; the readers' importScripts of file-slices.js now fail. (40
  // MB: files from 32 MB are read in parallel.)
  await context.route('**/file-slices.js', (route) => route.abort());
  // Every text the status line shows from here on.
  await page.evaluate(() => {
    const mirror = document.getElementById('materialist-status');
    const texts = [];
    /** @type {any} */ (window).__e2eTexts = texts;
    new MutationObserver(() => texts.push(mirror.textContent)).observe(mirror, { childList: true, characterData: true, subtree: true });
  });
  const lichess = readFileSync(join(FIXTURES, 'lichess-100.pgn'), 'utf8');
  await dropFiles(page, [{ name: 'big.pgn', repeat: { text: lichess + '\n\n', times: Math.ceil(40e6 / lichess.length) } }]);
  check(await waitForState(page, ['done', 'error'], 60000) === 'error', 'the read did not end in an error');
  const { error } = await mirrorResult(page);
  console.log(`      the read's error: ${error}`);
  check(/^a parallel reader stopped: .*file-slices\.js/.test(error), `error message: ${error}`);
  check(await loadSample(page) === 'done', 'the app did not work afterwards');
  checkArticleValues((await mirrorResult(page)).values);
  // The reader's error is this read's alone: the engine worker was never said to have failed,
  // and the only problems are the browser's own lines about the refused script.
  const texts = await page.evaluate(() => /** @type {any} */ (window).__e2eTexts);
  check(!texts.some((t) => /engine worker failed/i.test(t)), `the status said: ${texts.filter((t) => /failed/.test(t)).join(' | ')}`);
  const unexpected = problems.filter((p) => !/^console: .*(file-slices\.js|ERR_FAILED)/.test(p));
  check(unexpected.length === 0, unexpected.join('\n'));
  await context.close();
});

test('a file changed on disk while it is read, alone or by two readers: an error that names it, no hang', async ({ baseUrl }) => {
  // 120 MB streamed from disk by the file input; once the read has begun the file is cut to one
  // copy of lichess-100.pgn (219 KB), and the browser refuses the slices still to come
  // (NotReadableError). The read ends in an error that names the file and says what happened,
  // whether the engine worker, the coordinator of two readers or a reader met the refusal, and
  // the app keeps working.
  const folder = mkdtempSync(join(tmpdir(), 'materialist-changed-'));
  const path = join(folder, 'changing.pgn');
  const lichess = readFileSync(join(FIXTURES, 'lichess-100.pgn'));
  const whole = Buffer.concat(Array(Math.ceil(120e6 / (lichess.length + 2))).fill(Buffer.concat([lichess, Buffer.from('\n\n')])));
  try {
    for (const readers of [1, 2]) {
      writeFileSync(path, whole);
      const { context, page, problems } = await openPage(baseUrl, { query: `?readers=${readers}` });
      await watchStates(page);
      await page.setInputFiles('#file-input', path);
      await waitForState(page, ['reading'], 20000);
      writeFileSync(path, lichess);
      const state = await waitForState(page, ['done', 'error'], 60000);
      const { error } = await mirrorResult(page);
      console.log(`      ${readers} reader${readers === 1 ? '' : 's'}: ${error}`);
      await page.screenshot({ path: join(ARTIFACTS, `reading-file-changed-${readers}.png`) });
      check(state === 'error', `the read ended in ${state}`);
      check(/^changing\.pgn could not be read( after its first [0-9.]+ MB)?: was it changed, moved or deleted since it was chosen\? \(.+\)$/.test(error || ''),
        `error message: ${error}`);
      check(await loadSample(page) === 'done', 'the app did not work afterwards');
      checkArticleValues((await mirrorResult(page)).values);
      const unexpected = problems.filter((p) => !/could not be read/i.test(p));
      check(unexpected.length === 0, unexpected.join('\n'));
      await context.close();
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test('a file read alone: a helper worker reads its slices, from disk or built in the page; without it the reader does', async ({ baseUrl, dist }) => {
  // 9 MB: three 4 MiB slices, each read by web/slice-reader.js and transferred to the engine
  // worker, for a file on disk (the file input) and one built in the page (a drop). A copy of the
  // site without slice-reader.js: the helper fails to start (404) and the engine worker reads the
  // slices itself, with the same result. Copies whose helper fails after its first slice (it
  // reports a refused read, it crashes, it sends the wrong slice, it falls silent): the engine
  // worker reads the other two itself, from where the helper stopped, with the same result again.
  const lichess = readFileSync(join(FIXTURES, 'lichess-100.pgn'), 'utf8');
  const times = Math.ceil(9e6 / lichess.length);
  const name = 'lichess-x' + times + '.pgn';
  const folder = mkdtempSync(join(tmpdir(), 'materialist-slices-'));
  const path = join(folder, name);
  writeFileSync(path, (lichess + '\n\n').repeat(times));
  const sliceSent = "reply({ type: 'slice', at, bytes: buffer }, [buffer]);";
  check(readFileSync(join(dist, 'slice-reader.js'), 'utf8').includes(sliceSent), 'slice-reader.js no longer sends its slices as this test expects');
  // A copy of the site whose slice-reader.js is `edit`ed (null: removed).
  const sites = [];
  const siteWith = async (label, edit) => {
    const root = join(folder, label);
    cpSync(dist, root, { recursive: true });
    const script = join(root, 'slice-reader.js');
    if (edit === null) rmSync(script);
    else writeFileSync(script, edit(readFileSync(script, 'utf8')));
    const site = await serveSite(root);
    sites.push(site);
    return site.baseUrl;
  };
  const afterFirstSlice = (failure) => (text) => text.replace(sliceSent,
    `if (at > m.start) { ${failure}; return; }\n    ${sliceSent}`);
  const cases = [
    { base: baseUrl, from: 'disk', what: 'the disk file', helperSlices: 3 },
    { base: baseUrl, from: 'page', what: 'the page-built file', helperSlices: 3 },
    { base: await siteWith('missing', null), from: 'page', what: 'the page-built file without the helper', helperSlices: 0 },
    { base: await siteWith('refused', afterFirstSlice("throw new DOMException('refused by the test', 'NotReadableError')")),
      from: 'disk', what: 'the disk file, its helper refused the second slice', helperSlices: 1 },
    { base: await siteWith('crashed', afterFirstSlice("setTimeout(() => { throw new Error('the test crashed the helper'); })")),
      from: 'disk', what: 'the disk file, its helper crashed after one slice', helperSlices: 1 },
    { base: await siteWith('misplaced', afterFirstSlice("reply({ type: 'slice', at: at + 1, bytes: buffer }, [buffer])")),
      from: 'disk', what: 'the disk file, its helper sent the wrong second slice', helperSlices: 1 },
    // Silent for good: after 10 s without a slice (sliceHelper.silentMs) the reader reads on.
    { base: await siteWith('silent', afterFirstSlice('/* nothing more, no error */')),
      from: 'disk', what: 'the disk file, its helper fell silent after one slice', helperSlices: 1 },
  ];
  const results = [];
  try {
    for (const { base, from, what, helperSlices } of cases) {
      const { context, page, problems } = await openPage(base, { query: '?readers=1' });
      const asked = [];
      context.onRequest((request) => { if (/\/slice-reader\.js$/.test(request.url())) asked.push(request.url()); });
      if (from === 'disk') await page.setInputFiles('#file-input', path);
      else await dropFiles(page, [{ name, repeat: { text: lichess + '\n\n', times } }]);
      check(await waitForState(page, ['done', 'error'], 60000) === 'done', `${what} did not fit: ${(await mirrorResult(page)).error}`);
      check(asked.length === 1, `${what}: slice-reader.js asked for ${asked.length} times`);
      const result = await mirrorResult(page);
      const bytes = Buffer.byteLength(lichess + '\n\n') * times;
      check(result.games === 100 * times && result.bytes === bytes,
        `${what}: games = ${result.games}, bytes = ${result.bytes}, expected ${100 * times} and ${bytes}`);
      const slices = Math.ceil(result.bytes / (4 << 20));
      check(slices === 3 && result.helperSlices === helperSlices,
        `${what}: ${result.helperSlices} of ${slices} slices read by the helper, expected ${helperSlices}`);
      results.push(result);
      // Not even the helper's missing script or its crash shows in the page's console.
      check(problems.length === 0, `${what}: ${problems.join('\n')}`);
      await context.close();
    }
  } finally {
    for (const site of sites) await site.close();
    rmSync(folder, { recursive: true, force: true });
  }
  for (const result of results.slice(1)) {
    check(result.rows === results[0].rows && result.used === results[0].used,
      `rows ${result.rows}, used ${result.used}; the disk file's ${results[0].rows}, ${results[0].used}`);
    for (const piece of ['N', 'B', 'R', 'Q']) {
      check(result.values[piece] === results[0].values[piece], `${piece}: ${result.values[piece]}, the disk file's ${results[0].values[piece]}`);
    }
  }
});

test('a 200 MB file read by six parallel readers: every game counted once', async ({ baseUrl }) => {
  // ?readers=6: the file is cut at game starts into six ranges read by six nested workers (more
  // than this machine's cores: a machine with seven or more reads so by default).
  const { context, page, problems } = await openPage(baseUrl, { query: '?readers=6' });
  const lichess = readFileSync(join(FIXTURES, 'lichess-100.pgn'), 'utf8');
  const times = Math.ceil(200e6 / lichess.length);
  await dropFiles(page, [{ name: 'lichess-x' + times + '.pgn', repeat: { text: lichess + '\n\n', times } }]);
  await waitForState(page, ['reading'], 20000);
  await page.screenshot({ path: join(ARTIFACTS, '11-reading-progress.png') });
  check(await waitForState(page, ['done', 'error'], 120000) === 'done',
    `the 200 MB read did not fit: ${(await mirrorResult(page)).error}`);
  const result = await mirrorResult(page);
  check(result.games === 100 * times, `games = ${result.games}, expected ${100 * times}`);
  check(result.readers === 6, `read by ${result.readers} readers, not 6`);
  // The same file read sequentially gives exactly the same rows and values.
  await page.goto(page.url().replace('?readers=6', '?readers=1'));
  await page.waitForFunction(() => window.materialist && window.materialist.appReady && window.materialist.workerReady);
  await dropFiles(page, [{ name: 'lichess-x' + times + '.pgn', repeat: { text: lichess + '\n\n', times } }]);
  check(await waitForState(page, ['done', 'error'], 120000) === 'done', 'the sequential read did not fit');
  const sequential = await mirrorResult(page);
  // Through the slice reader, which streams the file: read by slice() per 4 MiB there, this Blob
  // built in the page became unreadable partway.
  check(sequential.helperSlices === Math.ceil(sequential.bytes / (4 << 20)), `${sequential.helperSlices} slices read by the helper`);
  check(sequential.readers === 1, `the sequential read: ${sequential.readers} readers`);
  check(sequential.rows === result.rows && sequential.games === result.games,
    `sequential ${sequential.games} games ${sequential.rows} rows, parallel ${result.games} games ${result.rows} rows`);
  for (const piece of ['N', 'B', 'R', 'Q']) {
    check(Math.abs(sequential.values[piece] - result.values[piece]) < 1e-6, `${piece}: ${sequential.values[piece]} vs ${result.values[piece]}`);
  }
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

test('while a long file is read, exact estimates fill the values and narrow', async ({ baseUrl }) => {
  // One reader (estimates come from the engine that reads), ~250 MB of rated lichess games. Ten
  // estimates a second (?estimateMs=100, not the default two): a fast machine reads these games
  // at 200 MB/s and more, and the read must leave time for several, whatever the machine.
  const { context, page, problems } = await openPage(baseUrl, { query: '?readers=1&estimateMs=100' });
  const lichess = readFileSync(join(FIXTURES, 'lichess-2021-10-first999.pgn'), 'utf8');
  const times = Math.ceil(250e6 / lichess.length);
  await dropFiles(page, [{ name: 'lichess-x' + times + '.pgn', repeat: { text: lichess + '\n\n', times } }]);
  await waitForState(page, ['reading'], 20000);
  /** @type {{games: number, N: number, seN: number}[]} */
  const seen = [];
  let shots = 0;
  while ((await mirrorState(page)) === 'reading') {
    const estimate = (await mirrorResult(page)).estimate;
    if (estimate && (seen.length === 0 || seen[seen.length - 1].games !== estimate.games)) {
      seen.push({ games: estimate.games, N: estimate.values.N, seN: estimate.standardErrors.N });
      if (seen.length === 2 || seen.length === 4) {
        await page.screenshot({ path: join(ARTIFACTS, `20-live-estimate-${++shots}.png`) });
      }
    }
    await page.waitForTimeout(100);
  }
  check(await waitForState(page, ['done', 'error'], 120000) === 'done', 'the long read did not fit');
  console.log(`      ${seen.length} estimates seen, ${(await mirrorResult(page)).mbps?.toFixed(1)} MB/s`);
  check(seen.length >= 2, `only ${seen.length} estimates while reading: ${JSON.stringify(seen)}`);
  const first = seen[0];
  const last = seen[seen.length - 1];
  check(last.games > first.games, `estimates did not advance: ${JSON.stringify(seen)}`);
  check(last.seN < first.seN, `the knight's error did not narrow: ${first.seN} → ${last.seN}`);
  check(first.N > 150 && first.N < 500, `first knight estimate ${first.N}`);
  const result = await mirrorResult(page);
  check(Math.abs(result.fits[0].values.N - last.N) < 0.05 * result.fits[0].values.N,
    `the final knight ${result.fits[0].values.N} is far from the last estimate ${last.N}`);
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

// ---- estimates of parallel reads, compressed files read in parallel, memory ----

// Reads the mirror's estimates while data-state is `reading`: [{games, N, seN}], one per change;
// a screenshot at the `shotAt`-th.
async function watchEstimates(page, screenshot, shotAt = 3) {
  /** @type {{games: number, N: number, seN: number}[]} */
  const seen = [];
  while ((await mirrorState(page)) === 'reading') {
    const estimate = (await mirrorResult(page)).estimate;
    if (estimate && (seen.length === 0 || seen[seen.length - 1].games !== estimate.games)) {
      seen.push({ games: estimate.games, N: estimate.values.N, seN: estimate.standardErrors.N });
      if (seen.length === shotAt && screenshot) await page.screenshot({ path: join(ARTIFACTS, screenshot) });
    }
    // The status line's games (a progress is posted with each estimate) are those of the estimate
    // or more, never fewer as when the progress of an earlier moment stayed beside it. Looked at
    // again 50 ms later when not, as the estimate's progress may be the next message.
    if (estimate && !((await mirrorResult(page)).progressGames >= estimate.games)) {
      await page.waitForTimeout(50);
      const now = await mirrorResult(page);
      check(now.estimate?.games !== estimate.games || now.progressGames >= estimate.games,
        `the status line says ${now.progressGames} games beside an estimate of ${estimate.games}`);
    }
    await page.waitForTimeout(100);
  }
  return seen;
}

test('two parallel readers: exact estimates while they read, the final fit near the last one', async ({ baseUrl }) => {
  // Ten estimates a second (?estimateMs=100): the read leaves time for several on any machine.
  const { context, page, problems } = await openPage(baseUrl, { query: '?readers=2&estimateMs=100' });
  const lichess = readFileSync(join(FIXTURES, 'lichess-2021-10-first999.pgn'), 'utf8');
  const times = Math.ceil(350e6 / lichess.length);  // two readers take several seconds
  await dropFiles(page, [{ name: 'lichess-x' + times + '.pgn', repeat: { text: lichess + '\n\n', times } }]);
  await waitForState(page, ['reading'], 20000);
  const seen = await watchEstimates(page, '21-parallel-estimate.png');
  check(await waitForState(page, ['done', 'error'], 120000) === 'done',
    `the parallel read did not fit: ${(await mirrorResult(page)).error}`);
  const result = await mirrorResult(page);
  console.log(`      ${seen.length} estimates, ${result.mbps ? result.mbps.toFixed(1) : '?'} MB/s`);
  // Two are enough to see them advance and narrow.
  check(seen.length >= 2, `only ${seen.length} estimates while reading: ${JSON.stringify(seen)}`);
  check(seen[seen.length - 1].games > seen[0].games, `estimates did not advance: ${JSON.stringify(seen)}`);
  check(seen[seen.length - 1].seN < seen[0].seN, `the knight's error did not narrow: ${JSON.stringify(seen)}`);
  const last = seen[seen.length - 1];
  check(Math.abs(result.fits[0].values.N - last.N) < 0.05 * result.fits[0].values.N,
    `the final knight ${result.fits[0].values.N} is far from the last estimate ${last.N}`);
  check(result.games === 999 * times, `games = ${result.games}, expected ${999 * times}`);
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('a heap that runs out (a billion bootstrap replicates) says so; the engine restarts and the app keeps working', async ({ baseUrl }) => {
  // The replicates' weights alone need 4 GB, twice the heap's limit: the allocation fails at
  // once, whatever the machine (nothing is touched), and the engine's module aborts.
  const settings = encodeURIComponent(JSON.stringify({ bootstrap: 1e9 }));
  const { context, page, problems } = await openPage(baseUrl, { hash: `#s=${settings}&sample` });
  check(await waitForState(page, ['error', 'done'], 60000) === 'error', 'the read did not fail');
  const error = (await mirrorResult(page)).error || '';
  check(/^The engine ran out of memory \(\d[\d,]* MB heap of at most [\d,]+ MB\) while reading OpenRating\.pgn: Aborted\(OOM\)\. Fewer bootstrap replicates/.test(error),
    `error message: ${error}`);
  check(/restarted/.test(error), `the message does not say the engine restarted: ${error}`);
  await settle(page, 6);
  await page.screenshot({ path: join(ARTIFACTS, '22-out-of-memory.png') });
  // The restarted engine reads the sample with a link that asks for no replicates.
  await watchStates(page);  // the failed read's 'error' is not this read's end
  await page.evaluate(() => { location.hash = `#s=${encodeURIComponent(JSON.stringify({ bootstrap: 0 }))}&sample`; });
  check(await waitForReadEnd(page, 90000) === 'done',
    `the app did not work after the restart: ${(await mirrorResult(page)).error}`);
  checkArticleValues((await mirrorResult(page)).values);
  // The module's own abort line is expected; nothing else may go wrong.
  const unexpected = problems.filter((p) => !/Aborted\(OOM\)/.test(p));
  check(unexpected.length === 0, unexpected.join('\n'));
  await context.close();
});

test('a 150 MB .pgn.zst decoded here and parsed by two readers equals its sequential read', async ({ baseUrl }) => {
  // The zstd file is made once per run, from the rated lichess fixture repeated.
  const lichess = readFileSync(join(FIXTURES, 'lichess-2021-10-first999.pgn'), 'utf8');
  const times = Math.ceil(150e6 / lichess.length);
  const dir = mkdtempSync(join(tmpdir(), 'materialist-zst-'));
  const plain = join(dir, 'lichess.pgn');
  writeFileSync(plain, (lichess + '\n\n').repeat(times));
  execFileSync('zstd', ['-q', '-3', plain, '-o', `${plain}.zst`]);
  rmSync(plain);
  /** @param {string} query */
  const readZst = async (query, screenshot) => {
    const { context, page, problems } = await openPage(baseUrl, { query });
    const chooser = page.waitForEvent('filechooser');
    await clickButton(page, 'Open files…');
    await (await chooser).setFiles(`${plain}.zst`);
    await waitForState(page, ['reading'], 20000);
    const seen = await watchEstimates(page, screenshot, 1);
    check(await waitForState(page, ['done', 'error'], 180000) === 'done',
      `${query}: the .pgn.zst did not fit: ${(await mirrorResult(page)).error}`);
    const result = await mirrorResult(page);
    check(problems.length === 0, problems.join('\n'));
    await context.close();
    return { result, seen };
  };
  try {
    const parallel = await readZst('?readers=2&estimateMs=100', '23-zst-parallel-estimate.png');
    const sequential = await readZst('?readers=1', null);
    console.log(`      ${parallel.result.mbps.toFixed(1)} MB/s with 2 readers (${parallel.seen.length} estimates), ` +
      `${sequential.result.mbps.toFixed(1)} MB/s with 1`);
    check(parallel.result.games === 999 * times, `games = ${parallel.result.games}, expected ${999 * times}`);
    checkSameResult(parallel.result, sequential.result, '.pgn.zst, two readers');
    for (const key of ['partial', 'skipped', 'files', 'standardErrors']) {
      check(JSON.stringify(parallel.result[key]) === JSON.stringify(sequential.result[key]),
        `${key}: ${JSON.stringify(parallel.result[key])} in parallel, ${JSON.stringify(sequential.result[key])} in order`);
    }
    check(parallel.seen.length >= 1, 'no estimate while reading');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
