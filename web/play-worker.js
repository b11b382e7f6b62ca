// A play Web Worker: plays the pair tasks the page hands it (one at a time) with the play module
// (materialist-play.js, src/worker/play_bindings.cpp), a few moves per turn of its event loop,
// and posts the board at most every BOARD_INTERVAL_MS and the result at the end. The canvas app
// owns the match (src/app/play_state.h); the page runs one of these per core and terminates them
// on cancel. Protocol: web/PROTOCOL.md, "Play-test".
// @ts-check: types in web/play.d.ts (the play worker's realm: tsconfig.play-worker.json).
'use strict';

importScripts('materialist-play.js');

const BOARD_INTERVAL_MS = 100;  // board updates: each redraws the page's canvas
const SLICE_MS = 40;            // moves played before the worker looks at its messages again

/** @type {{module: PlayModule | null, player: PlayPlayer | null, queue: string[], busy: boolean}} */
const state = { module: null, player: null, queue: [], busy: false };

/** @param {PlayWorkerMessage} message */
const post = (message) => postMessage(message);

// Plays the queued tasks one after the other; yields to the event loop between slices.
function run() {
  const { module } = state;
  if (state.busy || !module || state.queue.length === 0) return;
  const task = /** @type {string} */ (state.queue.shift());
  const player = new module.Player();
  const refused = player.start(task);
  if (refused) {
    player.delete();
    post({ type: 'play-error', message: refused });
    return;
  }
  state.busy = true;
  state.player = player;
  let lastBoard = 0;
  const started = performance.now();
  const slice = () => {
    const until = performance.now() + SLICE_MS;
    let done = false;
    while (!done && performance.now() < until) done = player.step(1);
    const now = performance.now();
    if (!done && now - lastBoard >= BOARD_INTERVAL_MS) {
      lastBoard = now;
      post({ type: 'play-board', board: player.board() });
    }
    if (!done) {
      setTimeout(slice, 0);
      return;
    }
    post({ type: 'play-board', board: player.board() });
    post({ type: 'play-result', result: player.result(), nodes: player.nodes(), ms: performance.now() - started });
    player.delete();
    state.player = null;
    state.busy = false;
    run();
  };
  slice();
}

onmessage = (event) => {
  const message = /** @type {PlayWorkerCommand} */ (event.data);
  if (message.type === 'play-task') {
    state.queue.push(message.task);
    run();
  }
};

createMaterialistPlay().then((module) => {
  state.module = module;
  post({ type: 'play-ready' });
  run();
}).catch((error) => post({ type: 'play-error', message: `the play module failed to load: ${error}` }));
