// A player's games by username, against the local stand-in of lichess and chess.com
// (services-stub.mjs; the page's ?lichess-base= / ?chesscom-base= point it there): the Player
// window streams the games into the engine and fits them from the player's side ("My values"),
// the share link #lichess=NAME restores it, and a 429, an unknown user and no network are said
// in words, and Cancel stops the download. Screenshots 70-75.
import { join } from 'node:path';
import {
  ARTIFACTS, check, clickButton, clickControl, copyShareLink, mirrorResult, openPage, settle, test,
  waitForReadEnd, waitForState, watchStates,
} from './harness.mjs';
import { RETRY_AFTER_SECONDS, startServicesStub } from './services-stub.mjs';

// Opens the site (baseUrl) with the services pointed at `stub`.
const open = (baseUrl, stub, hash = '') => openPage(baseUrl, {
  hash, query: `?lichess-base=${encodeURIComponent(stub.url)}&chesscom-base=${encodeURIComponent(stub.url)}`,
});

// Types into a field of the Player window (it is not in the settings panel).
async function typeField(page, label, text) {
  await clickButton(page, label);
  await page.keyboard.press('Control+A');
  await page.keyboard.type(text, { delay: 15 });
  await settle(page, 2);  // the last key taken before Tab moves on (see typeInto)
  await page.keyboard.press('Tab');
  await settle(page, 3);
}

const fitOf = (result) => (result.fits || [])[0] || {};

test('player: a lichess username streams the games and fits them from the player\'s side', async ({ baseUrl }) => {
  const stub = await startServicesStub();
  const { context, page, problems } = await open(baseUrl, stub);
  try {
    await clickButton(page, 'Player…');
    await typeField(page, 'player:user', 'bob');
    await clickButton(page, 'player:speed:blitz');
    await typeField(page, 'player:max', '300');
    await settle(page, 4);
    await page.screenshot({ path: join(ARTIFACTS, '70-player-window.png') });
    await clickButton(page, 'player:load');
    check(await waitForState(page, ['reading', 'done', 'error'], 20000) !== 'error', 'the load failed at once');
    await page.waitForTimeout(150);
    await page.screenshot({ path: join(ARTIFACTS, '71-player-streaming.png') });
    check(await waitForState(page, ['done', 'error']) === 'done', `the fit did not finish: ${(await mirrorResult(page)).error}`);
    await settle(page, 8);
    await page.screenshot({ path: join(ARTIFACTS, '72-player-my-values.png') });
    const result = await mirrorResult(page);
    const asked = stub.requests.find((r) => r.startsWith('/api/games/user/bob'));
    check(asked && asked.includes('perfType=blitz') && asked.includes('max=300'), `lichess was asked ${asked}`);
    check(result.files.length === 1 && result.files[0] === 'lichess-bob.pgn', `files ${JSON.stringify(result.files)}`);
    check(result.games > 100 && result.games <= 300, `${result.games} games read`);
    check(result.settings && result.settings.filter === 'player=bob;pov=1', `filter ${JSON.stringify(result.settings)}`);
    const fit = fitOf(result);
    check(fit.coefficients.includes('intercept'), `no player's edge: ${fit.coefficients}`);
    // My values: the player's pieces and the opponents' as separate columns (split sides).
    check(fit.coefficients.includes('own-knight') && fit.coefficients.includes('opponent-queen'),
      `not the player's pieces against the opponents': ${fit.coefficients}`);
    check(result.settings.model && result.settings.model.splitSides === true,
      `split sides not applied: ${JSON.stringify(result.settings.model)}`);
    const shared = await copyShareLink(page);
    const hash = new URL(shared).hash;
    check(hash.includes('lichess=bob') && hash.includes('speed=blitz') && hash.includes('maxGames=300'),
      `the share link does not reproduce the load: ${hash}`);
    check(problems.length === 0, problems.join('\n'));
  } finally {
    await context.close();
    await stub.close();
  }
});

