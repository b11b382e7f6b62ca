// @ts-check
// Share links (loaded by index.html before page.js): the page's address read as the data and the
// settings to start from, and the names of local files written into a link. Protocol:
// PROTOCOL.md, "Addresses and share links".
'use strict';

// Share links: the settings that differ from their preset's as short parameters (the app
// writes them: src/app/share_link.h), "model.outcomes=ordinal", a list repeated
// ("eachFilter=a&eachFilter=b"); or the older #s=<encodeURIComponent(JSON of the settings)>.
// With &sample (the bundled sample) or &url=<encoded address of a PGN>, in any order.
// &stats=<encoded address of a .mstats statistics file> shows its fit at once (docs/MSTATS.md).
// #lichess=NAME or #chesscom=NAME (player-link.js): that player's games, from their side.
// &file=NAME (repeated): the link was made from local files, which only their owner has: the
// page names them, for the recipient to drop.
/** @typedef {{sample: boolean, settings: Partial<Settings> | null, url: string | null, stats: string | null, player: PlayerSource | null, mine: boolean, files: string[], error: string | null}} Link */
const LINK_WORDS = new Set(['sample', 'url', 's', 'stats', 'file', ...PLAYER_LINK_WORDS]);  // not settings
const LINK_FILES_MAX = 8;  // names a link carries at most (then "and N more")
const TEXT_SETTINGS = new Set(['preset', 'filter', 'eachFilter']);  // never numbers
/** @param {string} key @param {string} text @returns {unknown} */
function settingValue(key, text) {
  if (TEXT_SETTINGS.has(key)) return text;
  if (text === 'true' || text === 'false') return text === 'true';
  return /^-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text) ? Number(text) : text;
}
/** @param {string} hash @returns {Link} */
function parseLink(hash) {
  /** @type {Link} */
  const link = { sample: false, settings: null, url: null, stats: null, player: null, mine: true, files: [], error: null };
  /** @type {Record<string, any>} */
  const pairs = {};
  /** @type {Record<string, string>} */
  const playerParts = {};
  for (const part of hash.replace(/^#/, '').split('&')) {
    const eq = part.indexOf('=');
    const key = decodeURIComponent(eq < 0 ? part : part.slice(0, eq));
    if (part === 'sample') link.sample = true;
    else if (PLAYER_LINK_WORDS.includes(key) && eq > 0) playerParts[key] = decodeURIComponent(part.slice(eq + 1));
    else if (part.startsWith('url=')) link.url = decodeURIComponent(part.slice(4));
    else if (part.startsWith('file=')) link.files.push(decodeURIComponent(part.slice(5)));
    else if (part.startsWith('stats=')) link.stats = decodeURIComponent(part.slice(6));
    else if (part.startsWith('s=')) {
      try {
        const settings = JSON.parse(decodeURIComponent(part.slice(2)));
        if (settings && typeof settings === 'object') link.settings = settings;
      } catch (error) {
        link.error = `The share link's settings could not be read: ${error instanceof Error ? error.message : error}`;
      }
    } else if (eq > 0 && !LINK_WORDS.has(key)) {
      const text = decodeURIComponent(part.slice(eq + 1));
      const path = key.split('.');
      /** @type {Record<string, any>} */
      let at = pairs;
      for (const name of path.slice(0, -1)) at = (at[name] = at[name] && typeof at[name] === 'object' ? at[name] : {});
      const last = path[path.length - 1];
      if (last === 'eachFilter') at[last] = [...(at[last] || []), ...(text ? [text] : [])];
      else at[last] = settingValue(last, text);
    }
  }
  if (Object.keys(pairs).length > 0) link.settings = { ...(link.settings || {}), ...pairs };
  link.player = playerFromLink(playerParts, location.search);
  link.mine = playerSideFromLink(playerParts);
  if (link.player && !(link.settings && 'filter' in link.settings)) {
    // My values: the player's side, their edge (the intercept) and their pieces against the
    // opponents' (split sides), unless the link says otherwise.
    const model = (link.settings && link.settings.model) || {};
    const filter = playerFilter(link.player, link.mine);
    if (filter) link.settings = { ...(link.settings || {}), filter };
    if (link.mine) {
      link.settings = { ...(link.settings || {}), model: { intercept: true, splitSides: true, ...model } };
    }
  }
  return link;
}

// The link's parts naming local files, which only their owner has: the recipient is told which
// to drop (at most LINK_FILES_MAX names, then "and N more").
/** @param {string[]} names @returns {string[]} */
function linkFileParts(names) {
  const shown = names.slice(0, LINK_FILES_MAX);
  if (names.length > shown.length) shown.push(`and ${names.length - shown.length} more`);
  return shown.map((name) => `file=${encodeURIComponent(name)}`);
}
