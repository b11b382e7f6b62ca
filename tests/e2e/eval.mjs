// End-to-end tests: the evaluation target. Chosen in Settings (Read), the lichess sample's
// positions that carry an [%eval] are read; the counts and values equal the command-line tool's on
// the same file (build/native/materialist); "Result vs evaluation" fits both targets on the same
// positions; every export and the share link carry the target; a file without any [%eval] says
// what to do, and the models the target refuses say why; a .mstats made for it sets the Target
// control, and the status line and the outcome chart name it.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ARTIFACTS, FIXTURES, REPO, check, clickButton, clickControl, copyShareLink, dropFiles, mirrorResult, openPage,
  saveDownload, settle, test, waitForReadEnd, waitForState, watchStates,
} from './harness.mjs';
import { startServicesStub } from './services-stub.mjs';

const CLI = join(REPO, 'build/native/materialist');
const LICHESS = 'lichess-2021-10-first999.pgn';  // 96 of its 999 games carry [%eval]
const lichessText = () => readFileSync(join(FIXTURES, LICHESS), 'utf8');

// The command-line tool's JSON on the lichess sample, with the page's default preset.
function cliJson(args) {
  check(existsSync(CLI), `${CLI} is missing: build the native tool first (cmake --build build/native)`);
  return JSON.parse(execFileSync(CLI, [...args, '--preset', 'article', '--json', join(FIXTURES, LICHESS)],
    { encoding: 'utf8' }));
}

// Picks the evaluation target in Settings (Read) and applies it (no data yet: the worker keeps
// it), unless the page was opened with it (#target=eval); drops the lichess sample and resolves
// when it is read and fitted.
async function readWithEvaluations(page, { click = true } = {}) {
  if (click) {
    await clickControl(page, 'target:eval');
    await clickControl(page, 'Apply filters');
  }
  await watchStates(page);
  await dropFiles(page, [{ name: LICHESS, text: lichessText() }]);
  check(await waitForReadEnd(page, 60000) === 'done', `the eval read failed: ${(await mirrorResult(page)).error}`);
  await settle(page, 4);
}

// Clicks "Result vs evaluation" (under the values; on a phone, in its one scrolling column) and
// resolves with the comparison the worker sent back (the pointer then leaves the button, whose
// tooltip would cover the window).
async function compareTargets(page, { phone = false } = {}) {
  if (phone) await clickControl(page, 'compare-targets');
  else await clickButton(page, 'compare-targets');
  const handle = await page.waitForFunction(() => {
    const r = JSON.parse(document.getElementById('materialist-status').dataset.result);
    return r.targetCompare || null;
  }, null, { timeout: 20000 });
  await page.mouse.move(1, 1);
  await settle(page, 4);
  return handle.jsonValue();
}

// Scrolls the page's one column (a phone) back to its top: the values and the counts.
async function scrollToTop(page) {
  const panel = await page.evaluate(() => window.materialist.ui.buttons['panel:scroll']);
  await page.mouse.move(panel.x + panel.width / 2, panel.y + panel.height / 2);
  for (let i = 0; i < 4; ++i) await page.mouse.wheel(0, -5000);
  await settle(page, 6);
}

const PIECES = ['P', 'N', 'B', 'R', 'Q'];

