// End-to-end tests: a new user's journey without a wrong turn. One walk from a cold
// page through a failed player load (no network), Reset, the sample beside the article, units,
// the C++ header, a truncated .zst, a dropped file, a comparison by speed that finds one speed,
// the ordinal model's charts, a share link made from a local file and back; Load sample on a link
// made from a player's file; then the phone, the laptop and a wide screen, every control inside
// the screen. Screenshots 90-99.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ARTIFACTS, FIXTURES, REPO, check, clickButton, clickControl, copyShareLink, dropFiles, loadSample,
  mirrorResult, openPage, saveDownload, settle, test, typeInto, waitForFitEnd, waitForReadEnd,
  waitForState, watchStates,
} from './harness.mjs';
import { startServicesStub } from './services-stub.mjs';

const LICHESS = () => readFileSync(join(FIXTURES, 'lichess-2021-10-first999.pgn'), 'utf8');
const TRUNCATED_ZST = () => [...readFileSync(join(REPO, 'tests/fixtures/archive/lichess-100-truncated.pgn.zst'))];

// The lichess fixture's games of one speed only (base + 40 × increment from 30 s to 179 s:
// bullet).
function bulletOnly() {
  return LICHESS().replace(/\r\n/g, '\n').split(/\n(?=\[Event )/).filter((game) => {
    const tc = /\[TimeControl "(\d+)\+(\d+)"\]/.exec(game);
    const estimate = tc ? Number(tc[1]) + 40 * Number(tc[2]) : -1;
    return estimate >= 30 && estimate < 180;
  }).join('\n');
}

const status = (page) => page.$eval('#materialist-status', (e) => e.textContent || '');
const published = (page, label) => page.evaluate((l) => window.materialist.ui.buttons[l] || null, label);
const toastText = async (page) => (await page.waitForFunction(() => {
  const r = JSON.parse(document.getElementById('materialist-status').dataset.result);
  return r.toast || null;
}, null, { timeout: 10000 })).jsonValue();

// Points at a disabled button: its reason shows (published as why:LABEL while it does).
async function whyDisabled(page, label) {
  const rect = await published(page, label);
  check(rect, `no button ${label}`);
  const box = await page.$eval('#canvas', (c) => { const r = c.getBoundingClientRect(); return { x: r.left, y: r.top }; });
  await page.mouse.move(box.x + rect.x + rect.width / 2, box.y + rect.y + rect.height / 2);
  await settle(page, 4);
  return published(page, `why:${label}`);
}

// Every published control lies inside the screen's width (the phone's column scrolls down, never
// sideways), and number fields are at least as wide as their text.
async function checkInsideWidth(page, where) {
  const { width } = await page.viewportSize();
  const buttons = await page.evaluate(() => window.materialist.ui.buttons);
  // (A table's columns scroll inside it, sideways: they are not controls.)
  const outside = Object.entries(buttons).filter(([label, r]) => !label.startsWith('why:') && !/:col\d+$/.test(label) && r.width > 0
    && (r.x < -1 || r.x + r.width > width + 1));
  check(outside.length === 0, `${where}: controls outside the ${width} px screen: ${outside.map(([l, r]) => `${l} x ${Math.round(r.x)}+${Math.round(r.width)}`).join(', ')}`);
  for (const label of ['quiet:plies', 'quiet:skip-first']) {
    if (buttons[label]) check(buttons[label].width >= 40, `${where}: ${label} is ${buttons[label].width} px wide`);
  }
}

test('journey: a new user from a cold page through a failed load, the sample, files, a comparison, a link and back', async ({ baseUrl }) => {
  // The services' stand-in, closed: its address answers nothing, as without network.
  const stub = await startServicesStub();
  const offline = stub.url;
  await stub.close();
  const query = `?lichess-base=${encodeURIComponent(offline)}&chesscom-base=${encodeURIComponent(offline)}`;
  const { context, page, problems } = await openPage(baseUrl, { query });
  try {
    // A cold page: the exports say why they are disabled (item 12).
    await settle(page, 6);
    await page.screenshot({ path: join(ARTIFACTS, '90-journey-cold-1400.png') });
    check(await whyDisabled(page, 'Values CSV'), 'a disabled export gives no reason');

    // "My values" through the game filters is the Player window's model (item 3); Reset, without
    // a fit, returns every setting to the preset's (item 1).
    await typeInto(page, 'filter:player', 'bob');
    await clickControl(page, 'filter:pov');
    await clickControl(page, 'Apply filters');
    const mine = (await mirrorResult(page)).settings || {};
    check(mine.filter === 'player=bob;pov=1' && mine.model && mine.model.intercept && mine.model.splitSides,
      `the filter's point of view is not My values: ${JSON.stringify(mine)}`);
    await clickButton(page, 'Reset');
    const reset = (await mirrorResult(page)).settings || {};
    check(!reset.filter && !(reset.model && (reset.model.splitSides || reset.model.intercept)),
      `Reset without a fit kept ${JSON.stringify(reset)}`);

    // Player… → Load games without network: the error, and nothing of the load stays (item 1).
    await clickButton(page, 'Player…');
    await clickButton(page, 'player:user');
    await page.keyboard.type('bob', { delay: 15 });
    await settle(page, 2);
    await clickButton(page, 'player:load');
    check(await waitForState(page, ['error'], 30000) === 'error', 'no error without network');
    const failed = await mirrorResult(page);
    check(/Could not reach lichess/.test(failed.error), `error: ${failed.error}`);
    await page.waitForFunction(() => {
      const r = JSON.parse(document.getElementById('materialist-status').dataset.result);
      return r.settings && !String(r.settings.filter || '').includes('player=');
    }, null, { timeout: 10000 }).catch(() => null);
    const restored = (await mirrorResult(page)).settings || {};
    check(!String(restored.filter || '').includes('player='), `the failed load's filter stayed: ${JSON.stringify(restored)}`);
    check(!(restored.model && restored.model.splitSides), `the failed load's model stayed: ${JSON.stringify(restored.model)}`);
    await settle(page, 4);
    await page.screenshot({ path: join(ARTIFACTS, '91-journey-failed-load.png') });

    // The sample then reads every game, under the article's preset, with the note why its values
    // differ by a centipawn from the article's (items 1, 11).
    check(await loadSample(page) === 'done', `the sample did not fit: ${(await mirrorResult(page)).error}`);
    const sample = await mirrorResult(page);
    check(sample.games === 2997 && !sample.filtered, `sample: ${sample.games} games, ${sample.filtered} filtered`);
    await settle(page, 6);
    check(await published(page, 'note:article'), 'no note on the article\'s values');
    check(await published(page, 'more:results'), 'the values pane cuts its rows without saying so');
    await page.screenshot({ path: join(ARTIFACTS, '92-journey-sample-1400.png') });

    // Elo: the status line, the Values JSON and the C++ header in Elo (items 8, 9).
    await clickControl(page, 'units:elo');
    await page.waitForFunction(() => /Elo: P \d+/.test(document.getElementById('materialist-status').textContent || ''),
      null, { timeout: 10000 }).catch(() => null);
    check(/Elo: P \d+/.test(await status(page)), `status line not in Elo: ${await status(page)}`);
    const json = JSON.parse((await saveDownload(page, 'Values JSON', false)).text);
    check(json.settings.units === 'elo', `Values JSON units ${json.settings.units}`);
    const code = (await saveDownload(page, 'Copy as code')).text;
    check(code.includes('Every term is in Elo'), `header: ${code.slice(0, 400)}`);
    check(/lambda 1e-06\b/.test(code), `lambda printed as ${/lambda \S+/.exec(code)}`);
    const copied = await toastText(page);
    check(/C\+\+ header (copied|saved)/.test(copied), `toast: ${copied}`);
    await clickControl(page, 'units:pawn');

    // The ordinal model: the loss as a number, the model's own expected score (item 10).
    await watchStates(page);
    await clickControl(page, 'model:ordinal');
    check(await waitForFitEnd(page, 60000) === 'done', `the ordinal fit failed: ${(await mirrorResult(page)).error}`);
    await settle(page, 8);
    await page.screenshot({ path: join(ARTIFACTS, '93-journey-ordinal.png') });
    check(await published(page, 'note:loss'), 'an exact fit with no steps draws an empty loss chart, not its one-line note');
    await clickControl(page, 'model:draws-out');

    // A truncated .zst: read in part, where it stopped and what was kept (item 7).
    await watchStates(page);
    await dropFiles(page, [{ name: 'cut.pgn.zst', bytes: TRUNCATED_ZST() }]);
    check(await waitForReadEnd(page, 60000) === 'done', `the truncated file did not fit: ${(await mirrorResult(page)).error}`);
    const cut = await mirrorResult(page);
    check(/read only in part: cut\.pgn\.zst: truncated zstd data: .* at byte \d+; read up to there: its first \d+ games/.test(cut.error || ''),
      `message: ${cut.error}`);
    check(!/were not read/.test(cut.error), `listed as not read: ${cut.error}`);
    await settle(page, 4);
    await page.screenshot({ path: join(ARTIFACTS, '93b-journey-read-in-part.png') });

    // Compare by speed on games of one speed: it says so (item 2).
    await clickControl(page, 'compare:speeds');
    await watchStates(page);
    await clickControl(page, 'Apply filters');  // the kept file, read again by speed
    check(await waitForReadEnd(page, 60000) === 'done', `by speed: ${(await mirrorResult(page)).error}`);
    await watchStates(page);
    await dropFiles(page, [{ name: 'bullet-only.pgn', text: bulletOnly() }]);
    check(await waitForReadEnd(page, 60000) === 'done', `the comparison failed: ${(await mirrorResult(page)).error}`);
    await settle(page, 6);
    await page.screenshot({ path: join(ARTIFACTS, '94-journey-one-speed.png') });
    const speeds = await mirrorResult(page);
    check(await published(page, 'note:comparison'),
      `no word that the comparison found one speed: fits ${JSON.stringify((speeds.fits || []).map((f) => f.name))}`);

    // A share link of local files names them (item 5); Reset returns to the preset (item 1).
    const link = await copyShareLink(page);
    check(link.includes('file=bullet-only.pgn'), `link ${link}`);
    await clickButton(page, 'Reset');
    await page.waitForFunction(() => {
      const r = JSON.parse(document.getElementById('materialist-status').dataset.result);
      return r.settings && r.settings.datasets === 'merge' && !(r.settings.eachFilter || []).length;
    }, null, { timeout: 10000 });
    check(await page.evaluate(() => location.hash) === '', `Reset left the address at ${await page.evaluate(() => location.href)}`);
    check(problems.length === 0, problems.join('\n'));
    await context.close();

    // The link, opened: which file to drop, no player's title; the sample there reads, and back.
    const opened = await openPage(baseUrl, { hash: new URL(link).hash });
    await settle(opened.page, 8);
    const at = await mirrorResult(opened.page);
    check(JSON.stringify(at.linkFiles) === '["bullet-only.pgn"]', `linkFiles ${JSON.stringify(at.linkFiles)}`);
    await opened.page.screenshot({ path: join(ARTIFACTS, '95-journey-link-of-local-file.png') });
    await watchStates(opened.page);
    await dropFiles(opened.page, [{ name: 'bullet-only.pgn', text: bulletOnly() }]);
    check(await waitForReadEnd(opened.page, 60000) === 'done', 'the link\'s file did not fit');
    await clickButton(opened.page, 'Reset');
    check(await loadSample(opened.page) === 'done', `the sample after Reset: ${(await mirrorResult(opened.page)).error}`);
    check((await mirrorResult(opened.page)).games === 2997, 'the sample after Reset is not whole');
    check(opened.problems.length === 0, opened.problems.join('\n'));
    await opened.context.close();
  } finally {
    await context.close().catch(() => {});
  }
});

test('journey: Reset clears the address, so that a reload starts from the preset, not the link (issue 50, item 8)', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl,
    { hash: '#preset=custom&solver=newton&draws=half&units=elo&sample' });
  try {
    check(await waitForState(page, ['done', 'error']) === 'done', `the link's sample: ${(await mirrorResult(page)).error}`);
    const custom = (await mirrorResult(page)).settings;
    check(custom.solver === 'newton' && custom.units === 'elo', `the link's settings: ${JSON.stringify(custom)}`);
    await clickButton(page, 'Reset');
    await page.waitForFunction(() => location.hash === '', null, { timeout: 10000 })
      .catch(() => {});
    check(await page.evaluate(() => location.hash) === '', `after Reset the address is ${await page.evaluate(() => location.href)}`);
    await page.reload();
    await settle(page, 8);
    const reloaded = await mirrorResult(page);
    check(reloaded.settings?.solver !== 'newton' && reloaded.settings?.units !== 'elo' && !reloaded.games,
      `the reload after Reset brought back ${JSON.stringify(reloaded.settings)} (games ${reloaded.games})`);
    await page.screenshot({ path: join(ARTIFACTS, '96-journey-reload-after-reset.png') });
    check(problems.length === 0, problems.join('\n'));
  } finally {
    await context.close().catch(() => {});
  }
});

