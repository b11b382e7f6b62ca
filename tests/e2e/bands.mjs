// End-to-end tests: values by rating band. The settings' "Compare: by rating band (200)" preset
// on the lichess sample, the chart's layout contract (each band's label and games under it, none
// overlapping), a phone-size view restored from a share link, and screenshots of both.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ARTIFACTS, FIXTURES, check, clickButton, clickControl, dropFiles, mirrorResult, openPage, settle, test,
  waitForReadEnd, watchStates,
} from './harness.mjs';

const LICHESS = () => readFileSync(join(FIXTURES, 'lichess-2021-10-first999.pgn'), 'utf8');

// The chart's published rectangles: the plot, and per band its label and games.
async function bandLayout(page) {
  const buttons = await page.evaluate(() => window.materialist.ui.buttons);
  const bands = [];
  for (let i = 0; buttons[`bands:label:${i}`]; ++i) {
    bands.push({ label: buttons[`bands:label:${i}`], games: buttons[`bands:games:${i}`] });
  }
  return { plot: buttons['bands:plot'], bands };
}

const overlaps = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

// Every band with games has its label and games count under the plot, left to right, none
// overlapping another, none outside the plot's width.
function checkBandLayout(layout, fits, where) {
  check(layout.plot, `${where}: no band chart`);
  check(layout.bands.length === fits.length,
    `${where}: ${layout.bands.length} bands drawn, ${fits.length} datasets with games`);
  const texts = layout.bands.flatMap((b) => [b.label, b.games]);
  for (let i = 0; i < texts.length; ++i) {
    const t = texts[i];
    check(t.width > 0 && t.y >= layout.plot.y + layout.plot.height - 1, `${where}: text ${i} not under the plot`);
    check(t.x >= layout.plot.x - 30 && t.x + t.width <= layout.plot.x + layout.plot.width + 30,
      `${where}: text ${i} outside the plot (${JSON.stringify(t)})`);
    for (let j = i + 1; j < texts.length; ++j) {
      check(!overlaps(t, texts[j]), `${where}: texts ${i} and ${j} overlap`);
    }
  }
  for (let i = 1; i < layout.bands.length; ++i) {
    check(layout.bands[i].label.x > layout.bands[i - 1].label.x, `${where}: bands out of order`);
  }
}

test('values by rating band: the chart of the lichess sample, each band with its games', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl);
  await clickControl(page, 'Preset');
  await clickButton(page, 'preset:exact');  // exact fits (Newton), draws as half points
  await clickControl(page, 'compare:elo-bands');
  await clickControl(page, 'Apply filters');  // no data yet: the worker keeps the settings
  await watchStates(page);
  await dropFiles(page, [{ name: 'lichess-999.pgn', text: LICHESS() }]);
  check(await waitForReadEnd(page, 120000) === 'done', 'the bands did not fit');
  await settle(page, 10);
  const result = await mirrorResult(page);
  check(result.solver === 'newton', `solver ${result.solver}`);
  const fits = result.fits || [];
  check(fits.length >= 6, `fits: ${fits.map((f) => f.name)}`);
  check(fits.every((f) => /elo_mode=average/.test(f.name) && f.used > 0), `fits: ${fits.map((f) => `${f.name} ${f.used}`)}`);
  check(fits.reduce((sum, f) => sum + f.used, 0) === result.used,
    `the bands hold ${fits.reduce((sum, f) => sum + f.used, 0)} games, the sample ${result.used}`);
  const middle = fits.find((f) => f.name.startsWith('elo=1800-1999;'));
  check(middle && middle.values.N > 0 && middle.standardErrors.N > 0, `1800-1999: ${JSON.stringify(middle)}`);
  checkBandLayout(await bandLayout(page), fits, '1400x900');
  await page.screenshot({ path: join(ARTIFACTS, '60-bands-1400.png') });

  // The share link holds the bands; a phone opening it reads them the same way.
  await clickControl(page, 'Copy share link');
  const link = await page.waitForFunction(() => {
    const r = JSON.parse(document.getElementById('materialist-status').dataset.result);
    return r.shareLink;
  }, null, { timeout: 10000 }).then((h) => h.jsonValue());
  check(link.includes('compare=elo:200') && !link.includes('eachFilter') && link.includes('preset=exact'), `share link ${link}`);
  await context.close();

  const phone = await openPage(baseUrl, { hash: new URL(link).hash, width: 390, height: 844 });
  await watchStates(phone.page);
  await dropFiles(phone.page, [{ name: 'lichess-999.pgn', text: LICHESS() }]);
  check(await waitForReadEnd(phone.page, 120000) === 'done', 'the phone did not fit the bands');
  await settle(phone.page, 10);
  const phoneFits = (await mirrorResult(phone.page)).fits || [];
  check(JSON.stringify(phoneFits.map((f) => f.used)) === JSON.stringify(fits.map((f) => f.used)),
    'the link did not restore the same bands');
  // Scroll the one column until the chart and the texts under it are in view.
  for (let i = 0; i < 40; ++i) {
    const { plot, bands } = await bandLayout(phone.page);
    const column = await phone.page.evaluate(() => window.materialist.ui.buttons['panel:scroll']);
    const bottom = Math.max(...bands.map((b) => b.games.y + b.games.height));
    if (plot && plot.y >= column.y && bottom + 30 <= column.y + column.height) break;
    await phone.page.mouse.move(195, column.y + column.height / 2);
    await phone.page.mouse.wheel(0, plot && plot.y < column.y ? -100 : 100);
    await settle(phone.page, 3);
  }
  checkBandLayout(await bandLayout(phone.page), phoneFits, '390x844');
  await phone.page.screenshot({ path: join(ARTIFACTS, '61-bands-phone.png') });
  check(problems.length === 0, problems.join('\n'));
  check(phone.problems.length === 0, phone.problems.join('\n'));
  await phone.context.close();
});

test('values by speed: one band per speed class of the lichess sample, named by its class', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl);
  await clickControl(page, 'Preset');
  await clickButton(page, 'preset:exact');
  await clickControl(page, 'compare:speeds');
  await clickControl(page, 'Apply filters');
  await watchStates(page);
  await dropFiles(page, [{ name: 'lichess-999.pgn', text: LICHESS() }]);
  check(await waitForReadEnd(page, 120000) === 'done', 'the speeds did not fit');
  await settle(page, 10);
  const fits = (await mirrorResult(page)).fits || [];
  // The sample has ultrabullet to classical games; no correspondence, every time control known.
  check(JSON.stringify(fits.map((f) => f.name)) ===
    JSON.stringify(['tc=ultrabullet', 'tc=bullet', 'tc=blitz', 'tc=rapid', 'tc=classical']),
  `fits: ${fits.map((f) => f.name)}`);
  checkBandLayout(await bandLayout(page), fits, 'speeds 1400x900');
  const status = await page.$eval('#materialist-status', (e) => e.textContent);
  check(status.includes('blitz: P 100'), `the status line does not name the speeds: ${status}`);
  await page.screenshot({ path: join(ARTIFACTS, '62-speeds-1400.png') });
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});
