// What the WebAssembly Engine's fallible calls answer, decoded in one place (loaded with
// importScripts by engine-worker.js and reader-worker.js). Each answers JSON text: its result
// ({} when it has none), or an error of one shape, {"type": "error", code, message}
// (src/worker/engine_bindings.cpp). A caller sees the error and says it: nothing falls back.
// @ts-check: types in web/types.d.ts.
'use strict';

/**
 * @template T
 * @param {Json<T | EngineError>} text  what the call returned
 * @returns {{ value: T, error: null } | { value: null, error: EngineError }}
 */
function engineReply(text) {
  const value = JSON.parse(text);
  if (isEngineError(value)) return { value: null, error: value };
  return { value: /** @type {T} */ (value), error: null };
}

/** @param {unknown} value @returns {value is EngineError} */
function isEngineError(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value) &&
    /** @type {{type?: unknown}} */ (value).type === 'error' &&
    typeof (/** @type {{code?: unknown}} */ (value).code) === 'string';
}
