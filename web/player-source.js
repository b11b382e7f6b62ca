// @ts-check
// A player's games from lichess or chess.com (loaded by engine-worker.js with importScripts): the
// one place that knows the services' addresses, turns a player source into the addresses to
// stream, and says in words why a service refused (unknown user, rate limit, no network or CORS).
'use strict';

// The services' base addresses. A player source's `base` (the page's ?lichess-base= or
// ?chesscom-base=, for tests against a local stand-in) replaces them.
const SERVICE_BASES = Object.freeze({ lichess: 'https://lichess.org', chesscom: 'https://api.chess.com' });
const SERVICE_NAMES = Object.freeze({ lichess: 'lichess', chesscom: 'chess.com' });
// lichess asks clients to wait a full minute after a 429; chess.com names no wait.
const DEFAULT_RETRY_SECONDS = 60;

/** @param {PlayerSource} source @returns {string} */
const baseOf = (source) => (source.base || SERVICE_BASES[source.service]).replace(/\/+$/, '');

/** @param {string} date "YYYY-MM-DD" @param {number} [days] @returns {number} ms since 1970 (UTC), NaN if not a date */
function dayMs(date, days = 0) {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date || '');
  return m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + days) : NaN;
}

// lichess's export of a user's games (newest first), with the filters it offers; `maxGames` (the
// read limit) also asks lichess for no more games than that, and `evals` (the evaluation target)
// for its server analysis as [%eval] comments.
/** @param {PlayerSource} source @param {number} maxGames @param {boolean} [evals] @returns {string} */
function lichessExportUrl(source, maxGames, evals = false) {
  const query = new URLSearchParams();
  if (evals) query.set('evals', 'true');
  if (source.speed) query.set('perfType', source.speed);
  if (source.rated) query.set('rated', 'true');
  const since = dayMs(source.since || '');
  const until = dayMs(source.until || '', 1);  // the whole last day
  if (Number.isFinite(since)) query.set('since', String(since));
  if (Number.isFinite(until)) query.set('until', String(until));
  if (maxGames > 0) query.set('max', String(maxGames));
  const text = query.toString();
  return `${baseOf(source)}/api/games/user/${encodeURIComponent(source.user)}${text ? `?${text}` : ''}`;
}

// Seconds to wait from a Retry-After header (seconds or an HTTP date), else the service's rule.
/** @param {string | null} header @returns {number} */
function retrySeconds(header) {
  if (header && /^\d+$/.test(header.trim())) return Number(header.trim());
  const when = header ? Date.parse(header) : NaN;
  return Number.isFinite(when) ? Math.max(1, Math.ceil((when - Date.now()) / 1000)) : DEFAULT_RETRY_SECONDS;
}

/**
 * Fetches `url` of the player's service; an answer other than 200 becomes an Error whose message
 * says what happened in words.
 * @param {PlayerSource} source @param {string} url @param {RequestInit} [init] @returns {Promise<Response>}
 */
async function fetchFromService(source, url, init = {}) {
  const service = SERVICE_NAMES[source.service];
  let response;
  try {
    response = await fetch(url, init);
  } catch {
    throw new Error(`Could not reach ${service} (${new URL(url).host}): no network, or the service refused this ` +
      'page\'s cross-origin request (CORS)');
  }
  if (response.ok) return response;
  if (response.status === 404) throw new Error(`${service} has no player "${source.user}" (HTTP 404): check the username`);
  if (response.status === 429) {
    throw new Error(`${service} is limiting requests (HTTP 429, too many requests): wait ` +
      `${retrySeconds(response.headers.get('retry-after'))} s, then load again`);
  }
  throw new Error(`${service} answered HTTP ${response.status} (a service error): try again later`);
}

// chess.com's monthly archives of the player, newest month first, within the date range.
/** @param {PlayerSource} source @param {AbortSignal} [signal] @returns {Promise<string[]>} */
async function chesscomMonths(source, signal) {
  const response = await fetchFromService(source,
    `${baseOf(source)}/pub/player/${encodeURIComponent(source.user.toLowerCase())}/games/archives`, { signal });
  /** @type {unknown} */
  const list = (await response.json().catch(() => ({}))).archives;
  if (!Array.isArray(list)) throw new Error('chess.com answered an archive list that could not be read');
  const month = (/** @type {string} */ date) => (date ? date.slice(0, 7).replace('-', '/') : '');
  const from = month(source.since || '');
  const to = month(source.until || '');
  const urls = list.filter((url) => typeof url === 'string').filter((url) => {
    const m = /(\d{4}\/\d{2})\/?$/.exec(url);
    return !m || ((!from || m[1] >= from) && (!to || m[1] <= to));
  });
  if (urls.length === 0) {
    throw new Error(`chess.com has no games of "${source.user}"${from || to ? ' in these months' : ''} (an empty archive list)`);
  }
  return urls.reverse();
}

/**
 * The addresses to stream for a player source, in reading order, each named for the report.
 * @param {PlayerSource} source @param {number} maxGames @param {AbortSignal} [signal]
 * @param {boolean} [evals]  lichess's evaluations too (the evaluation target)
 * @returns {Promise<{url: string, name: string}[]>}
 */
async function playerStreams(source, maxGames, signal, evals = false) {
  if (source.service === 'lichess') return [{ url: lichessExportUrl(source, maxGames, evals), name: `lichess-${source.user}.pgn` }];
  return (await chesscomMonths(source, signal)).map((url, i) => {
    const month = /(\d{4})\/(\d{2})\/?$/.exec(url);
    return { url: `${url.replace(/\/+$/, '')}/pgn`, name: `chesscom-${source.user}-${month ? `${month[1]}-${month[2]}` : i + 1}.pgn` };
  });
}

/**
 * Streams one address of a player source: {data, source: bytes so far}; cancelling the loop
 * (return) cancels the download. An empty lichess export is an Error saying so.
 * @param {PlayerSource} source @param {string} url @param {AbortSignal} [signal]  ends it at once
 * @returns {AsyncGenerator<{data: Uint8Array<ArrayBuffer>, source: number}>}
 */
async function* playerChunks(source, url, signal) {
  const response = await fetchFromService(source, url, { headers: { Accept: 'application/x-chess-pgn' }, signal });
  if (!response.body) throw new Error(`${SERVICE_NAMES[source.service]} answered with no body`);
  let consumed = 0;
  for await (const chunk of bodyChunks(response.body)) {
    consumed = chunk.source;
    yield chunk;
  }
  if (consumed === 0 && source.service === 'lichess') {
    throw new Error(`lichess sent no games of "${source.user}" with these settings (speed, rated, dates)`);
  }
}
