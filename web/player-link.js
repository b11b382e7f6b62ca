// @ts-check
// A player's games in the page's address (loaded by index.html before page.js): the share link's
// #lichess=NAME or #chesscom=NAME with speed, rated, since, until and mine (from the player's
// side, the default), and the page's ?lichess-base= / ?chesscom-base= that point the services
// at a local stand-in (tests). Protocol: PROTOCOL.md, "Addresses and share links".
'use strict';

// The link's words that describe the player's games (not settings).
const PLAYER_LINK_WORDS = Object.freeze(['lichess', 'chesscom', 'speed', 'rated', 'since', 'until', 'mine']);

/**
 * The player source of a link's decoded parts, or null when it names no player.
 * @param {Record<string, string>} parts @param {string} search the page's location.search
 * @returns {PlayerSource | null}
 */
function playerFromLink(parts, search) {
  const service = parts.lichess !== undefined ? 'lichess' : parts.chesscom !== undefined ? 'chesscom' : null;
  if (!service) return null;
  const user = (parts[service] || '').trim();
  if (!user) return null;
  /** @type {PlayerSource} */
  const source = { kind: 'player', service, user };
  if (parts.speed) source.speed = parts.speed;
  if (parts.rated === 'true') source.rated = true;
  if (parts.since) source.since = parts.since;
  if (parts.until) source.until = parts.until;
  const base = new URLSearchParams(search).get(`${service}-base`);
  if (base) source.base = base;
  return source;
}

// "From the player's side" (My values) unless the link says mine=false.
/** @param {Record<string, string>} parts @returns {boolean} */
const playerSideFromLink = (parts) => parts.mine !== 'false';

// The filter of a player's games: from their side (mine: + is their material, a win theirs);
// for chess.com, whose archives are whole months of every speed, also the speed and the days
// (as the app's Player window writes it: src/app/player_form.cpp).
/** @param {PlayerSource} source @param {boolean} mine @returns {string} */
function playerFilter(source, mine) {
  const parts = mine ? [`player=${source.user}`, 'pov=1'] : [];
  if (source.service === 'chesscom') {
    if (source.speed) parts.push(`tc=${source.speed}`);
    const day = (/** @type {string | undefined} */ text) => (text || '').replace(/-/g, '.');
    if (source.since || source.until) parts.push(`date=${day(source.since)}-${day(source.until)}`);
  }
  return parts.join(';');
}

/** The link's parts of a player source: "lichess=NAME&speed=blitz&rated=true".
 * @param {PlayerSource} source @param {boolean} mine @returns {string} */
function playerLinkParts(source, mine) {
  const parts = [`${source.service}=${encodeURIComponent(source.user)}`];
  if (source.speed) parts.push(`speed=${encodeURIComponent(source.speed)}`);
  if (source.rated) parts.push('rated=true');
  if (source.since) parts.push(`since=${source.since}`);
  if (source.until) parts.push(`until=${source.until}`);
  if (!mine) parts.push('mine=false');
  return parts.join('&');
}
