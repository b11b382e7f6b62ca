// A local stand-in for lichess and chess.com: the same paths as the real services, answered with
// the repository's fixture games, so that the tests never call the real services.
//
//   lichess   GET /api/games/user/{name}?max=&perfType=&rated=&since=&until=   streamed PGN
//   chess.com GET /pub/player/{name}/games/archives   {"archives": [monthly URLs]}
//             GET /pub/player/{name}/games/{YYYY}/{MM}/pgn   that month's PGN
//
// The games are those of tests/fixtures/pgn/lichess-2021-10-first999.pgn with the user put in
// as White in even games and Black in odd ones (so a player's own side can be fitted). A user
// named "unknown*" is answered 404 as the services do, "ratelimited" 429 with Retry-After: 42,
// "nogames" an empty export / archive list, "slow" a lichess export that takes about 10 s (a
// download to cancel: `aborted` counts the answers whose client went away before their end),
// "stalled" a lichess export that sends a few games and then nothing, never ending (a stalled
// connection). Every answer carries the CORS headers the services send (any origin). `requests`
// lists the paths asked, in order.
//
//   import { startServicesStub } from './services-stub.mjs';  const stub = await startServicesStub();
//   stub.url, stub.requests (paths asked, in order), stub.counts.aborted, await stub.close()
//   GET /__requests   the paths asked so far, as JSON (for a test in another process)
//   node tests/e2e/services-stub.mjs [--port N]   prints "listening http://127.0.0.1:N", serves
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const GAMES_FILE = resolve(HERE, '../fixtures/pgn/lichess-2021-10-first999.pgn');
export const RETRY_AFTER_SECONDS = 42;
// chess.com's months of the stand-in, oldest first, and how many games each holds.
export const CHESSCOM_MONTHS = [['2021', '08', 300], ['2021', '09', 300], ['2021', '10', 399]];

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'Accept, Content-Type',
  'access-control-expose-headers': 'Retry-After, Content-Length',
};

/** The fixture's games as PGN texts, one per game. */
function loadGames() {
  const text = readFileSync(GAMES_FILE, 'utf8').replace(/\r\n/g, '\n');
  return text.split(/\n(?=\[Event ")/).map((g) => `${g.trim()}\n\n`).filter((g) => g.startsWith('[Event'));
}

/** The game with `user` as White (even index) or Black (odd index). */
function asPlayedBy(game, index, user) {
  const side = index % 2 === 0 ? 'White' : 'Black';
  return game.replace(new RegExp(`^\\[${side} "[^"]*"\\]`, 'm'), `[${side} "${user}"]`);
}

/** lichess's speed of a game, from its Event tag ("Rated Blitz game" → blitz). */
function speedOf(game) {
  const event = /^\[Event "([^"]*)"\]/m.exec(game)?.[1] || '';
  const word = /(UltraBullet|Bullet|Blitz|Rapid|Classical|Correspondence)/i.exec(event)?.[1] || 'classical';
  return word === 'UltraBullet' ? 'ultraBullet' : word.toLowerCase();
}

function dateMsOf(game) {
  const date = /^\[UTCDate "(\d{4})\.(\d{2})\.(\d{2})"\]/m.exec(game);
  return date ? Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3])) : 0;
}

/** Writes `text` in a few pieces with short pauses: a stream, as the services send it. */
async function streamText(response, text, pieces = 16, pauseMs = 60) {
  const size = Math.ceil(text.length / pieces) || 1;
  for (let at = 0; at < text.length; at += size) {
    if (response.destroyed) return;
    response.write(text.slice(at, at + size));
    await new Promise((done) => { setTimeout(done, pauseMs); });
  }
  response.end();
}

function answer(response, status, headers, body) {
  response.writeHead(status, { ...CORS, ...headers });
  response.end(body);
}

