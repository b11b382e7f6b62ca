// End-to-end tests: the play-test. Through real clicks: a live match in two play workers (the
// Elo and LLR figures change as pairs come in, a board with the game in progress), cancel keeping
// the pairs played, the PGN and statistics JSON exports (their statistics equal
// `materialist match`'s for the same seed and settings, run here with build/native/materialist),
// the share link reopened at phone size; screenshots at desktop and phone sizes; the frame gaps
// while the match runs, printed (no timing assertion); the article's round robin with its rating
// table; "Test these values" on the sample's fit and "Learn from these games" reading them back;
// the self-play loop (each round plays the values the last one learned, a piece its games could
// not identify named with the value it kept).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  ARTIFACTS, REPO, check, clickButton, mirrorResult, openPage, saveDownload, settle, test, typeField, waitForReadEnd,
  waitForState, watchStates,
} from './harness.mjs';

const CLI = join(REPO, 'build/native/materialist');
const NODES = 1500;
const SEED = 3;

const playStatus = async (page) => (await mirrorResult(page)).play || null;

// Animation-frame gaps on the page's main thread for `ms` milliseconds: count, mean, p95, max.
function frameGaps(page, ms) {
  return page.evaluate((duration) => new Promise((done) => {
    const times = [];
    const start = performance.now();
    const tick = (now) => {
      times.push(now);
      if (now - start < duration) requestAnimationFrame(tick);
      else {
        const gaps = times.slice(1).map((t, i) => t - times[i]).sort((a, b) => a - b);
        const mean = gaps.reduce((a, b) => a + b, 0) / Math.max(1, gaps.length);
        done({ frames: gaps.length, mean, p95: gaps[Math.floor(gaps.length * 0.95)] || 0, max: gaps[gaps.length - 1] || 0 });
      }
    };
    requestAnimationFrame(tick);
  }), ms);
}

// The statistics both writers give for the same games (not the clock's `seconds`, nor the
// planned pairs).
const STAT_KEYS = ['sets', 'schedule', 'limits', 'materialOnly', 'adjudication', 'seed', 'book', 'gamesPlayed', 'nodes',
  'terminations', 'first', 'second', 'pentanomial', 'wins', 'draws', 'losses', 'games', 'pairs', 'score', 'elo',
  'eloError95', 'nelo', 'neloError95', 'los', 'drawRatio', 'infinite', 'sprt'];
const statistics = (json) => Object.fromEntries(STAT_KEYS.map((key) => [key, json[key] ?? null]));
// Equal, numbers within 1e-9 relative (the browser's log10 and the native one may differ in the
// last bit); the counts are integers and must be the same.
function sameStatistics(a, b) {
  if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a));
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((key) => sameStatistics(a[key], b[key]));
}