// A player's own file: the lichess-100 fixture with every White renamed "bob".
const bobsGames = () => readFileSync(join(FIXTURES, 'lichess-100.pgn'), 'utf8').replace(/\[White "[^"]*"\]/g, '[White "bob"]');

test('journey: Load sample on a link made from a player\'s file leaves the player\'s filter out, and says so', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl);
  await typeInto(page, 'filter:player', 'bob');
  await clickControl(page, 'filter:pov');
  await clickControl(page, 'Apply filters');
  await watchStates(page);
  await dropFiles(page, [{ name: 'bob.pgn', text: bobsGames() }]);
  check(await waitForReadEnd(page, 60000) === 'done', `bob.pgn did not fit: ${(await mirrorResult(page)).error}`);
  const link = await copyShareLink(page);
  check(link.includes('file=bob.pgn') && /player%3Dbob/.test(link), `link ${link}`);
  check(problems.length === 0, problems.join('\n'));
  await context.close();

  const opened = await openPage(baseUrl, { hash: new URL(link).hash });
  await settle(opened.page, 8);
  check(JSON.stringify((await mirrorResult(opened.page)).linkFiles) === '["bob.pgn"]', 'the link does not name its file');
  await watchStates(opened.page);
  await clickButton(opened.page, 'Load sample');
  await settle(opened.page, 3);
  check(await published(opened.page, 'toast'), 'no toast on what Load sample left out');
  await opened.page.screenshot({ path: join(ARTIFACTS, '96-journey-link-then-sample.png') });
  check(await waitForReadEnd(opened.page, 90000) === 'done', `the sample: ${(await mirrorResult(opened.page)).error}`);
  const sample = await mirrorResult(opened.page);
  check(sample.games === 2997 && !sample.filtered, `the sample under the link: ${sample.games} games, ${sample.filtered} filtered`);
  check(!String((sample.settings || {}).filter || '').includes('player='), `the filter stayed: ${JSON.stringify(sample.settings)}`);
  check(!(sample.settings.model && sample.settings.model.splitSides), 'the player\'s model stayed');
  check(opened.problems.length === 0, opened.problems.join('\n'));
  await opened.context.close();
});

