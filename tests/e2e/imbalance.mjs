// End-to-end tests: the imbalance terms. A term switched on in the Fit panel reads the sample
// again (the row keys then keep each side's counts), is fitted, and appears named with its unit
// in the values table's fit, the CSV and JSON exports, the C++ header and the share link.
import { join } from 'node:path';
import {
  ARTIFACTS, check, clickControl, mirrorResult, openPage, saveDownload, settle, test, waitForState,
} from './harness.mjs';

test('an imbalance term: switched on, fitted on the sample, in the values table and the exports', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl, { hash: '#sample' });
  check(await waitForState(page, ['done', 'error']) === 'done', 'the sample did not fit');
  await clickControl(page, 'model:imbalance:knight-pawns');
  // The sample is read again (its keys lacked the counts), then fitted with the term.
  await page.waitForFunction(() => {
    const r = JSON.parse(document.getElementById('materialist-status').dataset.result);
    return r.fits && r.fits[0] && r.fits[0].coefficients.includes('knight-pawns');
  }, null, { timeout: 90000 });
  check(await waitForState(page, ['done', 'error'], 90000) === 'done', 'the fit with the term did not finish');
  await settle(page);
  await page.screenshot({ path: join(ARTIFACTS, '81-imbalance-checkboxes.png') });  // the Fit panel
  const fit = (await mirrorResult(page)).fits[0];
  check(fit.coefficients.filter((c) => c === 'knight-pawns').length === 1, `coefficients: ${fit.coefficients}`);
  check(!fit.coefficients.includes('rook-pawns'), `only the term asked for: ${fit.coefficients}`);
  // The values table lists it (its columns are published while it is drawn).
  const table = await page.evaluate(() => Object.keys(window.materialist.ui.buttons).filter((k) => k.startsWith('values:col')));
  check(table.length >= 2, `the values table is not drawn: ${table}`);

  const csv = (await saveDownload(page, 'Values CSV', false)).text;
  const rows = csv.split('\n').filter((line) => line.includes(',knight-pawns,'));
  check(rows.length === 1 && rows[0].includes('"Knight per own pawn (per knight per pawn beyond 5)"') &&
    rows[0].split(',')[5] !== '', `CSV knight-pawns rows: ${rows}`);
  const json = JSON.parse((await saveDownload(page, 'Values JSON', false)).text);
  const terms = json.fits[0].coefficients.filter((c) => c.name === 'knight-pawns');
  check(terms.length === 1 && Number.isFinite(terms[0].value) && terms[0].valueSe > 0,
    `JSON knight-pawns: ${JSON.stringify(terms)}`);
  const code = (await saveDownload(page, 'Copy as code')).text;
  check(/kKnightPawns = -?\d+;\s+\/\/ Knight per own pawn \(per knight per pawn beyond 5\)/.test(code),
    `the code lacks the term:\n${code}`);
  check(code.includes('imbalance terms knight-pawns'), `the code's model line lacks the term:\n${code}`);

  await clickControl(page, 'Copy share link');
  await page.waitForFunction(() => location.hash.includes('model.imbalance='), null, { timeout: 10000 });
  const link = await page.evaluate(() => location.hash);
  check(link.includes('model.imbalance=knight-pawns'), `share link ${link}`);
  await settle(page);
  await page.screenshot({ path: join(ARTIFACTS, '80-imbalance-term.png') });
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('a share link with an imbalance term restores it and fits it', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl,
    { hash: '#sample&preset=exact&model.imbalance=rook-pawns,rook-pair' });
  check(await waitForState(page, ['done', 'error'], 90000) === 'done', 'the linked fit did not finish');
  const fit = (await mirrorResult(page)).fits[0];
  check(fit.coefficients.includes('rook-pawns') && fit.coefficients.includes('rook-pair') &&
    !fit.coefficients.includes('knight-pawns'), `coefficients: ${fit.coefficients}`);
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('own against opponents\' pieces: a player\'s link fits them apart and draws the sides table', async ({ baseUrl }) => {
  const filter = encodeURIComponent('player=Booot*;pov=1');
  const { context, page, problems } = await openPage(baseUrl,
    { hash: `#sample&preset=exact&filter=${filter}&model.splitSides=true` });
  check(await waitForState(page, ['done', 'error'], 90000) === 'done', 'the split-sides fit did not finish');
  const fit = (await mirrorResult(page)).fits[0];
  check(fit.coefficients.includes('own-knight') && fit.coefficients.includes('opponent-knight') &&
    !fit.coefficients.includes('knight'), `coefficients: ${fit.coefficients}`);
  await page.waitForFunction(() => Boolean(window.materialist.ui.buttons['sides:col4']), null, { timeout: 10000 });
  const json = JSON.parse((await saveDownload(page, 'Values JSON', false)).text);
  const sides = json.fits[0].sides || [];
  check(sides.length === 5 && sides.every((s) => typeof s.p === 'number' && s.differenceSe > 0
    && s.differenceThetaSe > 0 && Math.abs(s.differenceTheta - (s.ownTheta - s.opponentTheta)) < 1e-9),
    `Values JSON sides: ${JSON.stringify(sides)}`);
  await settle(page);
  await page.screenshot({ path: join(ARTIFACTS, '82-own-vs-opponent.png') });
  // The table follows the units (its title names them): Elo, from the log-odds sent.
  await clickControl(page, 'units:elo');
  await settle(page);
  await page.screenshot({ path: join(ARTIFACTS, '82-own-vs-opponent-elo.png') });
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});
