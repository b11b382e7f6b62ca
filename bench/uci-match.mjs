// A match between two UCI engines at equal time, each opening played with both colours: the
// client keeps the clocks, chessops judges every move (tests/uci/games.mjs), and the result is
// given as the pentanomial and the Elo that `materialist elo` computes. Run by hand (not by CI),
// on an idle machine, e.g. the search of this tree against an older commit's build:
//
//   node bench/uci-match.mjs build/native/materialist-uci /tmp/old/materialist-uci [PAIRS] [TC]
//
// PAIRS: opening pairs (default 20); TC: seconds+increment (default 1+0.01). The openings are the
// first 8 plies of the first distinct games of tests/fixtures/pgn/OpenRating.pgn.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parsePgn, startingPosition } from 'chessops/pgn';
import { parseSan } from 'chessops/san';
import { makeUci } from 'chessops/util';
import { playGame, startEngine } from '../tests/uci/games.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [engineA, engineB, pairsText = '20', tcText = '1+0.01'] = process.argv.slice(2);
if (!engineA || !engineB) {
  console.error('usage: node bench/uci-match.mjs ENGINE_A ENGINE_B [PAIRS] [SECONDS+INCREMENT]');
  process.exit(2);
}
const pairs = Number(pairsText);
const [seconds, increment] = tcText.split('+').map(Number);
const clock = { timeMs: seconds * 1000, incMs: increment * 1000 };

// The first `count` distinct 8-ply openings of the sample, as UCI moves.
function openings(count) {
  const text = readFileSync(join(root, 'tests/fixtures/pgn/OpenRating.pgn'), 'utf8');
  const seen = new Set();
  const lines = [];
  for (const game of parsePgn(text)) {
    const position = startingPosition(game.headers).unwrap();
    const moves = [];
    for (const node of game.moves.mainline()) {
      const move = parseSan(position, node.san);
      if (!move || moves.length === 8) break;
      moves.push(makeUci(move));
      position.play(move);
    }
    if (moves.length === 8 && !seen.has(moves.join(' '))) {
      seen.add(moves.join(' '));
      lines.push(moves);
    }
    if (lines.length === count) break;
  }
  return lines;
}

const scoreOf = { '1-0': 1, '0-1': 0, '1/2-1/2': 0.5 };
const penta = [0, 0, 0, 0, 0];
const problems = [];
const a = await startEngine(engineA);
const b = await startEngine(engineB);
for (const [index, moves] of openings(pairs).entries()) {
  let pairScore = 0;
  for (const aIsWhite of [true, false]) {
    const game = await playGame(aIsWhite ? [a, b] : [b, a], clock, { startMoves: moves, maxPlies: 300 });
    const whiteScore = scoreOf[game.result];
    pairScore += aIsWhite ? whiteScore : 1 - whiteScore;
    if (['lost on time', 'illegal move', 'hang or crash'].includes(game.reason)) {
      problems.push(`pair ${index + 1}: ${game.reason} ${game.error ?? ''}`);
    }
  }
  penta[Math.round(pairScore * 2)] += 1;
  process.stderr.write(`\rpairs ${index + 1}/${pairs}, pentanomial ${penta.join(',')}   `);
}
process.stderr.write('\n');
await a.quit();
await b.quit();
console.log(`A: ${engineA}\nB: ${engineB}\n${pairs} pairs at ${tcText}: pentanomial (A's pairs scoring 0..2) ${penta.join(',')}`);
for (const problem of problems) console.log(`problem: ${problem}`);
const cli = join(root, 'build/native/materialist');
console.log(execFileSync(cli, ['elo', '--penta', penta.join(',')], { encoding: 'utf8' }).trim());
