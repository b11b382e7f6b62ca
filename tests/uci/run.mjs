// The UCI engine driven by real clients: node-uci (npm) sends the commands, chessops checks
// every move, Debian's Stockfish is an opponent.
//   node tests/uci/run.mjs [--engine build/native/materialist-uci] [--stockfish /usr/games/stockfish]
// Checks: the option list, setoption, a depth search's info lines, go infinite + stop (the
// latency over 20 tries), isready during a search, ponder + ponderhit, bad input, self-play
// games at 10 s + 0.1 s and 1 s + 0.01 s with the client keeping the clocks, and games against
// Stockfish at Skill Level 0. Prints one line per check and "N passed, N failed".
import { existsSync } from 'node:fs';
import { playGame, startEngine } from './games.mjs';

function parseArgs(argv) {
  const args = { engine: 'build/native/materialist-uci', stockfish: '/usr/games/stockfish' };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--engine') args.engine = argv[++i];
    else if (argv[i] === '--stockfish') args.stockfish = argv[++i];
  }
  return args;
}

const args = parseArgs(process.argv.slice(2));
const results = [];
const started = performance.now();

async function check(name, fn) {
  const t0 = performance.now();
  try {
    const detail = await fn();
    results.push(true);
    console.log(`PASS ${name} (${Math.round(performance.now() - t0)} ms)${detail ? `: ${detail}` : ''}`);
  } catch (error) {
    results.push(false);
    console.log(`FAIL ${name}: ${error?.stack ?? error}`);
  }
}

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// An engine for one check, always quit.
async function withEngine(options, fn) {
  const engine = await startEngine(args.engine, options);
  try {
    return await fn(engine);
  } finally {
    await engine.quit();
  }
}

// Sends a raw line, then isready, and waits for readyok (or, after a go, for bestmove); the lines
// the engine wrote in between. The wait reads every line: node-uci's own isready() looks only at
// the last line of each chunk, so a readyok followed at once by a search's line would be missed.
async function say(engine, line) {
  const mark = engine.lines.mark();
  engine.write(line);
  engine.write('isready');
  const end = line.startsWith('go') ? (l) => l.startsWith('bestmove') : (l) => l === 'readyok';
  assert(await engine.lines.waitFor(mark, end, 10000) !== null, `no answer to '${line}'`);
  if (line.startsWith('go')) await engine.isready();
  return engine.lines.since(mark);
}

await check('uci: id and an option line for every setting', () =>
  withEngine({}, async (engine) => {
    const want = { Hash: 'spin', Values: 'string', MaterialOnly: 'check', 'Move Overhead': 'spin',
      Nodes: 'spin', Ponder: 'check' };
    for (const [name, type] of Object.entries(want)) {
      const option = engine.options.get(name);
      assert(option && option.type === type, `option ${name}: ${JSON.stringify(option)}`);
    }
    assert(Number(engine.options.get('Hash').min) === 1 && Number(engine.options.get('Hash').max) === 1024,
      `Hash bounds: ${JSON.stringify(engine.options.get('Hash'))}`);
    assert(/^Materialist classic/.test(engine.id.name), `id name ${engine.id.name}`);
    return `${engine.options.size} options`;
  }));

await check('setoption: good values change nothing visible, bad ones get an info string', () =>
  withEngine({}, async (engine) => {
    for (const [name, value] of [['Hash', 16], ['Values', 'kaufman'], ['MaterialOnly', 'true'],
      ['Move Overhead', 50], ['Nodes', 0], ['Ponder', 'true']]) {
      const lines = await say(engine, `setoption name ${name} value ${value}`);
      assert(!lines.some((l) => l.startsWith('info string')), `${name}: ${lines}`);
    }
    for (const line of ['setoption name Hash value 0', 'setoption name Hash value lots',
      'setoption name Values value no-such-set', 'setoption name MaterialOnly value maybe',
      'setoption name NoSuchOption value 1', 'setoption value 3']) {
      const lines = await say(engine, line);
      assert(lines.some((l) => l.startsWith('info string')), `no info string for '${line}'`);
    }
    const id = (await say(engine, 'uci')).find((l) => l.startsWith('id name'));
    assert(/kaufman/.test(id), `the set after setoption: ${id}`);
  }));

