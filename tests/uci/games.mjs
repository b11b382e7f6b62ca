// Games between UCI engines driven by node-uci, with the client keeping the clocks and chessops
// judging every move: an illegal move, a clock below zero, a crash or a hang loses the game and
// is reported. Used by run.mjs.
import { Chess, normalizeMove } from 'chessops/chess';
import { makeFen } from 'chessops/fen';
import { parseUci } from 'chessops/util';
import { Engine } from 'node-uci';

// The raw lines an engine writes, kept for checks node-uci does not expose (info strings).
export class Lines {
  constructor(engine) {
    this.lines = [];
    this.waiters = [];
    let backlog = '';
    engine.proc.stdout.on('data', (chunk) => {
      backlog += chunk;
      let n;
      while ((n = backlog.indexOf('\n')) >= 0) {
        this.lines.push(backlog.slice(0, n).trim());
        backlog = backlog.slice(n + 1);
      }
      this.waiters = this.waiters.filter((waiter) => !waiter());
    });
  }
  mark() {
    return this.lines.length;
  }
  since(mark) {
    return this.lines.slice(mark);
  }
  // Resolves with the first line from `mark` on that matches, or null after `timeoutMs`.
  waitFor(mark, predicate, timeoutMs) {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(null), timeoutMs);
      const check = () => {
        const found = this.lines.slice(mark).find(predicate);
        if (found === undefined) return false;
        clearTimeout(timer);
        resolve(found);
        return true;
      };
      if (!check()) this.waiters.push(check);
    });
  }
}

export async function startEngine(path, options = {}) {
  const engine = new Engine(path);
  await engine.init();
  engine.lines = new Lines(engine);
  for (const [name, value] of Object.entries(options)) await engine.setoption(name, value);
  await engine.isready();
  return engine;
}

// A promise that rejects after `ms`: a hung engine fails the game instead of the run.
function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// The position's repetition key: FEN without the move counters.
function repetitionKey(position) {
  return makeFen(position.toSetup()).split(' ').slice(0, 4).join(' ');
}

// Plays one game from `startMoves` (UCI moves from the start). `engines` = [white, black];
// `clock` = {timeMs, incMs}. Returns {result, reason, plies, minClockMs: [white, black], moves,
// error}: the least each clock showed after a move.
export async function playGame(engines, clock, { startMoves = [], maxPlies = 160 } = {}) {
  const position = Chess.default();
  const moves = [];
  for (const text of startMoves) {
    position.play(normalizeMove(position, parseUci(text)));
    moves.push(text);
  }
  const times = [clock.timeMs, clock.timeMs];
  const minClockMs = [clock.timeMs, clock.timeMs];
  const seen = new Map([[repetitionKey(position), 1]]);
  for (const engine of engines) await engine.ucinewgame();
  const end = (result, reason, error) => ({ result, reason, plies: moves.length, minClockMs, moves, error });
  while (moves.length < maxPlies) {
    if (position.isEnd()) {
      const winner = position.outcome()?.winner;
      return end(winner === 'white' ? '1-0' : winner === 'black' ? '0-1' : '1/2-1/2',
        position.isCheckmate() ? 'checkmate' : 'drawn by the rules');
    }
    const side = position.turn === 'white' ? 0 : 1;
    const engine = engines[side];
    const loss = side === 0 ? '0-1' : '1-0';
    await engine.position('startpos', moves);
    const started = performance.now();
    let answer;
    try {
      answer = await withTimeout(engine.go({ wtime: Math.max(0, Math.round(times[0])),
        btime: Math.max(0, Math.round(times[1])), winc: clock.incMs, binc: clock.incMs }),
        times[side] + 5000, 'go');
    } catch (error) {
      return end(loss, 'hang or crash', String(error));
    }
    times[side] -= performance.now() - started;
    minClockMs[side] = Math.min(minClockMs[side], times[side]);
    if (times[side] < 0) return end(loss, 'lost on time');
    times[side] += clock.incMs;
    const move = answer.bestmove ? parseUci(answer.bestmove) : undefined;
    const normal = move && normalizeMove(position, move);
    if (!normal || !position.isLegal(normal)) {
      return end(loss, 'illegal move', `${answer.bestmove} in ${makeFen(position.toSetup())}`);
    }
    position.play(normal);
    moves.push(answer.bestmove);
    const key = repetitionKey(position);
    seen.set(key, (seen.get(key) ?? 0) + 1);
    if (seen.get(key) >= 3) return end('1/2-1/2', 'threefold repetition');
    if (position.halfmoves >= 100) return end('1/2-1/2', 'fifty moves');
  }
  return end('1/2-1/2', `adjudicated at ${maxPlies} plies`);
}
