// Streams a PGN file through lichess's chessops (PgnParser, stream mode) and replays every main
// line with parseSan + play, as a peer figure for the worker's throughput. Runs on page load for
// the URL in ?file=, and leaves its result in window.benchResult.
import { PgnParser, startingPosition } from '/node_modules/chessops/dist/esm/pgn.js';
import { parseSan } from '/node_modules/chessops/dist/esm/san.js';

async function run(url) {
  const started = performance.now();
  let games = 0, plies = 0, unplayable = 0, setupErrors = 0, bytes = 0;
  const parser = new PgnParser((game, error) => {
    games += 1;
    if (error) return;
    const start = startingPosition(game.headers);
    if (start.isErr) {
      setupErrors += 1;
      return;
    }
    const pos = start.value;
    for (const node of game.moves.mainline()) {
      const move = parseSan(pos, node.san);
      if (!move) {
        unplayable += 1;
        break;
      }
      pos.play(move);
      plies += 1;
    }
  });
  const response = await fetch(url);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.length;
    parser.parse(decoder.decode(value, { stream: true }), { stream: true });
  }
  parser.parse(decoder.decode());
  const seconds = (performance.now() - started) / 1000;
  return { games, plies, unplayable, setupErrors, bytes, seconds, mbps: bytes / seconds / 1e6 };
}

const file = new URLSearchParams(location.search).get('file');
run(file).then((result) => {
  window.benchResult = result;
  document.getElementById('out').textContent = JSON.stringify(result);
}).catch((error) => {
  window.benchResult = { error: String(error) };
});
