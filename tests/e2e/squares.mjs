// End-to-end tests: values by square. Switched on in Settings (Model), the sample is read again
// with its boards and the tables are fitted after the values: equal to the command-line tool's
// (`fit --model squares`); the window's heat maps, a square's hover, the phase switch, the four
// downloads; the tables as the play-test's set under test; a share link restores it on a phone,
// every board inside the screen; live previews while a file streams in, and two parallel readers
// give the tables of one.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ARTIFACTS, FIXTURES, REPO, check, clickButton, clickControl, copyShareLink, dropFiles, loadSample, mirrorResult,
  openPage, saveDownload, settle, test, typeField, waitForState, watchStates,
} from './harness.mjs';

const CLI = join(REPO, 'build/native/materialist');
const PIECES = ['P', 'N', 'B', 'R', 'Q', 'K'];

function cliSquares(file, args = []) {
  check(existsSync(CLI), `${CLI} is missing: build the native tool first (cmake --build build/native)`);
  return JSON.parse(execFileSync(CLI, ['fit', '--model', 'squares', '--json', '--units', 'logodds', ...args, file],
    { encoding: 'utf8', maxBuffer: 64 << 20 }));
}

// Waits for the squares message the worker sends after the values' fit.
async function waitForSquares(page, timeout = 90000) {
  const handle = await page.waitForFunction(() => {
    const r = JSON.parse(document.getElementById('materialist-status').dataset.result);
    return r.squares && document.getElementById('materialist-status').dataset.state === 'done' ? r.squares : null;
  }, null, { timeout });
  return handle.jsonValue();
}

// The largest difference between two {mg: {P: [64]...}, eg: {...}} tables.
function largestDifference(a, b) {
  let most = 0;
  for (const phase of ['mg', 'eg']) {
    for (const piece of PIECES) {
      for (let s = 0; s < 64; ++s) most = Math.max(most, Math.abs(a[phase][piece][s] - b[phase][piece][s]));
    }
  }
  return most;
}

// The centre of a square of a piece's board: the board's published rect (its rank labels on the
// left, its file labels under it).
async function squareCentre(page, piece, square) {
  const rect = await page.evaluate((p) => window.materialist.ui.buttons[`squares:${p}`], piece);
  check(rect, `the ${piece} board is not drawn`);
  const box = await page.$eval('#canvas', (c) => { const r = c.getBoundingClientRect(); return { x: r.left, y: r.top }; });
  const margin = 14;  // the rank labels' column (CSS pixels at scale 1)
  const cell = Math.floor((rect.width - margin) / 8);
  const file = square.charCodeAt(0) - 97;
  const row = 8 - Number(square[1]);
  return { x: box.x + rect.x + margin + (file + 0.5) * cell, y: box.y + rect.y + (row + 0.5) * cell };
}

