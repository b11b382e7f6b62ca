// End-to-end tests: results. Every export (.mat rows, values CSV and JSON, PNG, analysis JSON
// with provenance, values as code); honest results: three datasets each with its own values,
// Refit keeping λ, a degenerate file's warning, the ordinal draw margin once with its error; the
// canvas at devicePixelRatio 2 and through resizes.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ARTIFACTS, FIXTURES, REPO, check, checkArticleValues, clickButton, clickControl, dropFiles,
  mirrorResult, openPage, saveDownload, settle, test, waitForFitEnd, waitForState, watchStates,
} from './harness.mjs';

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
  await clickControl(page, 'Settings');  // folds the settings: the results alone
  await settle(page);
  await page.screenshot({ path: join(ARTIFACTS, '17-three-datasets.png') });
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('Refit keeps λ = 1e-6 exactly and the article\'s values', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl, { hash: '#sample' });
  check(await waitForState(page, ['done', 'error']) === 'done', 'the sample did not fit');
  const before = (await mirrorResult(page)).values;
  await watchStates(page);  // the sample's own 'done' is still on the mirror after the click
  await clickControl(page, 'Refit');  // in the settings panel: scrolled into view
  check(await waitForFitEnd(page, 90000) === 'done', 'the refit did not finish');
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

// Three decisive games and 300 draws: too few decisive games for the article's model.
function degenerateText() {
  let text = '';
  for (const result of ['1-0', '0-1', '1-0']) {
    text += `[Result "${result}"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O ${result}\n\n`;
  }
  for (let i = 0; i < 300; ++i) text += '[Result "1/2-1/2"]\n\n1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 1/2-1/2\n\n';
  return text;
}

test('a degenerate file shows its warning, not "Fitted"', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl);
  const text = degenerateText();
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

test('on a phone a fit\'s warning wraps within the screen, never cut at its edge', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl, { width: 390, height: 844, touch: true });
  await dropFiles(page, [{ name: 'draws.pgn', text: degenerateText() }]);
  check(await waitForState(page, ['done', 'error'], 60000) === 'done', 'the degenerate file did not end');
  await settle(page, 6);
  const [warning, panel] = await page.evaluate(() => ['warning:0', 'panel:scroll'].map((l) => window.materialist.ui.buttons[l]));
  check(warning && panel, `no warning under the values: ${JSON.stringify(warning)}`);
  check(warning.x >= panel.x && warning.x + warning.width <= panel.x + panel.width,
    `the warning ${JSON.stringify(warning)} runs past the column ${JSON.stringify(panel)}`);
  // Its text is longer than a line: it takes several.
  const line = await page.evaluate(() => window.materialist.ui.buttons['Load sample'].height);
  check(warning.height > 25, `the warning is one line high (${warning.height} px; a button ${line} px): cut, not wrapped`);
  await page.screenshot({ path: join(ARTIFACTS, '18-degenerate-warning-phone.png') });
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
  await clickControl(page, 'Settings');  // folds the settings: the results alone
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
