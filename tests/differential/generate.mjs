// Random legal games from chessops, written as SAN PGN: the generated corpus of the differential
// replay (compare.mjs). Standard and Chess960 starts (FEN/SetUp/Variant tags), every promotion
// piece, both castlings, en passant, checks and mates, null moves ("--" and "Z0", never in
// check), and one game in ten with an unplayable move (illegal or ambiguous) somewhere, followed
// by more moves. Deterministic for a seed.
//   node tests/differential/generate.mjs COUNT SEED > games.pgn
import { Chess } from 'chessops/chess';
import { parseFen, makeFen } from 'chessops/fen';
import { makeSanAndPlay, parseSan, makeSan } from 'chessops/san';
import { setupPosition } from 'chessops/variant';
import { opposite } from 'chessops/util';

// mulberry32: a small seeded generator (Math.random cannot be seeded).
export function seededRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Chess960 start number n (0..959, Scharnagl's numbering; 518 is the standard start) as FEN.
export function chess960Fen(n) {
  const rank = Array(8).fill('');
  const placeNthFree = (nth, piece) => {
    for (let file = 0; file < 8; file++) {
      if (rank[file] === '' && nth-- === 0) {
        rank[file] = piece;
        return;
      }
    }
  };
  rank[(n % 4) * 2 + 1] = 'B';
  n = Math.floor(n / 4);
  rank[(n % 4) * 2] = 'B';
  n = Math.floor(n / 4);
  placeNthFree(n % 6, 'Q');
  n = Math.floor(n / 6);
  const knights = [[0, 1], [0, 2], [0, 3], [0, 4], [1, 2], [1, 3], [1, 4], [2, 3], [2, 4], [3, 4]][n];
  placeNthFree(knights[1], 'N'); // the later knight first: the earlier one's index stays right
  placeNthFree(knights[0], 'N');
  placeNthFree(0, 'R');
  placeNthFree(0, 'K');
  placeNthFree(0, 'R');
  const white = rank.join('');
  return `${white.toLowerCase()}/pppppppp/8/8/8/8/PPPPPPPP/${white} w KQkq - 0 1`;
}

// Every legal move, promotions to each piece.
function legalMoves(pos) {
  const moves = [];
  for (const [from, dests] of pos.allDests()) {
    const pawn = pos.board.get(from)?.role === 'pawn';
    for (const to of dests) {
      if (pawn && (to >> 3 === 0 || to >> 3 === 7)) {
        for (const promotion of ['queen', 'rook', 'bishop', 'knight']) moves.push({ from, to, promotion });
      } else {
        moves.push({ from, to });
      }
    }
  }
  return moves;
}

// Passes the turn as Materialist's Position::play(Move::null()) does.
export function playNull(pos) {
  pos.turn = opposite(pos.turn);
  pos.epSquare = undefined;
  pos.halfmoves += 1;
  if (pos.turn === 'white') pos.fullmoves += 1;
}

const pick = (rng, list) => list[Math.floor(rng() * list.length)];
const SQUARES = 'abcdefgh'.split('').flatMap((f) => '12345678'.split('').map((r) => f + r));

// A SAN both libraries read as a move that cannot be played here: an ambiguous one (a legal move
// stripped of its disambiguation) when there is one, else a piece or pawn move to a random square.
function unplayableSan(pos, rng) {
  for (const move of legalMoves(pos)) {
    const san = makeSan(pos, move).replace(/[+#]$/, '');
    const m = san.match(/^([NBRQK])([a-h]?[1-8]?)(x?[a-h][1-8])$/);
    if (m && m[2] && rng() < 0.5 && parseSan(pos, m[1] + m[3]) === undefined) return m[1] + m[3];
  }
  for (;;) {
    const san = pick(rng, ['N', 'B', 'R', 'Q', 'K', '']) + pick(rng, SQUARES);
    if (parseSan(pos, san) === undefined && !/^[a-h][18]$/.test(san)) return san;
  }
}

export const features = {
  games: 0, chess960: 0, plies: 0, promotions: { q: 0, r: 0, b: 0, n: 0 }, kingside: 0,
  queenside: 0, enPassant: 0, checks: 0, mates: 0, stalemates: 0, nulls: 0, unplayable: 0,
};

function chooseMove(pos, moves, rng) {
  const castles = moves.filter((m) => pos.board.get(m.from)?.role === 'king' && pos.board[pos.turn].has(m.to));
  if (castles.length && rng() < 0.5) return pick(rng, castles);
  const special = moves.filter((m) => m.promotion || (pos.board.get(m.from)?.role === 'pawn' && m.to === pos.epSquare));
  if (special.length && rng() < 0.7) return pick(rng, special);
  const pawns = moves.filter((m) => pos.board.get(m.from)?.role === 'pawn');
  if (pawns.length && rng() < 0.3) return pick(rng, pawns); // pawns forward: promotions come
  return pick(rng, moves);
}

function noteMove(pos, move, san) {
  const role = pos.board.get(move.from)?.role;
  if (move.promotion) features.promotions[{ queen: 'q', rook: 'r', bishop: 'b', knight: 'n' }[move.promotion]]++;
  if (role === 'king' && pos.board[pos.turn].has(move.to)) features[move.to > move.from ? 'kingside' : 'queenside']++;
  if (role === 'pawn' && move.to === pos.epSquare && !pos.board.occupied.has(move.to)) features.enPassant++;
  if (san.endsWith('+')) features.checks++;
  if (san.endsWith('#')) features.mates++;
}

export function randomGame(rng, index) {
  const tags = [['Event', `differential ${index}`], ['Site', '?'], ['White', 'a'], ['Black', 'b']];
  let pos = Chess.default();
  if (rng() < 0.2) {
    const fen = chess960Fen(Math.floor(rng() * 960));
    pos = setupPosition('chess', parseFen(fen).unwrap()).unwrap();
    tags.push(['Variant', 'Chess960'], ['SetUp', '1'], ['FEN', fen]);
    features.chess960++;
  }
  const tokens = [];
  const maxPlies = 10 + Math.floor(rng() * 300);
  const unplayableAt = rng() < 0.1 ? Math.floor(rng() * maxPlies) : -1;
  for (let ply = 0; ply < maxPlies; ply++) {
    if (pos.turn === 'white') tokens.push(`${pos.fullmoves}.`);
    else if (ply === 0 || tokens[tokens.length - 1].startsWith('{')) tokens.push(`${pos.fullmoves}...`);
    if (ply === unplayableAt) {
      tokens.push(unplayableSan(pos, rng), 'e4', 'Nf3'); // the moves after it are never replayed
      features.unplayable++;
      break;
    }
    if (!pos.isCheck() && rng() < 0.01) {
      tokens.push(rng() < 0.5 ? '--' : 'Z0');
      playNull(pos);
      features.nulls++;
      continue;
    }
    const moves = legalMoves(pos);
    if (moves.length === 0) break;
    const move = chooseMove(pos, moves, rng);
    const before = pos.clone();
    const san = makeSanAndPlay(pos, move);
    noteMove(before, move, san);
    tokens.push(san);
    features.plies++;
  }
  const outcome = pos.outcome();
  if (outcome && !outcome.winner && unplayableAt < 0 && legalMoves(pos).length === 0) features.stalemates++;
  const result = !outcome ? '*' : outcome.winner === 'white' ? '1-0' : outcome.winner === 'black' ? '0-1' : '1/2-1/2';
  tags.push(['Result', result]);
  tokens.push(result);
  features.games++;
  const lines = [];
  let line = '';
  for (const token of tokens) {
    if (line.length + token.length + 1 > 79) {
      lines.push(line);
      line = token;
    } else {
      line = line ? `${line} ${token}` : token;
    }
  }
  lines.push(line);
  return tags.map(([k, v]) => `[${k} "${v}"]`).join('\n') + '\n\n' + lines.join('\n') + '\n\n';
}

// Writes COUNT games for SEED to `write` (a function taking text).
export function generate(count, seed, write) {
  const rng = seededRandom(seed);
  for (let i = 1; i <= count; i++) write(randomGame(rng, i));
  return features;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const count = Number(process.argv[2] ?? 1000);
  const seed = Number(process.argv[3] ?? 1);
  let buffer = '';
  generate(count, seed, (text) => {
    buffer += text;
    if (buffer.length > 1 << 20) {
      process.stdout.write(buffer);
      buffer = '';
    }
  });
  process.stdout.write(buffer);
  process.stderr.write(JSON.stringify(features) + '\n');
}
