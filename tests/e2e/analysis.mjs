// End-to-end tests: the Analysis panel. A game filter and the ordinal model set by clicks and
// typing, each file a dataset compared side by side, bootstrap replicates, and a share link
// restoring the settings in the app's controls.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ARTIFACTS, FIXTURES, check, clickControl, copyShareLink, dropFiles, mirrorResult, openPage, settle,
  test, typeInto, waitForFitEnd, waitForState, watchStates,
} from './harness.mjs';

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
    await clickControl(page, 'Settings');  // folds the settings: the results alone
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
  await clickControl(page, 'Settings');  // folds the settings: the results alone
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
  // Compact: the settings that differ from the preset's, as parameters, no JSON.
  check(link.includes('solver=newton') && link.includes('model.outcomes=ordinal') && !link.includes('%7B'),
    `address bar hash ${link}`);
  check(link.length < 400, `the link is ${link.length} characters: ${link}`);
  await page.screenshot({ path: join(ARTIFACTS, '16-share-restored.png') });
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('Read only the first N games: a limit typed in the Analysis panel stops the read there', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl);
  // No data yet: the worker keeps the applied settings, which the mirror shows at the click. A
  // key lost on a loaded machine (25 applied for 250) is typed again.
  let applied = null;
  for (let attempt = 0; attempt < 3 && applied !== 250; ++attempt) {
    await typeInto(page, 'limit:games', '250');
    await clickControl(page, 'Apply filters');
    await settle(page, 3);
    applied = (await mirrorResult(page)).settings?.maxGames ?? null;
  }
  check(applied === 250, `the typed limit was applied as ${applied}`);
  const lichess = readFileSync(join(FIXTURES, 'lichess-2021-10-first999.pgn'), 'utf8');
  await dropFiles(page, [{ name: 'lichess-999.pgn', text: lichess }]);
  check(await waitForState(page, ['done', 'error'], 60000) === 'done', 'the limited read did not fit');
  const limited = await mirrorResult(page);
  check(limited.games === 250, `games = ${limited.games}, expected the limit of 250`);
  check(limited.stoppedAtLimit === true, 'the report does not say the limit stopped the read');
  check(!limited.fileErrors || limited.fileErrors.length === 0, `file errors: ${limited.fileErrors}`);
  check(limited.settings && limited.settings.maxGames === 250, `settings: ${JSON.stringify(limited.settings)}`);
  await settle(page);
  await page.screenshot({ path: join(ARTIFACTS, '24-read-limit.png') });

  // Cleared, the same files are read again whole.
  // Typing on a loaded machine can lose a key: clear and apply again until a read starts with no
  // limit left (a lost Ctrl+A leaves "25" of "250", which reads 25 games).
  let reread = false;
  for (let attempt = 0; attempt < 3 && !reread; ++attempt) {
    const reads = await page.evaluate(() => window.materialist.reads);
    await clickControl(page, 'limit:games');
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Tab');
    await settle(page, 3);
    await clickControl(page, 'Apply filters');
    reread = await page.waitForFunction((n) => window.materialist.reads > n, reads, { timeout: 20000 })
      .then(() => true, () => false);
    if (reread && Number((await mirrorResult(page)).settings?.maxGames) > 0) {
      await waitForState(page, ['done', 'error'], 60000);  // that read ends before the next try
      reread = false;
    }
  }
  check(reread, 'the cleared limit did not read the files again');
  check(await waitForState(page, ['done', 'error'], 60000) === 'done', 'the whole read did not fit');
  const whole = await mirrorResult(page);
  check(whole.games === 999 && !whole.stoppedAtLimit, `games = ${whole.games}, stopped = ${whole.stoppedAtLimit}`);
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('a model reading a field the last read did not keep reads the files again, and says so', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl);
  const lichess = readFileSync(join(FIXTURES, 'lichess-2021-10-first999.pgn'), 'utf8');
  await dropFiles(page, [{ name: 'lichess-999.pgn', text: lichess }]);
  check(await waitForState(page, ['done', 'error'], 60000) === 'done', 'the first read did not fit');
  const reads = await page.evaluate(() => window.materialist.reads);
  // The rating offset needs each game's rating difference: the article's read kept none.
  const statuses = [];
  await page.exposeFunction('recordStatus', (text) => statuses.push(text));
  await page.evaluate(() => {
    const mirror = /** @type {HTMLElement} */ (document.getElementById('materialist-status'));
    new MutationObserver(() => window.recordStatus(mirror.textContent)).observe(mirror, { childList: true, characterData: true, subtree: true });
  });
  await clickControl(page, 'model:elo');
  await page.waitForFunction((n) => window.materialist.reads > n, reads, { timeout: 60000 });
  check(await waitForState(page, ['done', 'error'], 60000) === 'done', 'the refit with the rating offset did not finish');
  check(statuses.some((s) => /again: the model needs the rating difference/.test(s)),
    `no status said why the files were read again: ${JSON.stringify(statuses)}`);
  // Turning it off again needs nothing new: a refit, no read.
  const after = await page.evaluate(() => window.materialist.reads);
  await clickControl(page, 'model:elo');
  await page.waitForFunction(() => {
    const mirror = /** @type {HTMLElement} */ (document.getElementById('materialist-status'));
    const r = JSON.parse(mirror.dataset.result || '{}');
    return mirror.dataset.state === 'done' && r.settings && r.settings.model && !r.settings.model.eloOffset;
  }, null, { timeout: 60000 });
  await page.waitForTimeout(1500);  // a read of these 999 games would be over by then
  check(await page.evaluate(() => window.materialist.reads) === after, 'the files were read again for a model that reads less');
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('a share link with settings and no data keeps its preset for the files dropped next', async ({ baseUrl }) => {
  // "exact": draws as half points, Newton; the default preset leaves draws out.
  const { context, page, problems } = await openPage(baseUrl,
    { hash: '#preset=exact&datasets=per-filter&eachFilter=tc%3Dblitz&eachFilter=tc%3Drapid' });
  await settle(page, 4);
  const lichess = readFileSync(join(FIXTURES, 'lichess-2021-10-first999.pgn'), 'utf8');
  await dropFiles(page, [{ name: 'lichess-999.pgn', text: lichess }]);
  check(await waitForState(page, ['done', 'error'], 60000) === 'done', 'the dropped file did not fit');
  const result = await mirrorResult(page);
  check(result.preset === 'exact', `the fit's preset is ${result.preset}, not the link's exact`);
  check(result.fits.length === 2 && result.fits[0].name.includes('blitz'),
    `datasets: ${JSON.stringify(result.fits.map((f) => f.name))}`);
  const link = await copyShareLink(page);
  check(link.includes('preset=exact'), `the new link lost the preset: ${link}`);
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

// The outcome curves' names and point counts, as the chart publishes them ("outcomes:curve:NAME:N").
async function outcomeCurves(page) {
  const buttons = await page.evaluate(() => window.materialist.ui.buttons);
  return Object.keys(buttons).filter((k) => k.startsWith('outcomes:curve:'))
    .map((k) => k.slice('outcomes:curve:'.length)).sort();
}

async function waitForCurves(page, wanted) {
  await page.waitForFunction((w) => Object.keys(window.materialist.ui.buttons)
    .some((k) => k.startsWith(`outcomes:curve:${w}:`)), wanted, { timeout: 30000 }).catch(() => {});
  await settle(page, 4);
  return outcomeCurves(page);
}

test('outcome curves: a draw curve under every outcome model (the data\'s draws where the model predicts none)', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl, { hash: '#sample' });
  try {
    // Every status line the page shows, to check one number format (issue 50, item 10).
    await page.evaluate(() => {
      const mirror = document.getElementById('materialist-status');
      const seen = /** @type {any} */ (window).__statusTexts = [mirror.textContent];
      new MutationObserver(() => seen.push(mirror.textContent))
        .observe(mirror, { childList: true, characterData: true, subtree: true });
    });
    check(await waitForState(page, ['done', 'error']) === 'done', 'the sample did not fit');
    await settle(page, 2);
    const lines = await page.evaluate(() => /** @type {any} */ (window).__statusTexts);
    check(lines.some((line) => line.includes('10,000 iterations')), `no "10,000 iterations" in ${JSON.stringify(lines)}`);
    const ungrouped = lines.filter((line) => /\b\d{5,}\b/.test(line));
    check(ungrouped.length === 0, `counts without their thousands grouped: ${JSON.stringify(ungrouped)}`);
    // Draws left out (the article): the share of decisive games won, and the draws observed.
    const out = await waitForCurves(page, 'draws (observed)');
    check(out.some((c) => /^win:\d+$/.test(c)) && out.some((c) => /^loss:\d+$/.test(c)), `draws out: ${out}`);
    const observed = out.find((c) => c.startsWith('draws (observed):'));
    check(observed && Number(observed.split(':')[1]) >= 5, `draws out, no observed draws: ${out}`);
    // Draws as ½: the expected score, and the draws observed beside it (item 11).
    await watchStates(page);
    await clickControl(page, 'model:fractional');
    check(await waitForFitEnd(page, 120000) === 'done', 'the fit with draws ½ did not finish');
    const half = await waitForCurves(page, "White's score");
    check(half.some((c) => c.startsWith("White's score:")) && half.some((c) => c.startsWith('draws (observed):')),
      `draws ½: ${half}`);
    const plot = await page.evaluate(() => window.materialist.ui.buttons['outcomes:plot']);
    await page.screenshot({ path: join(ARTIFACTS, '13b-outcomes-draws-half.png'),
      clip: { x: plot.x - 60, y: Math.max(0, plot.y - 90), width: plot.width + 80, height: plot.height + 130 } });
    // Ordinal: the model's own draw probability.
    await watchStates(page);
    await clickControl(page, 'model:ordinal');
    check(await waitForFitEnd(page, 120000) === 'done', 'the ordinal fit did not finish');
    const ordinal = await waitForCurves(page, 'draw');
    check(ordinal.some((c) => /^draw:\d+$/.test(c)) && !ordinal.some((c) => c.startsWith('draws (observed)')),
      `ordinal: ${ordinal}`);
    check(problems.length === 0, problems.join('\n'));
  } finally {
    await context.close().catch(() => {});
  }
});
