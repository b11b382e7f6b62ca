// Differential replay: Materialist (`materialist replay`, src/cli/replay_command.h) against
// chessops, lichess's rules library. For every game: the plies played, the point where the game
// stops being legal (the first unplayable ply, or a bad start FEN) and the final position must
// agree. Final FENs are compared as chessops writes them (Materialist's FEN read by chessops and
// written back: en passant only when a legal capture exists, castling as chessops writes it).
//   node tests/differential/compare.mjs --cli build/native/materialist [--generate N] [--seed S]
//        [--keep FILE] [PGN files...]
// Prints the counts (games, plies compared, disagreements) and "N passed, N failed" (one check
// per PGN file and one for the generated corpus). Exit status 0 when nothing disagrees.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Chess } from 'chessops/chess';
import { makeFen, parseFen } from 'chessops/fen';
import { emptyHeaders, PgnParser } from 'chessops/pgn';
import { parseSan } from 'chessops/san';
import { setupPosition } from 'chessops/variant';
import { generate, playNull } from './generate.mjs';

function parseArgs(argv) {
  const args = { cli: null, generate: 0, seed: 1, keep: null, files: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--cli') args.cli = argv[++i];
    else if (a === '--generate') args.generate = Number(argv[++i]);
    else if (a === '--seed') args.seed = Number(argv[++i]);
    else if (a === '--keep') args.keep = argv[++i];
    else args.files.push(a);
  }
  if (!args.cli) throw new Error('--cli PATH (the materialist binary) is required');
  return args;
}

// chessops' replay of one game: { plies, stop, fen } in the replay command's terms.
function chessopsReplay(game) {
  const fenTag = game.headers.get('FEN');
  let pos = Chess.default();
  if (game.headers.get('SetUp') === '1' || fenTag) {
    const setup = parseFen(fenTag ?? '');
    const position = setup.isOk ? setupPosition('chess', setup.unwrap()) : setup;
    if (!position.isOk) return { plies: 0, stop: 'fen', fen: null };
    pos = position.unwrap();
  }
  let plies = 0;
  for (const node of game.moves.mainline()) {
    if (node.san === '--') {
      if (pos.isCheck()) return { plies, stop: String(plies + 1), fen: makeFen(pos.toSetup()) };
      playNull(pos);
    } else {
      const move = parseSan(pos, node.san);
      if (!move) return { plies, stop: String(plies + 1), fen: makeFen(pos.toSetup()) };
      pos.play(move);
    }
    plies++;
  }
  return { plies, stop: '-', fen: makeFen(pos.toSetup()) };
}

// A game that says it ended by the rules (Termination "normal", as `materialist match` writes
// them) must be scored by its real end, as chessops sees the final position: checkmate for the
// side that mated, a draw for stalemate, insufficient material, the fifty-move rule or a
// threefold repetition. Returns why not, or null.
function checkRuleEnd(game) {
  if (game.headers.get('Termination') !== 'normal') return null;
  const fenTag = game.headers.get('FEN');
  let pos = Chess.default();
  if (fenTag) {
    const setup = parseFen(fenTag);
    if (!setup.isOk) return 'bad FEN';
    const position = setupPosition('chess', setup.unwrap());
    if (!position.isOk) return 'bad FEN';
    pos = position.unwrap();
  }
  const key = () => makeFen(pos.toSetup()).split(' ').slice(0, 4).join(' ');
  const seen = new Map([[key(), 1]]);
  for (const node of game.moves.mainline()) {
    const move = parseSan(pos, node.san);
    if (!move) return `illegal move ${node.san}`;
    pos.play(move);
    seen.set(key(), (seen.get(key()) ?? 0) + 1);
  }
  const result = game.headers.get('Result');
  if (pos.isCheckmate()) {
    const winner = pos.turn === 'white' ? '0-1' : '1-0';
    return result === winner ? null : `checkmate scored ${result}, not ${winner}`;
  }
  const draw = pos.isStalemate() || pos.isInsufficientMaterial() || pos.halfmoves >= 100 ||
    (seen.get(key()) ?? 0) >= 3;
  if (!draw) return `scored ${result} by the rules, but the final position is no rule's end`;
  return result === '1/2-1/2' ? null : `a drawn end scored ${result}`;
}

