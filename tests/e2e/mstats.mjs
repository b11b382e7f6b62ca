// End-to-end tests: statistics files (.mstats, docs/MSTATS.md). A dropped .mstats shows its fit at
// once, the descent animated, with the values of the games it was made from; a share link
// &stats=URL reads a hosted one (another origin, CORS) and Copy share link keeps it; a damaged one
// says why and keeps the previous fit.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ARTIFACTS, REPO, check, checkArticleValues, clickButton, clickControl, dropFiles, mirrorResult, openPage,
  settle, test, waitForState,
} from './harness.mjs';

// `materialist stats --preset article OpenRating.pgn` (tests/fixtures/mstats/README.md).
const STATS = readFileSync(join(REPO, 'tests/fixtures/mstats/OpenRating.article.mstats'));

// Waits for the next read to be reported (window.materialist.reads counts them).
async function nextRead(page, before) {
  await page.waitForFunction((n) => window.materialist.reads > n, before, { timeout: 30000 });
}

test('a dropped .mstats fits at once, the descent drawn, with its games\' values', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl, { hash: '#sample', motion: 'no-preference' });
  check(await waitForState(page, ['done', 'error']) === 'done', 'the sample did not fit');
  const games = await mirrorResult(page);
  const reads = await page.evaluate(() => window.materialist.reads);
  await dropFiles(page, [{ name: 'OpenRating.article.mstats', bytes: Array.from(STATS) }]);
  await nextRead(page, reads);
  // The descent view plays as after a read of the games.
  await page.waitForFunction(() => {
    const r = JSON.parse(document.getElementById('materialist-status').dataset.result);
    return r.iterations > 300 && r.iterations < 9000;
  }, null, { timeout: 30000 });
  await page.screenshot({ path: join(ARTIFACTS, 'mstats-01-descent.png') });
  check(await waitForState(page, ['done', 'error']) === 'done', 'the .mstats did not fit');
  const stats = await mirrorResult(page);
  check(stats.error === null, `error: ${stats.error}`);
  check(stats.games === 2997 && stats.rows === games.rows, `games ${stats.games}, rows ${stats.rows} (the read: ${games.rows})`);
  check(JSON.stringify(stats.files) === JSON.stringify(['OpenRating.pgn']), `files ${JSON.stringify(stats.files)}`);
  check(stats.iterations === 10000 && stats.solver === 'gd', `${stats.solver}, ${stats.iterations} iterations`);
  // The same histogram: the same descent, value for value.
  for (const piece of ['P', 'N', 'B', 'R', 'Q']) {
    check(stats.values[piece] === games.values[piece], `${piece}: ${stats.values[piece]} from the .mstats, ${games.values[piece]} from the games`);
  }
  checkArticleValues(stats.values);
  const status = await page.$eval('#materialist-status', (e) => e.textContent);
  check(status.includes('from OpenRating.article.mstats (statistics of 2,997 games)'), `status: ${status}`);
  await settle(page, 10);
  await page.screenshot({ path: join(ARTIFACTS, 'mstats-02-dropped.png') });
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('&stats=URL reads a hosted .mstats; Copy share link keeps it', async ({ baseUrl }) => {
  // Another origin, as a collection's statistics hosted elsewhere: it must allow CORS.
  const host = createServer((request, response) => {
    response.writeHead(200, {
      'content-type': 'application/octet-stream', 'content-length': STATS.length,
      'access-control-allow-origin': '*', 'cache-control': 'no-store',
    }).end(STATS);
  });
  await new Promise((ready) => host.listen(0, '127.0.0.1', ready));
  const url = `http://127.0.0.1:${host.address().port}/collections/OpenRating.article.mstats`;
  try {
    const { context, page, problems } = await openPage(baseUrl, { hash: `#stats=${encodeURIComponent(url)}` });
    check(await waitForState(page, ['done', 'error']) === 'done', 'the hosted .mstats did not fit');
    const result = await mirrorResult(page);
    check(result.games === 2997, `games = ${result.games}`);
    checkArticleValues(result.values);
    await clickControl(page, 'Copy share link');
    const link = await page.waitForFunction(() => JSON.parse(
      document.getElementById('materialist-status').dataset.result).shareLink, null, { timeout: 10000 })
      .then((h) => h.jsonValue());
    check(link.includes(`stats=${encodeURIComponent(url)}`), `the share link ${link} lost the statistics' address`);
    check(!link.includes('url='), `the share link ${link} names them as games`);
    check(problems.length === 0, problems.join('\n'));
    await context.close();
  } finally {
    host.close();
  }
});

test('&stats=URL: Cancel stops a stalled download of statistics at once', async ({ baseUrl }) => {
  // Half the file, then silence: the connection stays open until the client goes.
  let aborted = 0;
  const host = createServer((request, response) => {
    response.writeHead(200, {
      'content-type': 'application/octet-stream', 'content-length': STATS.length,
      'access-control-allow-origin': '*', 'cache-control': 'no-store',
    });
    response.write(STATS.subarray(0, STATS.length >> 1));
    response.on('close', () => { if (!response.writableFinished) ++aborted; });
  });
  await new Promise((ready) => host.listen(0, '127.0.0.1', ready));
  const url = `http://127.0.0.1:${host.address().port}/stalled.mstats`;
  try {
    const { context, page, problems } = await openPage(baseUrl, { hash: `#stats=${encodeURIComponent(url)}` });
    await page.waitForFunction(() => document.getElementById('materialist-status').dataset.state === 'reading',
      null, { timeout: 20000 });
    await page.waitForTimeout(1000);  // half the bytes in, then nothing
    await clickButton(page, 'Cancel');
    check(await waitForState(page, ['idle', 'done', 'error'], 5000) === 'idle', 'not idle after Cancel');
    for (let i = 0; i < 30 && aborted === 0; ++i) await page.waitForTimeout(100);
    check(aborted === 1, `the stalled download was left open: ${aborted} aborted`);
    // The app reads again at once.
    await page.evaluate(() => { location.hash = '#sample'; });
    check(await waitForState(page, ['done', 'error'], 60000) === 'done', 'the sample did not fit after');
    check(problems.length === 0, problems.join('\n'));
    await context.close();
  } finally {
    host.closeAllConnections?.();
    host.close();
  }
});

test('a truncated .mstats says why and keeps the previous fit', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl, { hash: '#sample' });
  check(await waitForState(page, ['done', 'error']) === 'done', 'the sample did not fit');
  const before = await mirrorResult(page);
  await dropFiles(page, [{ name: 'cut.mstats', bytes: Array.from(STATS.subarray(0, 5000)) }]);
  check(await waitForState(page, ['error']) === 'error', 'no error for a truncated .mstats');
  const after = await mirrorResult(page);
  check(/cut\.mstats: truncated/.test(after.error || ''), `error: ${after.error}`);
  check(/previous data and fit are kept/.test(after.error || ''), `error: ${after.error}`);
  check(after.values.N === before.values.N, 'the previous fit was not kept');
  // Games and statistics together are refused: statistics are read alone.
  await dropFiles(page, [{ name: 'OpenRating.article.mstats', bytes: Array.from(STATS) },
    { name: 'more.pgn', text: '[Event "x"]\n\n1. e4 e5 1-0\n' }]);
  await page.waitForFunction(() => /read alone/.test(JSON.parse(
    document.getElementById('materialist-status').dataset.result).error || ''), null, { timeout: 20000 });
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});