await check('go depth 6: an info line per depth with every field, then bestmove', () =>
  withEngine({}, async (engine) => {
    await engine.position('startpos', ['e2e4', 'e7e5', 'g1f3']);
    const { bestmove, info } = await engine.go({ depth: 6 });
    const depths = info.filter((i) => i.depth !== undefined && i.pv);
    assert(depths.length === 6, `${depths.length} info lines`);
    for (const [index, i] of depths.entries()) {
      assert(i.depth === index + 1, `depth ${i.depth} at ${index}`);
      for (const field of ['seldepth', 'score', 'nodes', 'nps', 'time', 'hashfull', 'pv']) {
        assert(i[field] !== undefined, `depth ${i.depth}: no ${field}`);
      }
    }
    assert(bestmove === depths[5].pv.split(' ')[0], `bestmove ${bestmove} vs pv ${depths[5].pv}`);
    return `bestmove ${bestmove}, ${depths[5].nodes} nodes, ${depths[5].nps} nps`;
  }));

await check('go infinite: no bestmove before stop; stop answered within 50 ms (20 tries)', () =>
  withEngine({ Hash: 16 }, async (engine) => {
    const latencies = [];
    for (let i = 0; i < 20; i++) {
      await engine.position('startpos', i % 2 ? ['d2d4'] : []);
      const mark = engine.lines.mark();
      engine.goInfinite();
      await sleep(i === 0 ? 1500 : 100);
      assert(!engine.lines.since(mark).some((l) => l.startsWith('bestmove')), 'bestmove before stop');
      const t0 = performance.now();
      const { bestmove } = await engine.stop();
      latencies.push(performance.now() - t0);
      assert(bestmove, 'no bestmove after stop');
    }
    const max = Math.max(...latencies);
    const text = `median ${median(latencies).toFixed(1)} ms, max ${max.toFixed(1)} ms`;
    assert(max < 50, text);
    return text;
  }));

await check('isready during go infinite: readyok at once, the search goes on', () =>
  withEngine({}, async (engine) => {
    await engine.position('startpos', []);
    engine.goInfinite();
    await sleep(200);
    const t0 = performance.now();
    const mark = engine.lines.mark();
    engine.write('isready');
    assert(await engine.lines.waitFor(mark, (l) => l === 'readyok', 1000), 'no readyok');
    const ms = performance.now() - t0;
    const { bestmove } = await engine.stop();
    assert(ms < 50 && bestmove, `readyok after ${ms} ms`);
    return `readyok in ${ms.toFixed(1)} ms`;
  }));

await check('go ponder: no bestmove until ponderhit, then within the move\'s time', () =>
  withEngine({}, async (engine) => {
    await engine.position('startpos', ['e2e4', 'e7e5']);
    const mark = engine.lines.mark();
    engine.write('go ponder wtime 2000 btime 2000 winc 0 binc 0');
    assert(await engine.lines.waitFor(mark, (l) => l.startsWith('bestmove'), 800) === null,
      'bestmove while pondering');
    const t0 = performance.now();
    engine.write('ponderhit');
    const line = await engine.lines.waitFor(mark, (l) => l.startsWith('bestmove'), 2000);
    const ms = performance.now() - t0;
    assert(line && ms < 2000 / 4 + 50, `${line} after ${ms} ms`);
    return `${line} ${ms.toFixed(0)} ms after ponderhit`;
  }));

await check('go movetime 300 and go nodes 5000 end on their own', () =>
  withEngine({}, async (engine) => {
    await engine.position('startpos', []);
    let t0 = performance.now();
    await engine.go({ movetime: 300 });
    const ms = performance.now() - t0;
    assert(ms >= 250 && ms < 400, `movetime 300 took ${ms} ms`);
    t0 = performance.now();
    const { info } = await engine.go({ nodes: 5000 });
    const last = info.filter((i) => i.nodes !== undefined).at(-1);
    assert(last.nodes <= 5000 + 2000, `${last.nodes} nodes`);
    return `movetime 300: ${ms.toFixed(0)} ms`;
  }));

await check('go mate 2: finds the mate', () =>
  withEngine({}, async (engine) => {
    await engine.position('6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1', []);
    const { bestmove, info } = await engine.go({ mate: 2 });
    const last = info.filter((i) => i.score).at(-1);
    assert(bestmove === 'a1a8' && last.score.unit === 'mate' && last.score.value === 1,
      `${bestmove} ${JSON.stringify(last)}`);
  }));