// Materialist's FEN as chessops writes the same position (null when chessops cannot read it).
function inChessopsTerms(fen) {
  const setup = parseFen(fen);
  if (!setup.isOk) return null;
  const position = setupPosition('chess', setup.unwrap());
  return position.isOk ? makeFen(position.unwrap().toSetup()) : null;
}

// Calls `each(game)` for every game of the PGN file, streaming (the generated corpus is large).
function forEachGame(path, each) {
  const parser = new PgnParser(each, emptyHeaders);
  const decoder = new TextDecoder();
  const fd = openSync(path, 'r');
  const buffer = Buffer.alloc(1 << 20);
  let n;
  while ((n = readSync(fd, buffer, 0, buffer.length, null)) > 0) {
    parser.parse(decoder.decode(buffer.subarray(0, n), { stream: true }), { stream: true });
  }
  closeSync(fd);
  parser.parse(decoder.decode());
}

function compareFile(cli, path, label, totals) {
  const output = execFileSync(cli, ['replay', path], { maxBuffer: 1 << 30 }).toString();
  const lines = output.split('\n').filter((l) => l.length > 0).map((l) => l.split('\t'));
  let disagreements = 0;
  let plies = 0;
  let sameText = 0;
  let games = 0;
  const report = (what) => {
    disagreements++;
    if (disagreements <= 10) console.log(`  ${label}: ${what}`);
  };
  forEachGame(path, (game) => {
    // chessops reports stray bytes between games (OpenRating.pgn ends in a DOS end-of-file
    // byte, ^Z) as a game without tags or moves; Materialist's parser starts no game there.
    if (game.headers.size === 0 && game.moves.children.length === 0) return;
    const i = games++;
    if (i >= lines.length) return;
    const [number, matPlies, matStop, matFen, why] = lines[i];
    const ours = chessopsReplay(game);
    if (Number(matPlies) !== ours.plies || matStop !== ours.stop) {
      report(`game ${number}: Materialist ${matPlies} plies, stop ${matStop} (${why}); ` +
        `chessops ${ours.plies} plies, stop ${ours.stop}`);
      return;
    }
    plies += ours.plies;
    if (ours.stop === 'fen') return;
    const end = checkRuleEnd(game);
    if (end) report(`game ${number}: ${end}`);
    if (matFen === ours.fen) sameText++;
    const fen = inChessopsTerms(matFen);
    if (fen !== ours.fen) report(`game ${number}: final FEN ${matFen} (as chessops: ${fen}); chessops ${ours.fen}`);
  });
  if (lines.length !== games) report(`${lines.length} games in Materialist, ${games} in chessops`);
  const n = Math.min(lines.length, games);
  totals.games += n;
  totals.plies += plies;
  totals.disagreements += disagreements;
  console.log(`${label}: ${n} games, ${plies} plies compared, ${disagreements} disagreements` +
    ` (final FEN text identical in ${sameText})`);
  return disagreements === 0;
}

const args = parseArgs(process.argv.slice(2));
const totals = { games: 0, plies: 0, disagreements: 0 };
let passed = 0;
let failed = 0;
for (const file of args.files) {
  if (compareFile(args.cli, file, file, totals)) passed++;
  else failed++;
}
if (args.generate > 0) {
  const dir = mkdtempSync(join(tmpdir(), 'materialist-differential-'));
  const path = args.keep ?? join(dir, 'generated.pgn');
  const fd = openSync(path, 'w');
  const features = generate(args.generate, args.seed, (text) => writeSync(fd, text));
  closeSync(fd);
  console.log(`generated ${args.generate} games (seed ${args.seed}): ${JSON.stringify(features)}`);
  if (compareFile(args.cli, path, `generated (seed ${args.seed})`, totals)) passed++;
  else failed++;
  rmSync(dir, { recursive: true, force: true });
}
console.log(`differential: ${totals.games} games, ${totals.plies} plies compared, ${totals.disagreements} disagreements`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
