// @ts-check
// The worker's settings and the engine's read options made from them (loaded by engine-worker.js
// with importScripts): which settings decide the data (a change re-reads the files) and which
// row-key fields a model reads (a read keeps only those: learn/stats/key_fields.h).
'use strict';

/** @type {Settings} */
const DEFAULT_SETTINGS = {
  preset: 'article', solver: 'gd', step: 1, iterations: 10000, lambda: 1e-6,
  draws: 'exclude', unknown: 'draw',
  // Analysis beyond the article (PROTOCOL.md): absent fields keep these defaults.
  units: 'pawn', bootstrap: 0, seed: 1, filter: '', datasets: 'merge', eachFilter: [],
  quiet: { plies: 2, checksBreak: true, distinct: true, skipFirst: 0 },
};

// The engine's read options from the settings: what decides which games and positions count.
// A change of any of them re-reads the last sources.
/** @param {Settings} s @returns {ReadOptions} */
function readOptionsOf(s) {
  return {
    unknown: s.unknown, filter: s.filter || '', quiet: { ...DEFAULT_SETTINGS.quiet, ...(s.quiet || {}) },
    bootstrap: Math.max(0, Math.floor(Number(s.bootstrap) || 0)), seed: Number(s.seed) || 1,
    datasets: s.datasets || 'merge', eachFilter: s.datasets === 'per-filter' ? (s.eachFilter || []) : [],
    maxGames: Math.max(0, Math.floor(Number(s.maxGames) || 0)), maxMegabytes: Math.max(0, Number(s.maxMegabytes) || 0),
    target: s.target === 'eval' ? 'eval' : 'result',
  };
}
/** @param {Settings} s @returns {string} */
const readKeyOf = (s) => JSON.stringify(readOptionsOf(s));

// The row-key fields a model reads: a read keeps only these (memory bounded by the model), so a
// model that reads more needs the files read again.
/** @param {ModelChoice | undefined} m @returns {KeyFields} */
function keyFieldsOf(m) {
  /** @type {KeyFields} */
  const fields = { bishopPair: Boolean(m && m.bishopPair), phase: Boolean(m && m.phase),
    sideToMove: Boolean(m && m.sideToMove), rating: Boolean(m && m.eloOffset) };
  // Each side's counts only for the imbalance and split-sides models (other reads unchanged).
  if (m && (m.imbalance || m.splitSides)) fields.counts = true;
  if (m && m.squares) fields.boards = true;  // values by square: each position's board
  return fields;
}
const KEY_FIELD_WORDS = { bishopPair: 'the bishop pair', phase: 'the game phase', sideToMove: 'the side to move', rating: 'the rating difference', counts: "each side's piece counts", boards: 'the boards (values by square)' };
// What the settings' model reads that `kept` (the current data's fields) lacks, in words ("" when
// nothing).
/** @param {Settings} s @param {KeyFields | null} kept @returns {string} */
function missingFields(s, kept) {
  const needed = keyFieldsOf(s.model);
  return (/** @type {(keyof KeyFields)[]} */ (Object.keys(KEY_FIELD_WORDS)))
    .filter((key) => needed[key] && !(kept && kept[key])).map((key) => KEY_FIELD_WORDS[key]).join(', ');
}