test('player: the share link #lichess=NAME restores the analysis for anyone', async ({ baseUrl }) => {
  const stub = await startServicesStub();
  const { context, page, problems } = await open(baseUrl, stub, '#lichess=alice&speed=bullet&maxGames=200');
  try {
    check(await waitForState(page, ['done', 'error']) === 'done', `the link's read failed: ${(await mirrorResult(page)).error}`);
    const result = await mirrorResult(page);
    check(stub.requests.some((r) => r.startsWith('/api/games/user/alice?perfType=bullet')), stub.requests.join(' '));
    check(result.games > 50 && result.games <= 200, `${result.games} games`);
    check(result.settings.filter === 'player=alice;pov=1', `My values not on: ${JSON.stringify(result.settings)}`);
    check(fitOf(result).coefficients.includes('intercept'), 'no player\'s edge');
    await settle(page, 6);
    await page.screenshot({ path: join(ARTIFACTS, '73-player-share-link.png') });
    check(problems.length === 0, problems.join('\n'));
  } finally {
    await context.close();
    await stub.close();
  }
});

test('player: chess.com\'s monthly archives are read one by one, newest first', async ({ baseUrl }) => {
  const stub = await startServicesStub();
  const { context, page, problems } = await open(baseUrl, stub, '#chesscom=Bob&speed=blitz');
  try {
    check(await waitForState(page, ['done', 'error']) === 'done', `the read failed: ${(await mirrorResult(page)).error}`);
    const months = stub.requests.filter((r) => r.startsWith('/pub/player/'));
    check(JSON.stringify(months) === JSON.stringify(['/pub/player/bob/games/archives',
      '/pub/player/bob/games/2021/10/pgn', '/pub/player/bob/games/2021/09/pgn', '/pub/player/bob/games/2021/08/pgn']),
    `requests ${JSON.stringify(months)}`);
    const result = await mirrorResult(page);
    check(JSON.stringify(result.files) === JSON.stringify(['chesscom-Bob-2021-10.pgn', 'chesscom-Bob-2021-09.pgn',
      'chesscom-Bob-2021-08.pgn']), `files ${JSON.stringify(result.files)}`);
    check(result.games === 999, `${result.games} games`);
    // chess.com's months hold every speed: the link's speed is a time-control filter.
    check(result.settings.filter === 'player=Bob;pov=1;tc=blitz', `filter ${result.settings.filter}`);
    check(result.filtered > 0 && result.filteredBy['time-control'] === result.filtered, JSON.stringify(result.filteredBy));
    check(problems.length === 0, problems.join('\n'));
  } finally {
    await context.close();
    await stub.close();
  }
});