test('journey: phone, laptop and wide screen: every control inside the screen', async ({ baseUrl }) => {
  const tableHeights = {};
  for (const [name, width, height, touch] of [['phone', 390, 844, true], ['small', 360, 740, true], ['laptop', 1400, 900, false], ['wide', 2560, 1440, false]]) {
    const { context, page, problems } = await openPage(baseUrl, { hash: '#sample', width, height, touch });
    try {
      await settle(page, 6);
      check(await waitForState(page, ['done', 'error'], 90000) === 'done', `${name}: the sample did not fit`);
      await settle(page, 8);
      await page.screenshot({ path: join(ARTIFACTS, `97-journey-${name}-sample.png`) });
      await checkInsideWidth(page, name);
      tableHeights[name] = (await published(page, 'values:col0') || {}).height;
      // The settings, open, scrolled to the Read group.
      await clickControl(page, 'bootstrap:500');
      await settle(page, 4);
      await page.screenshot({ path: join(ARTIFACTS, `98-journey-${name}-settings.png`) });
      await checkInsideWidth(page, `${name}, settings`);
      if (name === 'phone') {  // the end of the column: the data's rows and the exports
        const column = await published(page, 'panel:scroll');
        await page.mouse.move(column.x + column.width / 2, column.y + column.height / 2);
        for (let i = 0; i < 8; ++i) await page.mouse.wheel(0, 3000);
        await settle(page, 6);
        await page.screenshot({ path: join(ARTIFACTS, '98b-journey-phone-bottom.png') });
        await checkInsideWidth(page, 'phone, bottom');
      }
      // Back to a cold page: the drop zone, its text inside it, over nothing.
      await clickButton(page, 'Reset');
      await settle(page, 4);
      const panel = await published(page, 'panel:scroll');
      await page.mouse.move(panel.x + panel.width / 2, panel.y + panel.height / 2);
      for (let i = 0; i < 6; ++i) await page.mouse.wheel(0, -3000);  // to the top: the drop zone
      await settle(page, 6);
      await page.screenshot({ path: join(ARTIFACTS, `99-journey-${name}-reset.png`) });
      check(problems.length === 0, problems.join('\n'));
    } finally {
      await context.close();
    }
  }
  // The values table is as tall as its rows on a touch screen too (its header is a line of text,
  // not a touch-sized frame): no gap under it, only its sideways scroll bar.
  console.log(`      values table heights: ${JSON.stringify(tableHeights)}`);
  check(tableHeights.phone > 0 && tableHeights.phone <= tableHeights.laptop + 20,
    `the phone's values table is ${tableHeights.phone} px tall, the laptop's ${tableHeights.laptop}`);
});
