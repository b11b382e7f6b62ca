// End-to-end tests of the browser app: serves dist/ on a free localhost port, drives headless
// Chromium with playwright-core, clicks the ImGui buttons where the app says they are, drops
// files through real DataTransfer events, and reads the #materialist-status mirror.
//
//   node tests/e2e/run.mjs [--dist DIR] [--only NAME]     (default DIR: <repo>/dist)
//
// Screenshots go to tests/e2e/artifacts/. Prints one line per test and "N passed, N failed";
// exits non-zero when a test fails. A test that fails runs once more; one that then passes is
// printed as FLAKY with its first failure and a screenshot of it (failed-*.png). The harness (server, page helpers, runner) is harness.mjs;
// the tests register themselves on import, in this order: reading, results, analysis, layout, hostile,
// mstats, bands, players, imbalance, eval, squares, play, journey, legends.
import { join, resolve } from 'node:path';
import { REPO, runTests } from './harness.mjs';
import './reading.mjs';
import './results.mjs';
import './analysis.mjs';
import './layout.mjs';
import './hostile.mjs';
import './mstats.mjs';
import './bands.mjs';
import './players.mjs';
import './imbalance.mjs';
import './eval.mjs';
import './squares.mjs';
import './play.mjs';
import './journey.mjs';
import './legends.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
};
const DIST = resolve(option('--dist', process.env.MATERIALIST_DIST || join(REPO, 'dist')));
const ONLY = option('--only', null);

runTests({ dist: DIST, only: ONLY }).catch((error) => {
  console.error(error);
  process.exit(1);
});
