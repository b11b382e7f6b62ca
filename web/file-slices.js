// @ts-check
// A file's bytes in slices, read one slice ahead (loaded with importScripts by engine-worker.js
// and reader-worker.js): while a slice is parsed, the browser reads the next one off this thread,
// so a reader never waits on the file between slices. At most two slices are in memory. Also a
// download's bytes as they arrive (bodyChunks).
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
