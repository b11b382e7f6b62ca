// Bytes into the engine's WebAssembly memory (loaded with importScripts by engine-worker.js and
// reader-worker.js): the one place that copies them, after the engine has sized its buffer, since
// the memory's growth replaces HEAPU8.
'use strict';

/**
 * Copies `parts` (one array of bytes, or several back to back) into the buffer `allocate(size)`
 * returns in the engine's memory, and returns its address.
 * @param {{HEAPU8: Uint8Array}} wasm
 * @param {(size: number) => number} allocate  the engine's buffer of at least `size` bytes, or 0
 * @param {Uint8Array | Uint8Array[]} parts
 * @param {string} what  what the bytes are, named when there is no room for them
 * @returns {number}
 */
function copyIntoEngine(wasm, allocate, parts, what) {
  const list = Array.isArray(parts) ? parts : [parts];
  const size = list.reduce((sum, part) => sum + part.length, 0);
  const pointer = allocate(Math.max(1, size));
  if (pointer === 0) throw new Error(`out of memory: no room for ${what}`);
  let at = 0;
  for (const part of list) {
    wasm.HEAPU8.set(part, pointer + at);
    at += part.length;
  }
  return pointer;
}
