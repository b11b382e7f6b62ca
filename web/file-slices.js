// @ts-check
// A file's bytes in slices (loaded with importScripts by engine-worker.js and reader-worker.js):
// while a slice is parsed, the next one is read, so a reader never waits on the file between
// slices. fileSlices reads one slice ahead (two slices in memory); offThreadSlices has a helper
// worker read two ahead (three in memory). Also a download's bytes as they arrive (bodyChunks).
'use strict';

/**
 * The bytes [start, end) of `file`, `sliceBytes` at a time, in order.
 * @param {Blob} file @param {number} start @param {number} end @param {number} sliceBytes
 * @returns {AsyncGenerator<Uint8Array<ArrayBuffer>>}
 */
async function* fileSlices(file, start, end, sliceBytes) {
  /** @param {number} at */
  const read = (at) => {
    const pending = file.slice(at, Math.min(end, at + sliceBytes)).arrayBuffer();
    pending.catch(() => {});  // a read ahead that nobody awaits (the loop stopped) fails silently
    return pending;
  };
  let next = start < end ? read(start) : null;
  for (let at = start; next; at += sliceBytes) {
    const current = next;
    next = at + sliceBytes < end ? read(at + sliceBytes) : null;
    yield new Uint8Array(await current);
  }
}

// A file the browser would no longer read (NotReadableError, NotFoundError: changed, moved or
// deleted since it was chosen) as an Error that names it and says so: the browser's own words
// name no file and blame permissions. Its name, FileUnreadableError, keeps the file's name out of
// the out-of-memory test (failureOf). Any other error is returned as it is.
/** @param {string} fileName @param {number} readBytes @param {unknown} error @returns {unknown} */
function unreadableFile(fileName, readBytes, error) {
  if (!(error instanceof DOMException) || !['NotReadableError', 'NotFoundError'].includes(error.name)) return error;
  const after = readBytes > 0 ? ` after its first ${(readBytes / 1e6).toFixed(1)} MB` : '';
  return Object.assign(new Error(`${fileName} could not be read${after}: was it changed, moved or ` +
    `deleted since it was chosen? (${error.message})`), { name: 'FileUnreadableError' });
}

// Whether this worker starts slice readers: not once one failed to start or run, or found no BYOB
// reader for Blob streams (every later file would fail the same way). A helper that sends nothing
// for `silentMs` while a slice is awaited counts as failed: a worker that dies without an error
// event would otherwise leave the read waiting for ever. (A 4 MiB slice of a local file takes
// milliseconds; a slow one only means this worker reads the rest itself.)
const sliceHelper = { usable: true, silentMs: 10000 };

/**
 * fileSlices, read by a helper worker (slice-reader.js): the browser's copy of the file's bytes
 * then runs on the helper's thread, not on this one, which parses (one reader read 1.13× as fast;
 * parallel readers, whose cores are all busy, keep fileSlices). At most three slices are in
 * memory: the one parsed and two read ahead. A range of one slice is read here (nothing would be
 * parsed meanwhile). Where a worker cannot start workers, or the helper fails (its script did not
 * load, a read it was refused, a browser without byte streams, a lost message, silence), it is
 * terminated and the rest of the range comes from fileSlices: a file that cannot be read fails
 * there, with the browser's DOMException. `tally.helperSlices` counts the slices the helper read.
 * @param {Blob} file @param {number} start @param {number} end @param {number} sliceBytes
 * @param {{helperSlices: number}} tally
 * @returns {AsyncGenerator<Uint8Array<ArrayBuffer>>}
 */
async function* offThreadSlices(file, start, end, sliceBytes, tally) {
  if (typeof Worker !== 'function' || !sliceHelper.usable || end - start <= sliceBytes) {
    yield* fileSlices(file, start, end, sliceBytes);
    return;
  }
  const helper = new Worker('slice-reader.js', { name: 'materialist-slices' });
  /** @type {SliceReply[]} */
  const arrived = [];
  /** @type {(() => void) | null} */
  let wake = null;
  let broken = false;  // the helper did not start, failed, lost a message or fell silent
  const wakeUp = () => { if (wake) wake(); };
  helper.onmessage = (/** @type {MessageEvent<SliceReply>} */ event) => {
    arrived.push(event.data);
    wakeUp();
  };
  const fail = () => {
    broken = true;
    wakeUp();
  };
  helper.onerror = (event) => {
    event.preventDefault();  // not the page's error: this read goes on without the helper
    fail();
  };
  helper.onmessageerror = fail;
  /** @param {SliceRequest} request */
  const ask = (request) => helper.postMessage(request);
  ask({ type: 'read-slices', file, start, end, sliceBytes, ahead: 2 });
  let at = start;
  try {
    while (at < end) {
      /** @type {SliceReply | undefined} */
      let reply;
      while (!broken && (reply = arrived.shift()) === undefined) {
        await new Promise((resolve) => {
          const silent = setTimeout(fail, sliceHelper.silentMs);
          wake = () => {
            wake = null;
            clearTimeout(silent);
            resolve(undefined);
          };
        });
      }
      if (broken || !reply || reply.type === 'slice-error' || reply.at !== at) {
        if (broken || (reply && reply.type === 'slice-error' && reply.name === 'TypeError')) sliceHelper.usable = false;
        break;
      }
      ask({ type: 'slice-taken' });
      tally.helperSlices += 1;
      at += reply.bytes.byteLength;
      yield new Uint8Array(reply.bytes);
    }
  } finally {
    helper.terminate();  // also when the loop stopped early: no read goes on
    arrived.length = 0;
  }
  // What the helper did not read is read here: a file that cannot be read fails here too, with
  // the browser's own error.
  if (at < end) yield* fileSlices(file, at, end, sliceBytes);
}

/**
 * A download's bytes as they arrive, with the bytes so far: {data, source}. Stopping the loop
 * early (return, an error) cancels the download.
 * @param {ReadableStream<Uint8Array<ArrayBuffer>>} body
 * @returns {AsyncGenerator<{data: Uint8Array<ArrayBuffer>, source: number}>}
 */
async function* bodyChunks(body) {
  const reader = body.getReader();
  let consumed = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      consumed += value.length;
      yield { data: value, source: consumed };
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}
