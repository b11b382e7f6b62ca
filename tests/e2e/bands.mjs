// End-to-end tests: values by rating band. The settings' "Compare: by rating band (200)" preset
// on the lichess sample, the chart's layout contract (each band's label and games under it, none
// overlapping), a phone-size view restored from a share link, and screenshots of both; a link's
// comparison the engine cannot make, and the engine's one error shape from every fallible call.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ARTIFACTS, FIXTURES, check, clickButton, clickControl, dropFiles, mirrorResult, openPage, settle, test,
  waitForReadEnd, waitForState, watchStates,
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

// The engine's one error shape (web/engine-reply.js): a comparison it cannot make is said in the
// banner, never dropped silently, and the rest of the link (the sample) still applies.
test('a share link\'s comparison the engine cannot make is said; the rest of the link applies', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl, { hash: '#compare=elo:abc&sample' });
  check(await waitForState(page, ['done', 'error']) === 'done', 'the sample did not fit');
  const result = await mirrorResult(page);
  check(/^The share link's comparison could not be made: compare=elo:abc: .*width/.test(result.error || ''),
    `error: ${result.error}`);
  check(result.used === 2997 && !(result.fits && result.fits.length > 1), `used ${result.used}, ${(result.fits || []).length} fits`);
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

// Every fallible call of the WebAssembly Engine, given what it cannot read, answers the one error
// shape that web/engine-reply.js decodes ({type: 'error', code, message}), never defaults; and
// {} or its result when it can. Run in a worker of the page, as the engine worker runs it.
test('the engine\'s face: settings it cannot read are one error shape from every call, never defaults', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl);
  const replies = await page.evaluate(async (base) => {
    const source = `
      importScripts('${base}/materialist-engine.js', '${base}/engine-reply.js');
      createMaterialistEngine({ locateFile: (file) => '${base}/' + file }).then((wasm) => {
        const engine = new wasm.Engine();
        const badFit = JSON.stringify({ solver: 'simplex' });
        const badRead = JSON.stringify({ quiet: { plies: 'many' } });
        const calls = {
          beginRead: () => engine.beginRead(badRead),
          beginFit: () => engine.beginFit(badFit),
          compareTargets: () => engine.compareTargets(badFit),
          estimateWith: () => engine.estimateWith([], badFit),
          fitSquares: () => engine.fitSquares(badFit),
          fitSquaresLive: () => engine.fitSquaresLive([], badFit),
          setUnits: () => engine.setUnits('furlongs'),
          bandFilters: () => engine.bandFilters('elo:abc', ''),
          beginReadGood: () => engine.beginRead('{}'),
          setUnitsGood: () => engine.setUnits('elo'),
          bandFiltersGood: () => engine.bandFilters('elo:500', ''),
        };
        const out = {};
        for (const [name, call] of Object.entries(calls)) out[name] = engineReply(call());
        postMessage(out);
      });`;
    const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
    const answer = await new Promise((resolve, reject) => {
      worker.onmessage = (event) => resolve(event.data);
      worker.onerror = (event) => reject(new Error(event.message));
    });
    worker.terminate();
    return answer;
  }, baseUrl);
  for (const name of ['beginRead', 'beginFit', 'compareTargets', 'estimateWith', 'fitSquares', 'fitSquaresLive',
    'setUnits', 'bandFilters']) {
    const { value, error } = replies[name];
    check(value === null && error && error.type === 'error' && typeof error.code === 'string' && error.code !== 'ok' &&
      typeof error.message === 'string' && error.message.length > 0, `${name}: ${JSON.stringify(replies[name])}`);
  }
  check(/^read options: .*quiet/.test(replies.beginRead.error.message), `beginRead: ${replies.beginRead.error.message}`);
  check(/^fit settings: .*solver/.test(replies.beginFit.error.message), `beginFit: ${replies.beginFit.error.message}`);
  check(/furlongs/.test(replies.setUnits.error.message), `setUnits: ${replies.setUnits.error.message}`);
  check(replies.beginReadGood.error === null && JSON.stringify(replies.beginReadGood.value) === '{}',
    `beginRead('{}'): ${JSON.stringify(replies.beginReadGood)}`);
  check(replies.setUnitsGood.error === null, `setUnits('elo'): ${JSON.stringify(replies.setUnitsGood)}`);
  check(Array.isArray(replies.bandFiltersGood.value) && replies.bandFiltersGood.value.length > 1,
    `bandFilters('elo:500'): ${JSON.stringify(replies.bandFiltersGood)}`);
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});
