// What the browser benchmarks share (run.mjs, profile.mjs, lichess.mjs): their command-line
// options, Chromium's flags, a static server for the site and the animation-frame gaps.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';

/** The value after `name` on the command line, else `fallback`. */
export function option(name, fallback) {
  const args = process.argv.slice(2);
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
}

export { CHROMIUM_FLAGS } from '../../tests/e2e/harness.mjs';  // the e2e tests' browser

const MIME = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm', '.ttf': 'font/ttf', '.pgn': 'application/x-chess-pgn',
  '.json': 'application/json',
};

/**
 * Serves files on 127.0.0.1 (a free port) from `mounts`, [url prefix, folder] pairs tried in
 * order; a folder's address serves its index.html. Large files are streamed, never read whole.
 */
export function serve(mounts) {
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url, 'http://x').pathname);
    const [prefix, root] = mounts.find(([p]) => path.startsWith(p)) || ['', ''];
    let file = normalize(join(root, path.slice(prefix.length)));
    if (root && existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!root || !file.startsWith(root) || !existsSync(file)) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, {
      'content-type': MIME[extname(file)] || 'application/octet-stream',
      'content-length': statSync(file).size,
      'cache-control': 'no-store',
    });
    createReadStream(file).pipe(response);
  });
  return new Promise((ready) => server.listen(0, '127.0.0.1', () => ready(server)));
}

/**
 * The gaps between consecutive animation frames `[time, state]` both in `state` (ms): how many,
 * their median, 95th and 99th percentiles, how many exceed 34 and 50 ms, and the longest.
 */
export function frameGaps(frames, state) {
  const gaps = [];
  for (let i = 1; i < frames.length; ++i) {
    if (frames[i][1] === state && frames[i - 1][1] === state) gaps.push(frames[i][0] - frames[i - 1][0]);
  }
  gaps.sort((a, b) => a - b);
  const at = (q) => (gaps.length ? gaps[Math.min(gaps.length - 1, Math.floor(q * gaps.length))] : NaN);
  return {
    frames: gaps.length, median: at(0.5), p95: at(0.95), p99: at(0.99),
    over34: gaps.filter((gap) => gap > 34).length, over50: gaps.filter((gap) => gap > 50).length,
    max: gaps.length ? gaps[gaps.length - 1] : NaN,
  };
}