test('play-test: a live match, cancel, PGN and JSON equal to the CLI\'s, the share link at phone size', async ({ baseUrl }) => {
  check(existsSync(CLI), `${CLI} is missing: build the native tool first (cmake --build build/native)`);
  const { context, page, problems } = await openPage(baseUrl, { query: '?playWorkers=2' });
  await clickButton(page, 'Play-test…');
  await typeField(page, 'play:nodes', String(NODES));
  await typeField(page, 'play:pairs', '200');
  await typeField(page, 'play:seed', String(SEED));
  await clickButton(page, 'play:sprt');
  await clickButton(page, 'play:start');

  // Live: the pairs and the figures change while the workers play.
  await page.waitForFunction(() => {
    const r = JSON.parse(document.getElementById('materialist-status').dataset.result);
    return r.play && r.play.running && r.play.pairs >= 1;
  }, null, { timeout: 60000 });
  const first = await playStatus(page);
  const gaps = await frameGaps(page, 3000);
  console.log(`      frame gaps while 2 play workers run: ${gaps.frames} frames, mean ${gaps.mean.toFixed(1)} ms, `
    + `p95 ${gaps.p95.toFixed(1)} ms, max ${gaps.max.toFixed(1)} ms`);
  await page.waitForFunction((pairs) => {
    const r = JSON.parse(document.getElementById('materialist-status').dataset.result);
    return r.play && r.play.pairs >= pairs + 2;
  }, first.pairs, { timeout: 60000 });
  const later = await playStatus(page);
  check(later.running, 'the match ended before the cancel (200 pairs)');
  check(typeof later.elo === 'number' || later.elo === null, 'no Elo in the status');
  check(typeof later.llr === 'number' && later.llr !== first.llr, `the LLR did not move: ${first.llr} → ${later.llr}`);
  check(later.pentanomial.reduce((a, b) => a + b, 0) === later.pairs, `pentanomial ${later.pentanomial} for ${later.pairs} pairs`);
  check(await page.evaluate(() => Boolean(window.materialist.ui.buttons['play:board'])), 'no board drawn');
  await page.screenshot({ path: join(ARTIFACTS, 'play-desktop.png') });

  // Cancel after six seconds at least (the games-per-minute figure starts at five): the workers
  // stop, the pairs played stay.
  await page.waitForFunction(() => JSON.parse(document.getElementById('materialist-status').dataset.result)
    .play?.seconds >= 6, null, { timeout: 60000 });
  await page.screenshot({ path: join(ARTIFACTS, 'play-desktop-rate.png'), clip: { x: 560, y: 80, width: 840, height: 180 } });
  await clickButton(page, 'play:cancel');
  await page.waitForFunction(() => {
    const r = JSON.parse(document.getElementById('materialist-status').dataset.result);
    return r.play && !r.play.running;
  }, null, { timeout: 10000 });
  const ended = await playStatus(page);
  check(ended.cancelled, 'the match was not cancelled');
  const pairs = ended.pairs;
  check(pairs >= later.pairs, `${pairs} pairs after the cancel, ${later.pairs} before`);
  // Games per minute (issue 50, item 9): shown once the match has run five seconds, from its clock.
  check(later.seconds < 5 ? later.gamesPerMinute === undefined : later.gamesPerMinute > 0,
    `${later.gamesPerMinute} games/min after ${later.seconds} s`);
  check(ended.seconds >= 5 && Math.abs(ended.gamesPerMinute - 60 * ended.games / ended.seconds) < 0.01,
    `${ended.gamesPerMinute} games/min for ${ended.games} games in ${ended.seconds} s`);
  console.log(`      ${ended.gamesPerMinute.toFixed(1)} games/min on 2 play workers (${ended.games} games in ${ended.seconds.toFixed(1)} s)`);
  const face = await page.evaluate(() => window.materialist.play);
  check(face.stops >= 1, 'the play workers were not stopped');
  console.log(`      ${Math.round(face.nodes / (face.workerMs / 1000))} nodes/s per play worker in Chromium (${face.results} pairs; `
    + 'a reading on this machine as loaded now, not a benchmark: bench/browser/play.mjs)');
  await settle(page, 4);
  check((await playStatus(page)).pairs === pairs, 'a pair was kept after the cancel');

  const pgn = await saveDownload(page, 'play:pgn', false);
  check(pgn.name === 'materialist-match.pgn', `PGN named ${pgn.name}`);
  const rounds = new Set([...pgn.text.matchAll(/\[Round "(\d+)"\]/g)].map((m) => m[1]));
  check(rounds.size === pairs, `${rounds.size} rounds in the PGN for ${pairs} pairs`);
  check((pgn.text.match(/\[Event /g) || []).length === 2 * pairs, 'not two games per pair');
  check(pgn.text.includes('[WhiteValues "100,289,346,480,1078"]') && pgn.text.includes('[BlackValues "100,300,300,500,900"]'),
    'the values are not in the tags');
  const saved = await saveDownload(page, 'play:json', false);
  const app = JSON.parse(saved.text);
  const cli = JSON.parse(execFileSync(CLI, ['match', '--values', 'learned-sample', '--vs', 'classic', '--pairs', String(pairs),
    '--nodes', String(NODES), '--seed', String(SEED), '--sprt', '0,10', '--json', '--no-progress', '-j', '1'], { encoding: 'utf8' }));
  check(sameStatistics(statistics(app), statistics(cli)), `the page's statistics differ from the CLI's:\npage ${
    JSON.stringify(statistics(app))}\ncli  ${JSON.stringify(statistics(cli))}`);
  console.log(`      ${pairs} pairs cancelled; Elo ${app.elo?.toFixed(1)} ± ${app.eloError95?.toFixed(1)}, LLR ${app.sprt.llr.toFixed(3)}: equal to the CLI's`);

  // The share link repeats the test: reopened at phone size, it starts the same match.
  await clickButton(page, 'play:share');
  const link = await page.waitForFunction(() => {
    const r = JSON.parse(document.getElementById('materialist-status').dataset.result);
    return r.playLink || null;
  }, null, { timeout: 10000 }).then((h) => h.jsonValue());
  const hash = link.slice(link.indexOf('#'));
  check(hash === '#play&set=learned-sample&set=classic&nodes=1500&pairs=200&seed=3&sprt=0,10', `share link ${hash}`);
  check(problems.length === 0, problems.join('\n'));
  await context.close();

  // One play worker here: the frame gaps with a core left to the page, for comparison.
  const phone = await openPage(baseUrl, { hash, query: '?playWorkers=1', width: 390, height: 844, scale: 2, touch: true });
  await phone.page.waitForFunction(() => {
    const r = JSON.parse(document.getElementById('materialist-status').dataset.result);
    return r.play && r.play.pairs >= 1 && window.materialist.ui.buttons['play:board'];
  }, null, { timeout: 60000 });
  const oneWorker = await frameGaps(phone.page, 2000);
  console.log(`      frame gaps while 1 play worker runs (phone size): ${oneWorker.frames} frames, mean ${oneWorker.mean.toFixed(1)} ms, `
    + `p95 ${oneWorker.p95.toFixed(1)} ms, max ${oneWorker.max.toFixed(1)} ms`);
  await settle(phone.page, 4);
  await phone.page.screenshot({ path: join(ARTIFACTS, 'play-phone.png') });
  await clickButton(phone.page, 'play:cancel');
  const again = JSON.parse((await saveDownload(phone.page, 'play:json', false)).text);
  for (const key of ['sets', 'limits', 'seed', 'schedule', 'pairsPerPairing']) {
    check(JSON.stringify(again[key]) === JSON.stringify(app[key]), `the link's ${key}: ${JSON.stringify(again[key])}, first ${JSON.stringify(app[key])}`);
  }
  check(again.sprt && again.sprt.elo1 === 10, 'the link lost the SPRT');
  check(phone.problems.length === 0, phone.problems.join('\n'));
  await phone.context.close();
});

test('play-test: the article\'s experiment, a round robin with its rating table', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl, { query: '?playWorkers=2' });
  await clickButton(page, 'Play-test…');
  await clickButton(page, 'play:article');
  await typeField(page, 'play:nodes', '300');
  await typeField(page, 'play:pairs', '1');
  await clickButton(page, 'play:start');
  const started = await page.waitForFunction(() => {
    const r = JSON.parse(document.getElementById('materialist-status').dataset.result);
    return r.play && r.play.tasks;
  }, null, { timeout: 20000 }).then((h) => h.jsonValue());
  check(started === 15, `${started} tasks: 6 sets make 15 pairings of one pair`);
  await page.waitForFunction(() => {
    const r = JSON.parse(document.getElementById('materialist-status').dataset.result);
    return r.play && !r.play.running && r.play.finished;
  }, null, { timeout: 120000 });
  const status = await playStatus(page);
  check(status.pairs === 15 && status.tasks === 15, `${status.pairs} of ${status.tasks} pairs (6 sets: 15 pairings)`);
  await settle(page, 4);
  await page.screenshot({ path: join(ARTIFACTS, 'play-article.png') });
  const json = JSON.parse((await saveDownload(page, 'play:json', false)).text);
  check(json.schedule === 'round-robin' && json.sets.length === 6, 'not the article\'s round robin');
  check(Array.isArray(json.ratings) && json.ratings.length === 6, 'no rating table');
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('play-test: "Test these values" on a fit, then "Learn from these games" reads the games played', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl, { hash: '#sample', query: '?playWorkers=2' });
  check(await waitForState(page, ['done', 'error']) === 'done', 'the sample did not fit');
  const fitted = (await mirrorResult(page)).values;
  await clickButton(page, 'test-values:0');
  await typeField(page, 'play:nodes', '300');
  await typeField(page, 'play:pairs', '2');
  await clickButton(page, 'play:start');
  await page.waitForFunction(() => {
    const r = JSON.parse(document.getElementById('materialist-status').dataset.result);
    return r.play && !r.play.running && r.play.finished;
  }, null, { timeout: 60000 });
  const json = JSON.parse((await saveDownload(page, 'play:json', false)).text);
  check(json.sets.length === 2 && json.sets[0].name.startsWith('fit:') && json.sets[1].name === 'classic',
    `the sets played: ${JSON.stringify(json.sets)}`);
  const values = json.sets[0].values.split(',').map(Number);
  ['P', 'N', 'B', 'R', 'Q'].forEach((piece, i) => check(Math.abs(values[i] - fitted[piece]) <= 0.5,
    `${piece}: played ${values[i]}, fitted ${fitted[piece]}`));
  // The games played would replace the sample: the page asks first; "Keep my data" keeps it.
  await clickButton(page, 'play:learn');
  await settle(page, 4);
  check(await page.evaluate(() => Boolean(window.materialist.ui.buttons['play:learn-replace'])), 'no question before the data is replaced');
  await page.screenshot({ path: join(ARTIFACTS, 'play-learn-question.png') });
  await clickButton(page, 'play:learn-keep');
  await settle(page, 6);
  check((await mirrorResult(page)).games === 2997, 'the sample was replaced without asking');
  check(!(await page.evaluate(() => Boolean(window.materialist.ui.buttons['play:learn-replace']))), 'the question stayed');
  // Asked again and answered: the games played become the data, a read of 4 games.
  await watchStates(page);
  await clickButton(page, 'play:learn');
  await settle(page, 4);
  await clickButton(page, 'play:learn-replace');
  check(await waitForReadEnd(page) === 'done', 'the played games were not read');
  await page.waitForFunction(() => {
    const r = JSON.parse(document.getElementById('materialist-status').dataset.result);
    return r.games === 4 && r.fits;
  }, null, { timeout: 30000 });
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('play-test: the self-play loop plays each round\'s learned values and names the pieces kept', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl, { query: '?playWorkers=2' });
  await clickButton(page, 'Play-test…');
  await typeField(page, 'play:nodes', '300');
  await typeField(page, 'play:pairs', '50');
  await clickButton(page, 'play:selfplay');
  const done = await page.waitForFunction(() => {
    const r = JSON.parse(document.getElementById('materialist-status').dataset.result);
    const rounds = r.play && r.play.selfplay;
    return rounds && rounds.length === 3 && rounds[2].learned && !r.play.running && r.fits ? r : null;
  }, null, { timeout: 150000 }).then((h) => h.jsonValue());  // 300 games: about 30 s on two cores
  const rounds = done.play.selfplay;
  // Each round's 50 pairs became the data of its fit: the last round's 100 games are read.
  check(rounds.every((r) => r.games === 100), `games per round: ${rounds.map((r) => r.games)}`);
  check(done.games === 100, `${done.games} games read from the last round`);
  // Round 1 plays the start set; each later round the values the round before learned, and the
  // learning changes them.
  check(rounds[0].played === '100,289,346,480,1078', `round 1 played ${rounds[0].played}`);
  for (let i = 1; i < 3; ++i) {
    check(rounds[i].played === rounds[i - 1].learned, `round ${i + 1} played ${rounds[i].played}, learned ${rounds[i - 1].learned}`);
  }
  check(rounds.some((r) => r.learned !== r.played), `no round learned anything: ${JSON.stringify(rounds)}`);
  // A piece a round's games did not identify keeps the value it played, and is named with it.
  const words = ['pawn', 'knight', 'bishop', 'rook', 'queen'];
  let keptPieces = 0;
  rounds.forEach((round, r) => {
    const learned = round.learned.split(',').map(Number);
    const played = round.played.split(',').map(Number);
    for (let i = 1; i < 5; ++i) {
      if (!(round.fallback || '').includes(words[i])) continue;
      keptPieces += 1;
      check(learned[i] === played[i] && round.fallback.includes(`${words[i]} ${played[i]}`),
        `round ${r + 1}, ${words[i]}: learned ${learned[i]}, played ${played[i]}, kept "${round.fallback}"`);
    }
  });
  check(keptPieces > 0, `50 pairs identified every piece in every round: the fallback is not exercised ${JSON.stringify(rounds)}`);
  // The last round's learned values are its fit's where the fit identified the piece.
  const fitted = done.fits[0].values;
  const last = rounds[2].learned.split(',').map(Number);
  const identified = (value) => typeof value === 'number' && value > 0 && value < 100000;
  ['N', 'B', 'R', 'Q'].forEach((letter, k) => {
    const value = fitted[letter];
    const kept = (rounds[2].fallback || '').includes(words[k + 1]);
    check(identified(value) ? Math.abs(last[k + 1] - value) <= 0.5 && !kept : kept,
      `round 3, ${words[k + 1]}: learned ${last[k + 1]}, fitted ${value}, kept "${rounds[2].fallback}"`);
  });
  await settle(page, 4);
  const kept = rounds.map((r, i) => (r.fallback ? `play:kept:${i + 1}` : null)).filter(Boolean);
  const buttons = await page.evaluate(() => window.materialist.ui.buttons);
  check(kept.every((label) => buttons[label]), `the kept pieces are not shown on the page: ${kept}`);
  // Each round's fit is offered to test; a fit's piece it did not identify plays 1-3-3-5-9's
  // value, said beside the set.
  // A fit's set is named by its file, target and solver: fit:selfplay-round-1.pgn/result/gd.
  const first = rounds[0].fallback ? 'play:fallback:fit:selfplay-round-1.pgn/' : null;
  check(!first || Object.keys(buttons).some((label) => label.startsWith(first)),
    'round 1\'s fit does not say which pieces play 1-3-3-5-9\'s values');
  await page.screenshot({ path: join(ARTIFACTS, 'play-selfplay.png') });

  // "Test these values" on the last round's fit: the pieces it did not identify, and only those,
  // are named with 1-3-3-5-9's values.
  await clickButton(page, 'play:close');
  await clickButton(page, 'test-values:0');
  await settle(page, 4);
  const tested = await mirrorResult(page);
  const classic = [100, 300, 300, 500, 900];
  ['N', 'B', 'R', 'Q'].forEach((letter, k) => {
    const named = (tested.play.fallback || '').includes(`${words[k + 1]} ${classic[k + 1]}`);
    check(named === !identified(fitted[letter]), `${words[k + 1]}: fitted ${fitted[letter]}, fallback "${tested.play.fallback}"`);
  });
  await page.screenshot({ path: join(ARTIFACTS, 'play-fallback.png') });
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('play-test on a phone: a long value set\'s label wraps within the screen, its source in a tooltip', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl, { width: 390, height: 844, touch: true });
  await clickButton(page, 'Play-test…');
  const name = 'learned-from-a-long-tournament-file-name';
  // The form scrolls: the custom field comes into view under the value sets.
  for (let i = 0; i < 30; ++i) {
    await page.waitForFunction(() => window.materialist.ui.buttons['play:custom'], null, { timeout: 10000 });
    const field = await page.evaluate(() => window.materialist.ui.buttons['play:custom']);
    if (field.y > 100 && field.y + field.height < 800) break;
    await page.mouse.move(195, 600);
    await page.mouse.wheel(0, field.y + field.height >= 800 ? 150 : -150);
    await settle(page, 3);
  }
  await clickButton(page, 'play:custom');
  await page.keyboard.press('Control+A');
  await page.keyboard.type(`${name}:100,300,320,500,950`, { delay: 10 });
  await settle(page, 2);
  await clickButton(page, 'play:add');
  await settle(page, 4);
  const [box, label, short] = await page.evaluate((n) => [window.materialist.ui.buttons[`play:set:${n}`],
    window.materialist.ui.buttons[`play:set-label:${n}`], window.materialist.ui.buttons['play:set-label:classic']], name);
  check(box && label && short, `the set was not added: ${JSON.stringify([box, label, short])}`);
  check(label.x >= box.x + box.width && label.x + label.width <= 390, `the label runs past the screen: ${JSON.stringify(label)}`);
  check(label.height > short.height * 1.5, `the long label did not wrap: ${JSON.stringify(label)}, a short one ${JSON.stringify(short)}`);
  // The match's controls hold within the screen too (the round robin's label once ran 442 px).
  for (const control of ['play:rr', 'play:sprt']) {
    const rect = await page.evaluate((c) => window.materialist.ui.buttons[c], control);
    check(rect && rect.x + rect.width <= 390, `${control} runs past the screen: ${JSON.stringify(rect)}`);
  }
  // Pointing at the label shows where the set comes from (the picture).
  await page.mouse.move(label.x + label.width / 2, label.y + label.height / 2);
  await settle(page, 4);
  await page.screenshot({ path: join(ARTIFACTS, 'play-phone-long-label.png') });
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});