test('values by square: the sample\'s tables equal the CLI\'s; heat maps, hover, phases, four downloads', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl);
  check(await loadSample(page) === 'done', 'the sample did not load');
  const before = await mirrorResult(page);
  await watchStates(page);
  await clickControl(page, 'model:squares');
  // The boards were not kept: the sample is read again, then fitted, then its squares.
  const squares = await waitForSquares(page);
  const after = await mirrorResult(page);
  check(after.games === before.games, `games ${after.games}, before ${before.games}`);
  check(!squares.error, `no values by square: ${squares.error}`);
  const cli = cliSquares(join(FIXTURES, 'OpenRating.pgn'), ['--preset', 'article']);
  check(squares.validation.trainingPositions === cli.validation.trainingPositions &&
    squares.validation.positions === cli.validation.positions,
  `positions: page ${JSON.stringify(squares.validation)}, CLI ${JSON.stringify(cli.validation)}`);
  check(squares.validation.lambda === cli.validation.lambda, `λ: page ${squares.validation.lambda}, CLI ${cli.validation.lambda}`);
  check(Math.abs(squares.validation.logLoss - cli.validation.logLoss) < 1e-9, `held-out log-loss ${squares.validation.logLoss} vs ${cli.validation.logLoss}`);
  check(squares.validation.logLoss < squares.validation.materialLogLoss, 'the squares do not predict the held-out games better');
  const most = largestDifference(squares.tables, cli.squares);
  check(most < 1e-6, `the tables differ from the CLI's by ${most} log-odds`);
  check(largestDifference(squares.se, cli.squaresSe) < 1e-6, 'the errors differ from the CLI\'s');
  console.log(`      ${squares.validation.trainingPositions} training positions, held-out log-loss ${squares.validation.logLoss.toFixed(4)} ` +
    `(material ${squares.validation.materialLogLoss.toFixed(4)}), fitted in ${squares.seconds.toFixed(1)} s in the worker`);

  // The window: the heat maps, a knight's square on hover with its value, error and count.
  await clickButton(page, 'squares:open');
  await settle(page, 4);
  for (const piece of ['Pawn', 'Knight', 'Bishop', 'Rook', 'Queen', 'King']) {
    check(await page.evaluate((p) => Boolean(window.materialist.ui.buttons[`squares:${p}`]), piece), `no ${piece} board`);
  }
  const f3 = await squareCentre(page, 'Knight', 'f3');
  await page.mouse.move(f3.x, f3.y);
  await settle(page, 4);
  check(await page.evaluate(() => Boolean(window.materialist.ui.buttons['squares:hover:N:f3'])), 'hovering f3 shows no knight on f3');
  await page.screenshot({ path: join(ARTIFACTS, 'squares-middlegame.png') });
  await page.mouse.move(1, 1);
  await clickButton(page, 'squares-phase:eg');
  await settle(page, 4);
  await page.screenshot({ path: join(ARTIFACTS, 'squares-endgame.png') });

  // The downloads: CSV (a row per piece, phase and square), the C++ header, JSON, the positions.
  const csv = await saveDownload(page, 'squares-export:squares-csv', false);
  const rows = csv.text.trim().split('\n');
  check(csv.name === 'materialist-squares.csv' && rows.length === 1 + 6 * 2 * 64 && rows[0] === 'piece,phase,square,value,se,positions,sparse',
    `CSV: ${csv.name}, ${rows.length} lines, header ${rows[0]}`);
  const header = await saveDownload(page, 'squares-export:squares-code', false);
  check(header.name === 'materialist-squares.h' && /inline constexpr int kMgKnight\[64\]/.test(header.text) &&
    /PeSTO's/.test(header.text), `C++ header: ${header.name}: ${header.text.slice(0, 200)}`);
  const json = JSON.parse((await saveDownload(page, 'squares-export:squares-json', false)).text);
  check(json.squares && json.squares.mg.N.length === 64 && json.validation.games > 0, 'JSON: no tables');
  const epd = await saveDownload(page, 'squares-export:positions', false);
  const lines = epd.text.trim().split('\n');
  check(lines.length === squares.data.positionsKept, `${lines.length} EPD lines, ${squares.data.positionsKept} positions kept`);
  const shape = /^[1-8pnbrqkPNBRQK/]+ [wb] (-|[KQkq]+) (-|[a-h][36]) \[(1\.0|0\.5|0\.0)\]$/;
  const bad = lines.find((line) => !shape.test(line));
  check(!bad, `an EPD line not in the tuners' form: ${bad}`);
  check(lines.some((line) => line.endsWith('[0.5]')), 'no draw among the positions (they are kept as ½)');

  // A share link carries the model; the next test opens it on a phone.
  await clickButton(page, 'squares:close');
  const link = await copyShareLink(page);
  check(/squares/.test(link), `the share link does not carry values by square: ${link}`);
  squaresLink = link;

  // Tested in play: the tables are the set under test, against the simplified set (published
  // tables) and 1-3-3-5-9; the match plays them (their means and "+ squares" in its JSON).
  await clickButton(page, 'Play-test…');
  await settle(page, 4);
  await clickButton(page, 'play:set:simplified');
  await typeField(page, 'play:nodes', '300');
  await typeField(page, 'play:pairs', '1');
  await page.screenshot({ path: join(ARTIFACTS, 'squares-play-form.png') });
  await clickButton(page, 'play:start');
  await page.waitForFunction(() => {
    const r = JSON.parse(document.getElementById('materialist-status').dataset.result);
    return r.play && r.play.finished && !r.play.running;
  }, null, { timeout: 120000 });
  const stats = JSON.parse((await saveDownload(page, 'play:json', false)).text);
  const names = stats.sets.map((s) => s.name);
  check(names[0] === 'squares:OpenRating.pgn/result' && / \+ squares$/.test(stats.sets[0].values),
    `the set under test is not the tables: ${JSON.stringify(stats.sets)}`);
  check(names.includes('simplified') && names.includes('classic'), `sets played: ${names}`);
  check(stats.gamesPlayed === 2 * (names.length - 1), `${stats.gamesPlayed} games for ${names.length} sets`);
  check(await page.evaluate(() => Boolean(window.materialist.ui.buttons['play:share'])), 'no share link button');
  await page.screenshot({ path: join(ARTIFACTS, 'squares-play.png') });
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

let squaresLink = '';

test('values by square on a phone: a share link restores them, every board inside the screen', async ({ baseUrl }) => {
  check(squaresLink, 'the test before made no link');
  const hash = squaresLink.slice(squaresLink.indexOf('#'));
  const { context, page, problems } = await openPage(baseUrl, { hash, width: 390, height: 844, touch: true });
  const squares = await waitForSquares(page);
  check(!squares.error, `no values by square: ${squares.error}`);
  await clickControl(page, 'squares:open');
  await settle(page, 6);
  for (const piece of ['Pawn', 'Knight', 'Bishop', 'Rook', 'Queen', 'King']) {
    const rect = await page.evaluate((p) => window.materialist.ui.buttons[`squares:${p}`], piece);
    if (!rect) continue;  // below the window's fold: scrolled to
    check(rect.x >= 0 && rect.x + rect.width <= 390, `the ${piece} board leaves the screen: ${JSON.stringify(rect)}`);
  }
  const close = await page.evaluate(() => window.materialist.ui.buttons['squares:close']);
  check(close && close.x + close.width <= 390, 'Close is outside the screen');
  await page.screenshot({ path: join(ARTIFACTS, 'squares-phone.png') });
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('values by square: two parallel readers give the tables of one', async ({ baseUrl }) => {
  const lichess = readFileSync(join(FIXTURES, 'lichess-100.pgn'), 'utf8');
  // Over the parallel reads' 32 MB, and long enough (some seconds) for previews while it is read.
  const times = Math.ceil(80e6 / lichess.length);
  const file = { name: `lichess-x${times}.pgn`, repeat: { text: lichess + '\n\n', times } };
  const results = [];
  for (const readers of [2, 1]) {
    // Estimates ten times as often as by default, and so the previews (80 MB is read in seconds).
    const { context, page, problems } = await openPage(baseUrl, { query: `?readers=${readers}&estimateMs=50` });
    await clickControl(page, 'model:squares');  // no data yet: the next read keeps the boards
    await settle(page, 4);
    await watchStates(page);
    await dropFiles(page, [file]);
    await waitForState(page, ['reading'], 20000);
    // Live: previews of the tables while the games stream in, then the fit after the read.
    // A preview, or the read's end without one (an error, or the final fit first): said, not waited on.
    await page.waitForFunction(() => {
      const mirror = document.getElementById('materialist-status');
      const r = JSON.parse(mirror.dataset.result);
      return (r.squaresPreviews || 0) >= 1 || r.error || (r.squares && !r.squares.live);
    }, null, { timeout: 120000 });
    const during = await mirrorResult(page);
    check(!during.error, `${readers} reader(s): the read failed: ${during.error}`);
    check(during.squaresPreviews >= 1, `${readers} reader(s): no preview during the read (${during.estimates} estimates)`);
    const preview = during.lastSquaresPreview;
    check(preview.live && preview.tables && preview.tables.mg.N.length === 64, `the preview: ${JSON.stringify(preview).slice(0, 200)}`);
    await page.screenshot({ path: join(ARTIFACTS, `squares-live-${readers}.png`) });
    const squares = await waitForSquares(page, 180000);
    const r = await mirrorResult(page);
    check(!squares.error, `${readers} reader(s): ${squares.error}`);
    check(!squares.live, 'the fit after the read is still marked live');
    check(r.readers === readers, `read by ${r.readers} readers, not ${readers}`);
    console.log(`      ${readers} reader(s): ${r.squaresPreviews} live preview(s) during the read, ${r.estimates} estimates, preview ${preview.seconds} s, fit ${squares.seconds} s`);
    results.push(squares);
    check(problems.length === 0, problems.join('\n'));
    await context.close();
  }
  const [parallel, alone] = results;
  check(parallel.data.positionsKept === alone.data.positionsKept && parallel.data.positionsOffered === alone.data.positionsOffered,
    `positions: parallel ${JSON.stringify(parallel.data)}, alone ${JSON.stringify(alone.data)}`);
  const most = largestDifference(parallel.tables, alone.tables);
  check(most < 1e-6, `the parallel read's tables differ by ${most} log-odds`);
  console.log(`      ${alone.data.positionsKept} positions, fitted in ${alone.seconds.toFixed(1)} s (one reader), ${parallel.seconds.toFixed(1)} s (two)`);
});
