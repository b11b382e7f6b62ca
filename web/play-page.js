// The page's side of the play-test (web/PROTOCOL.md, "Play-test"): the pool of play workers (one
// per core: web/play-worker.js), the app's play commands (a task to a worker, stop, save a file,
// learn from the games, a share link, the status for the mirror) and the workers' messages back
// to the app. page.js creates it with its hooks; the canvas app owns the match.
// @ts-check: the page's realm (tsconfig.page.json); types in web/play.d.ts.
'use strict';

/**
 * @param {PlayPoolHooks} hooks
 * @returns {PlayPool}
 */
// eslint-disable-next-line no-unused-vars
function createPlayPool(hooks) {
  const query = new URLSearchParams(location.search);
  // ?playWorkers=N: that many play workers (tests, the benchmark); by default one per core.
  const size = Math.max(1, Math.min(32, Number(query.get('playWorkers')) || navigator.hardwareConcurrency || 2));
  /** @type {(Worker | null)[]} */
  let workers = [];
  /** @type {PlayFace} */
  const face = { workers: size, started: 0, results: 0, nodes: 0, workerMs: 0, stops: 0 };

  /** @param {number} k @returns {Worker} */
  function worker(k) {
    let w = workers[k];
    if (!w) {
      w = new Worker('play-worker.js');
      w.onmessage = (event) => fromPlayWorker(hooks, face, k, /** @type {PlayWorkerMessage} */ (event.data));
      w.onerror = (event) => hooks.toApp({ type: 'play-error', worker: k, message: event.message || 'unknown error' });
      workers[k] = w;
      face.started += 1;
    }
    return w;
  }

  // Cancel (or the match's end): the workers go, with whatever they were playing.
  function stop() {
    for (const w of workers) if (w) w.terminate();
    workers = [];
    face.stops += 1;
  }

  /** @param {PlayAppCommand} command @returns {boolean} handled */
  function command(command) {
    switch (command.type) {
      case 'play-task': {
        /** @type {PlayWorkerCommand} */
        const task = { type: 'play-task', task: command.task };
        worker(command.worker).postMessage(task);
        return true;
      }
      case 'play-stop':
        stop();
        return true;
      case 'play-status': {
        const { type: _, ...fields } = command;
        hooks.updateResult({ play: fields });
        return true;
      }
      case 'save':
        hooks.download(new Blob([command.text], { type: command.mime }), command.name);
        return true;
      case 'play-learn':
        hooks.readText(command.name, command.text);
        return true;
      case 'play-share':
        hooks.share(command.link);
        return true;
      default:
        return false;
    }
  }

  return { size, command, stop, face };
}

// A play worker's message, to the app (the face counts results, nodes and time for the mirror).
/** @param {PlayPoolHooks} hooks @param {PlayFace} face @param {number} k @param {PlayWorkerMessage} m */
function fromPlayWorker(hooks, face, k, m) {
  switch (m.type) {
    case 'play-board':
      hooks.toApp({ type: 'play-board', worker: k, ...JSON.parse(m.board) });
      break;
    case 'play-result':
      face.results += 1;
      face.nodes += m.nodes;
      face.workerMs += m.ms;
      hooks.toApp({ type: 'play-result', worker: k, result: m.result });
      break;
    case 'play-error':
      hooks.toApp({ type: 'play-error', worker: k, message: m.message });
      break;
    default:
      break;
  }
}

// A play-test link: #play&set=…&set=…&nodes=…&pairs=… (src/app/play_state.h, play_link).
/** @param {string} hash @returns {boolean} */
// eslint-disable-next-line no-unused-vars
const isPlayLink = (hash) => /^#?play(&|$)/.test(hash);