/** Starts the stand-in on `port` (0: a free one); resolves with {url, requests, close}. */
export function startServicesStub({ port = 0 } = {}) {
  const games = loadGames();
  const requests = [];
  const counts = { aborted: 0 };
  const server = createServer((request, response) => {
    response.on('close', () => { if (!response.writableFinished) counts.aborted += 1; });
    const url = new URL(request.url, 'http://stub');
    requests.push(url.pathname + url.search);
    if (request.method === 'OPTIONS') return answer(response, 204, {}, '');
    // The stand-in's own: the paths asked so far, for tests in other processes (the CLI's).
    if (url.pathname === '/__requests') return answer(response, 200, { 'content-type': 'application/json' }, JSON.stringify(requests));
    const base = `http://${request.headers.host}`;
    const lichess = /^\/api\/games\/user\/([^/]+)$/.exec(url.pathname);
    const archives = /^\/pub\/player\/([^/]+)\/games\/archives$/.exec(url.pathname);
    const month = /^\/pub\/player\/([^/]+)\/games\/(\d{4})\/(\d{2})\/pgn$/.exec(url.pathname);
    const user = decodeURIComponent((lichess || archives || month || [])[1] || '');
    if (!user) return answer(response, 404, { 'content-type': 'text/plain' }, 'Not found');
    if (user.toLowerCase().startsWith('unknown')) {
      return lichess ? answer(response, 404, { 'content-type': 'application/json' }, '{"error":"Not found"}')
        : answer(response, 404, { 'content-type': 'application/json' },
          JSON.stringify({ code: 0, message: `User "${user}" not found.` }));
    }
    if (user.toLowerCase() === 'ratelimited') {
      return answer(response, 429, { 'content-type': 'text/plain', 'retry-after': String(RETRY_AFTER_SECONDS) },
        'Too many requests. Try again later.');
    }
    const none = user.toLowerCase() === 'nogames';
    if (lichess) {
      const q = url.searchParams;
      const speeds = (q.get('perfType') || '').split(',').filter(Boolean);
      const max = Number(q.get('max')) || Infinity;
      const since = Number(q.get('since')) || 0;
      const until = Number(q.get('until')) || Infinity;
      const picked = none ? [] : games.map((g, i) => asPlayedBy(g, i, user)).filter((g) =>
        (!speeds.length || speeds.includes(speedOf(g))) && (q.get('rated') !== 'false')
        && dateMsOf(g) >= since && dateMsOf(g) < until).slice(0, max);
      response.writeHead(200, { ...CORS, 'content-type': 'application/x-chess-pgn' });
      if (user.toLowerCase() === 'stalled') {  // the first games, then silence until the client goes
        return void response.write(picked.slice(0, 20).join(''));
      }
      const slow = user.toLowerCase() === 'slow';
      return void streamText(response, picked.join(''), slow ? 100 : 16, slow ? 100 : 60);
    }
    if (archives) {
      const list = none ? [] : CHESSCOM_MONTHS.map(([y, m]) => `${base}/pub/player/${encodeURIComponent(user)}/games/${y}/${m}`);
      return answer(response, 200, { 'content-type': 'application/json' }, JSON.stringify({ archives: list }));
    }
    let first = 0;
    for (const [y, m, count] of CHESSCOM_MONTHS) {
      if (y === month[2] && m === month[3]) {
        const text = games.slice(first, first + count).map((g, i) => asPlayedBy(g, first + i, user)).join('');
        response.writeHead(200, { ...CORS, 'content-type': 'application/x-chess-pgn' });
        return void streamText(response, text, 3);
      }
      first += count;
    }
    return answer(response, 404, { 'content-type': 'application/json' }, '{"code":0,"message":"Date cannot be set in the future."}');
  });
  return new Promise((ready) => server.listen(port, '127.0.0.1', () => {
    const url = `http://127.0.0.1:${server.address().port}`;
    ready({ url, requests, counts, close: () => new Promise((done) => { server.closeAllConnections?.(); server.close(done); }) });
  }));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--port');
  startServicesStub({ port: i > 0 ? Number(process.argv[i + 1]) : 0 }).then((stub) => {
    console.log(`listening ${stub.url}`);
  });
}