test('evaluation target: the lichess sample\'s counts and values equal the CLI\'s; every export names it', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl, { query: '?estimateMs=20' });
  const cli = cliJson(['fit', '--target', 'eval']);
  await readWithEvaluations(page);
  const r = await mirrorResult(page);
  check(r.target === 'eval' && r.settings.target === 'eval', `target ${r.target}, settings ${r.settings.target}`);
  check(r.rows === cli.rows, `rows (annotated positions): page ${r.rows}, CLI ${cli.rows}`);
  const e = r.evaluations || {};
  check(e.gamesWithEvals === cli.evaluations.gamesWithEvaluations && e.gamesWithEvals === 96 &&
    e.gamesWithoutEvals === cli.evaluations.gamesWithoutEvaluations &&
    e.unannotatedRows === cli.evaluations.unannotatedPositions,
  `counts: page ${JSON.stringify(e)}, CLI ${JSON.stringify(cli.evaluations)}`);
  for (const piece of PIECES) {
    check(Math.abs(r.values[piece] - cli.values[piece]) < 0.01,
      `${piece}: page ${r.values[piece]}, CLI ${cli.values[piece]}`);
  }
  // Live estimates while reading fitted the annotated positions read so far.
  check(r.estimates >= 1 && r.estimate && r.estimate.rows > 0 && r.estimate.rows <= cli.rows,
    `estimates: ${r.estimates}, last ${JSON.stringify(r.estimate)}`);
  const status = await page.$eval('#materialist-status', (el) => el.textContent);
  check(/^Fitted to engine evaluations/.test(status), `the status line does not name the target: ${status}`);
  await page.screenshot({ path: join(ARTIFACTS, '84-eval-target.png') });

  const csv = (await saveDownload(page, 'Values CSV', false)).text.trim().split('\n');
  check(csv[0].endsWith(',target') && csv.length > 5 && csv.slice(1).every((line) => line.endsWith(',eval')),
    `CSV:\n${csv.join('\n')}`);
  const values = JSON.parse((await saveDownload(page, 'Values JSON', false)).text);
  check(values.target === 'eval' && values.settings.target === 'eval', `Values JSON target ${values.target}`);
  const analysis = JSON.parse((await saveDownload(page, 'Analysis JSON')).text);
  check(analysis.target === 'eval' && analysis.settings.target === 'eval', `Analysis JSON target ${analysis.target}`);
  const code = (await saveDownload(page, 'Copy as code')).text;
  check(code.includes('// target: the engine\'s evaluation'), `the C++ header does not name the target:\n${code}`);
  const link = await copyShareLink(page);
  check(link.includes('target=eval') && link.includes(`file=${LICHESS}`), `share link ${link}`);
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('evaluation target: the share link restores it, and the dropped file is read for it', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl, { hash: `#target=eval&file=${LICHESS}` });
  await settle(page, 6);
  const at = await mirrorResult(page);
  check(at.settings && at.settings.target === 'eval', `restored settings ${JSON.stringify(at.settings)}`);
  await watchStates(page);
  await dropFiles(page, [{ name: LICHESS, text: lichessText() }]);
  check(await waitForReadEnd(page, 60000) === 'done', `the link's read failed: ${(await mirrorResult(page)).error}`);
  const r = await mirrorResult(page);
  check(r.target === 'eval' && r.evaluations && r.evaluations.gamesWithEvals === 96, `report ${JSON.stringify(r.evaluations)}`);
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('result vs evaluation: both targets on the same positions, as the CLI\'s compare --targets', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl, { hash: '#target=eval' });
  const cli = cliJson(['compare', '--targets', 'result,eval']);
  await readWithEvaluations(page, { click: false });
  const both = await compareTargets(page);
  check(!both.error, `comparison error: ${both.error}`);
  check(both.positions === cli.rows && both.games === 96 && both.outcomes === cli.outcomes,
    `positions ${both.positions}, games ${both.games}, outcomes ${both.outcomes}; CLI ${cli.rows}, ${cli.outcomes}`);
  check(both.rows.length === cli.coefficients.length, `rows ${both.rows.length}, CLI ${cli.coefficients.length}`);
  for (const [i, c] of cli.coefficients.entries()) {
    const row = both.rows[i];
    check(row.name === c.name && row.identified === (c.result.identified && c.eval.identified),
      `${c.name}: page ${row.name} identified ${row.identified}`);
    check(Math.abs(row.evalTheta - c.eval.theta) < 1e-4 && Math.abs(row.resultTheta - c.result.theta) < 1e-4,
      `${c.name} θ: page ${row.resultTheta}, ${row.evalTheta}; CLI ${c.result.theta}, ${c.eval.theta}`);
    check(Math.abs(row.thetaDifferenceSe - c.thetaDifference.se) < 1e-4,
      `${c.name} θ difference se: page ${row.thetaDifferenceSe}, CLI ${c.thetaDifference.se}`);
  }
  await page.waitForFunction(() => Boolean(window.materialist.ui.buttons['target-compare:col3']), null, { timeout: 10000 });
  await page.screenshot({ path: join(ARTIFACTS, '85-result-vs-evaluation.png') });
  await clickButton(page, 'target-compare:close');

  // A model the target refuses says why, in the Fit panel and in the error.
  await clickControl(page, 'model:ordinal');
  await page.waitForFunction(() => /ordinal/.test(JSON.parse(document.getElementById('materialist-status').dataset.result).error || ''),
    null, { timeout: 20000 });
  await settle(page, 4);
  await page.screenshot({ path: join(ARTIFACTS, '86-eval-refuses-ordinal.png') });
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('evaluation target on a phone: the counts, the side-by-side window', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl, { hash: '#target=eval', width: 390, height: 844, touch: true });
  await readWithEvaluations(page, { click: false });
  await scrollToTop(page);
  await page.screenshot({ path: join(ARTIFACTS, '87-eval-phone.png') });
  const both = await compareTargets(page, { phone: true });
  check(!both.error && both.rows.length >= 5, `comparison: ${JSON.stringify(both)}`);
  await page.waitForFunction(() => Boolean(window.materialist.ui.buttons['target-compare:col3']), null, { timeout: 10000 });
  const columns = await page.evaluate(() => [0, 1, 2, 3].map((i) => window.materialist.ui.buttons[`target-compare:col${i}`]));
  check(columns.every((c) => c.width > 40 && c.x + c.width <= 391), `columns ${JSON.stringify(columns)}`);
  await page.screenshot({ path: join(ARTIFACTS, '87-result-vs-evaluation-phone.png') });
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('evaluation target on a file without any [%eval]: it says what to do', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl, { hash: '#sample&target=eval' });
  check(await waitForState(page, ['done', 'error'], 60000) === 'error', 'the sample without evaluations did not fail');
  const r = await mirrorResult(page);
  check(/none of the 2,?997 games carries an engine evaluation/.test(r.error || '') && /evals=true/.test(r.error || ''),
    `message: ${r.error}`);
  await settle(page, 4);
  await page.screenshot({ path: join(ARTIFACTS, '88-eval-no-evaluations.png') });
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('evaluation target on a truncated .zst without [%eval]: the games\' refusal is the cause', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl, { hash: '#target=eval' });
  await watchStates(page);
  const bytes = [...readFileSync(join(REPO, 'tests/fixtures/archive/lichess-first30-truncated.pgn.zst'))];
  await dropFiles(page, [{ name: 'cut.pgn.zst', bytes }]);
  check(await waitForState(page, ['done', 'error'], 60000) === 'error', 'games without evaluations were fitted');
  const r = await mirrorResult(page);
  check(/^Nothing to learn from: none of the 20 games carries an engine evaluation/.test(r.error || ''), `the cause given: ${r.error}`);
  check(/\(and cut\.pgn\.zst: truncated zstd data/.test(r.error || ''), `the truncation is not said beside it: ${r.error}`);
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('evaluation target with a lichess username: lichess is asked for its evaluations', async ({ baseUrl }) => {
  const stub = await startServicesStub();
  const { context, page, problems } = await openPage(baseUrl, {
    hash: '#lichess=bob&maxGames=50&target=eval', query: `?lichess-base=${encodeURIComponent(stub.url)}`,
  });
  try {
    check(await waitForState(page, ['done', 'error'], 30000) === 'done', `the load failed: ${(await mirrorResult(page)).error}`);
    const asked = stub.requests.find((r) => r.startsWith('/api/games/user/bob'));
    check(asked && asked.includes('evals=true'), `lichess was asked ${asked}`);
    const r = await mirrorResult(page);
    check(r.target === 'eval' && r.evaluations && r.evaluations.gamesWithEvals > 0 &&
      r.evaluations.gamesWithEvals + r.evaluations.gamesWithoutEvals === r.used + r.partial,
    `counts ${JSON.stringify(r.evaluations)} of ${r.used} games`);
    check(problems.length === 0, problems.join('\n'));
  } finally {
    await context.close();
    await stub.close();
  }
});

test('evaluation target from a .mstats: the Target control, the link, the status line name it; the other read settings too', async ({ baseUrl }) => {
  // `materialist stats --target eval` on the lichess sample: a version 2 statistics file, made
  // with 3 quiet plies and a filter the controls do not hold.
  check(existsSync(CLI), `${CLI} is missing: build the native tool first (cmake --build build/native)`);
  const folder = mkdtempSync(join(tmpdir(), 'materialist-eval-stats-'));
  const file = join(folder, 'lichess.eval.mstats');
  execFileSync(CLI, ['stats', '--target', 'eval', '--preset', 'article', '--quiet-plies', '3', '--filter', 'elo=1200-',
    join(FIXTURES, LICHESS), '-o', file], { stdio: 'pipe' });
  const bytes = Array.from(readFileSync(file));
  rmSync(folder, { recursive: true, force: true });
  const cli = cliJson(['fit', '--target', 'eval', '--quiet-plies', '3', '--filter', 'elo=1200-']);
  const { context, page, problems } = await openPage(baseUrl);  // the Target control on the result
  await watchStates(page);
  await dropFiles(page, [{ name: 'lichess.eval.mstats', bytes }]);
  check(await waitForReadEnd(page, 60000) === 'done', `the .mstats did not fit: ${(await mirrorResult(page)).error}`);
  await settle(page, 6);
  const r = await mirrorResult(page);
  check(r.target === 'eval' && r.rows === cli.rows, `target ${r.target}, rows ${r.rows} (CLI ${cli.rows})`);
  const status = await page.$eval('#materialist-status', (el) => el.textContent);
  check(/^Fitted to engine evaluations/.test(status) && status.includes('from lichess.eval.mstats'), `status: ${status}`);
  await page.screenshot({ path: join(ARTIFACTS, '89-eval-mstats.png') });
  // The link and the settings it holds name the statistics' target.
  const link = await copyShareLink(page);
  check(link.includes('target=eval'), `share link ${link}`);
  const shown = (await mirrorResult(page)).settings;
  check(shown.target === 'eval', `settings ${JSON.stringify(shown)}`);
  // The statistics' other data settings show in the controls and the link, as they were made.
  check(shown.filter === 'elo=1200-' && shown.quiet.plies === 3, `filter ${shown.filter}, quiet plies ${shown.quiet.plies}`);
  check(link.includes('filter=elo%3D1200-') && link.includes('quiet.plies=3'), `share link ${link}`);
  // The control holds the data's target: nothing waits for Apply (a control left on the result
  // would be a change not applied). A click on the greyed Apply brings the group into view.
  await clickControl(page, 'Apply filters');
  await page.mouse.move(1, 1);
  await settle(page, 4);
  check(!(await page.evaluate(() => window.materialist.ui.buttons['Apply filters:pending'])),
    'the Target control differs from the data\'s target (a change not applied)');
  await clickControl(page, 'target:result');
  check(await page.waitForFunction(() => Boolean(window.materialist.ui.buttons['Apply filters:pending']), null,
    { timeout: 5000 }).then(() => true, () => false), 'a change of the Target control is not shown as waiting for Apply');
  await clickControl(page, 'target:eval');
  await page.mouse.move(1, 1);
  await settle(page, 4);
  await page.screenshot({ path: join(ARTIFACTS, '89-eval-mstats-target-control.png') });
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});
