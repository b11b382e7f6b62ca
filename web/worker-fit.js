// Fitting the kept data (loaded by engine-worker.js with importScripts, in its realm): the
// engine's fit run step by step, its snapshots posted on a schedule the page can draw live.
'use strict';

// Iteration targets for gradient descent: dense at the start, where the values move most.
/** @param {number} planned @param {number} ticks @returns {number[]} */
function descentSchedule(planned, ticks) {
  const targets = [];
  for (let i = 1; i <= ticks; ++i) {
    const t = Math.max(Math.round(planned * (i / ticks) ** 2), (targets[targets.length - 1] || 0) + 1);
    if (t >= planned) { targets.push(planned); break; }
    targets.push(t);
  }
  return targets;
}

/** @param {Snapshot} snapshot @returns {SnapshotMessage} */
function snapshotMessage(snapshot) { return { type: 'snapshot', ...snapshot }; }

// Posts the other datasets' states first, so the first dataset's snapshot stays the latest one.
/** @param {Snapshot} first */
function postSnapshots(first) {
  const { engine } = loaded();
  for (const other of JSON.parse(engine.otherSnapshots())) post(snapshotMessage(other));
  post(snapshotMessage(first));
}

// The values' unit into the engine (its status line, its exports): a unit it does not know is
// said, and the unit stays as it was.
/** @param {Engine} engine */
function applyUnits(engine) {
  const units = engineReply(engine.setUnits(worker.settings.units || 'pawn'));
  if (units.error) post({ type: 'error', message: `The values' unit could not be set: ${units.error.message}` });
}

// The pause before each snapshot: the descent is paced so the page can draw it converge, unless
// the page asks for reduced motion (the same snapshots, posted at once).
/** @param {number} ms @returns {Promise<void>} */
const pace = (ms) => (worker.reducedMotion ? Promise.resolve() : sleep(ms));

/** @param {number} myJob */
async function fit(myJob) {
  const { engine } = loaded();
  worker.activity = 'fitting';
  const begun = engineReply(engine.beginFit(JSON.stringify(worker.settings)));
  if (begun.error) {
    post({ type: 'error', message: `Fit failed: ${begun.error.message}` });
    state('error', `Fit failed: ${begun.error.message}`);
    return;
  }
  const plan = begun.value;
  // Models gradient descent cannot fit (ordinal, rating offset) run with Newton: plan.reason.
  const newton = plan.solver === 'newton';
  post(plan);  // the fit-begin message
  const first = JSON.parse(engine.snapshot());
  if (newton) post(first);
  else postSnapshots(first);
  state('fitting', newton ? 'Fitting: Newton…' : `Fitting: gradient descent, ${plural(plan.planned, 'iteration')}…`);
  let last = first;
  if (newton) {
    while (!engine.fitFinished()) {
      await pace(NEWTON_TICK_MS);
      if (myJob !== worker.job) return;
      last = JSON.parse(engine.step(1));
      post(snapshotMessage(last));
    }
  } else {
    let done = 0;
    for (const target of descentSchedule(plan.planned, Math.round(FIT_ANIMATION_MS / FIT_TICK_MS))) {
      await pace(FIT_TICK_MS);
      if (myJob !== worker.job) return;
      last = JSON.parse(engine.step(target - done));
      done = last.iteration;
      postSnapshots(last);
      if (engine.fitFinished()) break;
    }
  }
  if (myJob !== worker.job) return;
  post(JSON.parse(engine.fitDone()));  // every dataset's fit; the final state with its errors
  applyUnits(engine);  // the status line in the values' unit
  if (worker.settings.model && worker.settings.model.squares) await fitSquares(myJob);
  if (myJob !== worker.job) return;
  state('done', engine.statusLine());
}

// Values by square after the material fit: one call (a few seconds on a million positions),
// announced first so the status line says what the worker is doing.
/** @param {number} myJob */
async function fitSquares(myJob) {
  const { engine } = loaded();
  worker.activity = 'fitting values by square';
  state('fitting', 'Fitting values by square (768 values, the penalty chosen on held-out games)…');
  await sleep(0);  // the state message goes out before the fit holds the worker
  if (myJob !== worker.job) return;
  const squares = engineReply(engine.fitSquares(JSON.stringify(worker.settings)));
  // Settings the engine cannot read (the material fit read the same ones: not expected) are said.
  post(squares.error ? { type: 'error', message: `Values by square failed: ${squares.error.message}` } : squares.value);
}