test('player: a rate limit (429) says how long to wait', async ({ baseUrl }) => {
  const stub = await startServicesStub();
  const { context, page } = await open(baseUrl, stub, '#lichess=ratelimited');
  try {
    check(await waitForState(page, ['done', 'error']) === 'error', 'no error for a 429');
    const { error } = await mirrorResult(page);
    check(/lichess is limiting requests \(HTTP 429/.test(error) && error.includes(`wait ${RETRY_AFTER_SECONDS} s`),
      `message: ${error}`);
    await settle(page, 6);
    await page.screenshot({ path: join(ARTIFACTS, '74-player-rate-limit.png') });
  } finally {
    await context.close();
    await stub.close();
  }
});

test('player: an unknown user and no network are said in words', async ({ baseUrl }) => {
  const stub = await startServicesStub();
  const { context, page } = await open(baseUrl, stub, '#chesscom=unknownplayer');
  try {
    check(await waitForState(page, ['done', 'error']) === 'error', 'no error for an unknown user');
    const { error } = await mirrorResult(page);
    check(error.includes('chess.com has no player "unknownplayer" (HTTP 404)'), `message: ${error}`);
    await settle(page, 6);
    await page.screenshot({ path: join(ARTIFACTS, '75-player-unknown.png') });
  } finally {
    await context.close();
  }
  // The stand-in gone: its address answers nothing, as without network.
  const gone = { url: stub.url };
  await stub.close();
  const offline = await open(baseUrl, gone, '#lichess=bob');
  try {
    check(await waitForState(offline.page, ['done', 'error']) === 'error', 'no error without network');
    const { error } = await mirrorResult(offline.page);
    check(/Could not reach lichess .*no network, or the service refused this page's cross-origin request \(CORS\)/.test(error),
      `message: ${error}`);
  } finally {
    await offline.context.close();
  }
});

test('player: Cancel stops a download as it streams; the stand-in sees it go', async ({ baseUrl }) => {
  const stub = await startServicesStub();
  const { context, page, problems } = await open(baseUrl, stub, '#lichess=slow');
  try {
    await page.waitForFunction(() => {
      const r = document.getElementById('materialist-status');
      return r.dataset.state === 'reading' && /Reading lichess-slow/.test(r.textContent || '');
    }, null, { timeout: 20000 });
    await page.waitForTimeout(600);  // some games in
    await clickButton(page, 'Cancel');
    check(await waitForState(page, ['idle', 'done', 'error'], 5000) === 'idle', 'not idle after Cancel');
    check((await page.$eval('#materialist-status', (e) => e.textContent)).includes('Cancelled'), 'no "Cancelled"');
    for (let i = 0; i < 30 && stub.counts.aborted === 0; ++i) await page.waitForTimeout(100);
    check(stub.counts.aborted === 1, `the download went on: ${stub.counts.aborted} aborted`);
    check(problems.length === 0, problems.join('\n'));
  } finally {
    await context.close();
    await stub.close();
  }
});

test('player: Cancel stops a stalled download at once, though no byte comes any more', async ({ baseUrl }) => {
  const stub = await startServicesStub();
  const { context, page, problems } = await open(baseUrl, stub, '#lichess=stalled');
  try {
    await page.waitForFunction(() => {
      const r = document.getElementById('materialist-status');
      return r.dataset.state === 'reading' && /Reading lichess-stalled/.test(r.textContent || '');
    }, null, { timeout: 20000 });
    await page.waitForTimeout(1000);  // the first games in, then nothing
    await clickButton(page, 'Cancel');
    check(await waitForState(page, ['idle', 'done', 'error'], 5000) === 'idle', 'not idle after Cancel');
    for (let i = 0; i < 30 && stub.counts.aborted === 0; ++i) await page.waitForTimeout(100);
    check(stub.counts.aborted === 1, `the stalled download was left open: ${stub.counts.aborted} aborted`);
    // The app reads again at once (the stalled read does not hold the engine).
    await page.evaluate(() => { location.hash = '#lichess=bob'; });
    check(await waitForState(page, ['done', 'error'], 60000) === 'done', `bob's games did not fit after: ${(await mirrorResult(page)).error}`);
    check(problems.length === 0, problems.join('\n'));
  } finally {
    await context.close();
    await stub.close();
  }
});

test('player: a load that fails keeps the earlier data as it was: its settings, title and link', async ({ baseUrl }) => {
  const stub = await startServicesStub();
  const { context, page, problems } = await open(baseUrl, stub, '#sample');
  try {
    check(await waitForState(page, ['done', 'error'], 60000) === 'done', 'the sample did not fit');
    const before = await mirrorResult(page);
    await clickButton(page, 'Player…');
    await typeField(page, 'player:user', 'ratelimited');
    await clickButton(page, 'player:load');
    check(await waitForState(page, ['error'], 30000) === 'error', 'no error for a 429');
    await settle(page, 6);
    await page.screenshot({ path: join(ARTIFACTS, '76-player-failed-load-keeps-data.png') });
    // A fit setting changed afterwards refits the sample as it was read, not filtered by the player
    // (the bishop pair is a field the read did not keep: the sample is read again). Watched from
    // before the click: the failed load's 'error' is not this read's end.
    await watchStates(page);
    await clickControl(page, 'model:bishop-pair');
    check(await waitForReadEnd(page, 60000) === 'done', `the refit failed: ${(await mirrorResult(page)).error}`);
    const after = await mirrorResult(page);
    check(after.games === before.games && after.rows === before.rows,
      `the kept data changed: ${before.games} games, ${before.rows} rows before; ${after.games}, ${after.rows} after`);
    check(!after.settings || !String(after.settings.filter || '').includes('player='),
      `the settings name the player whose load failed: ${JSON.stringify(after.settings)}`);
    const shared = await copyShareLink(page);
    const hash = new URL(shared).hash;
    check(hash.includes('sample') && !hash.includes('ratelimited'), `the link is not the kept data's: ${hash}`);
    const unexpected = problems.filter((p) => !/429/.test(p));
    check(unexpected.length === 0, unexpected.join('\n'));
  } finally {
    await context.close();
    await stub.close();
  }
});