await check('bad input: info strings, unknown commands ignored, bestmove 0000 when mated', () =>
  withEngine({}, async (engine) => {
    assert((await say(engine, 'flip the board')).length === 1, 'an unknown command answered');
    for (const line of ['position fen not/a/fen w - - 0 1', 'position startpos moves e2e5',
      'position sideways', 'go wtime -- btime x', 'go searchmoves e2e4 depth 2']) {
      const lines = await say(engine, line);
      assert(lines.some((l) => l.startsWith('info string')), `no info string for '${line}'`);
    }
    // The bad positions left the start position: e2e4 is still legal.
    assert(!(await say(engine, 'position startpos moves e2e4')).some((l) => l.startsWith('info string')),
      'position after bad ones');
    await engine.position('7k/6Q1/6K1/8/8/8/8/8 b - - 0 1', []);
    const { bestmove } = await engine.go({ depth: 3 });
    assert(bestmove === '0000', `mated: bestmove ${bestmove}`);
    await engine.position('7k/5Q2/6K1/8/8/8/8/8 b - - 0 1', []);
    const stalemate = await engine.go({ movetime: 100 });
    assert(stalemate.bestmove === '0000', `stalemate: bestmove ${stalemate.bestmove}`);
  }));

const openings = [['e2e4', 'e7e5'], ['d2d4', 'd7d5'], ['c2c4', 'e7e5'], ['e2e4', 'c7c5']];

async function selfPlay(name, clock, games, plies) {
  for (let g = 0; g < games; g++) {
    await check(`${name} game ${g + 1}: legal moves, no loss on time`, async () => {
      const white = await startEngine(args.engine, { Hash: 16 });
      const black = await startEngine(args.engine, { Hash: 16, Values: 'learned-sample' });
      try {
        const game = await playGame(g % 2 ? [black, white] : [white, black], clock,
          { startMoves: openings[g % openings.length], maxPlies: plies });
        const text = `${game.result} (${game.reason}) after ${game.plies} plies, ` +
          `min clock ${game.minClockMs.map(Math.round).join(' / ')} ms`;
        assert(!['lost on time', 'illegal move', 'hang or crash'].includes(game.reason),
          `${text} ${game.error ?? ''}`);
        return text;
      } finally {
        await Promise.all([white.quit(), black.quit()]);
      }
    });
  }
}

await selfPlay('self-play 10s+0.1s', { timeMs: 10000, incMs: 100 }, 2, 160);
await selfPlay('self-play 1s+0.01s', { timeMs: 1000, incMs: 10 }, 2, 160);

if (existsSync(args.stockfish)) {
  for (let g = 0; g < 2; g++) {
    await check(`vs Stockfish (Skill Level 0) 2s+0.05s game ${g + 1}`, async () => {
      const ours = await startEngine(args.engine, { Hash: 16 });
      const stockfish = await startEngine(args.stockfish, { Threads: 1, Hash: 16, 'Skill Level': 0 });
      try {
        const engines = g % 2 ? [stockfish, ours] : [ours, stockfish];
        const game = await playGame(engines, { timeMs: 2000, incMs: 50 },
          { startMoves: openings[g], maxPlies: 200 });
        const oursLost = game.result === (g % 2 ? '1-0' : '0-1');
        const text = `Materialist ${g % 2 ? 'Black' : 'White'}: ${game.result} (${game.reason}) ` +
          `after ${game.plies} plies, min clock ${Math.round(game.minClockMs[g % 2])} ms`;
        assert(!(oursLost && ['lost on time', 'illegal move', 'hang or crash'].includes(game.reason)),
          `${text} ${game.error ?? ''}`);
        return text;
      } finally {
        await Promise.all([ours.quit(), stockfish.quit()]);
      }
    });
  }
} else {
  results.push(false);
  console.log(`FAIL vs Stockfish: ${args.stockfish} missing (run ./emsdk-setup.sh)`);
}

const passed = results.filter(Boolean).length;
console.log(`uci: ${Math.round((performance.now() - started) / 1000)} s`);
console.log(`${passed} passed, ${results.length - passed} failed`);
process.exit(results.length === passed ? 0 : 1);
