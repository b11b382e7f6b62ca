// @ts-check
// Reads a file's slices for the engine worker (offThreadSlices in file-slices.js). The browser
// copies a Blob's bytes into the ArrayBuffer on the thread that asked for them, as the data
// arrives (9% of a one-reader read's time in a trace); asked here, that copy runs on this thread
// while the engine worker parses. Slices are transferred, not copied, in order, at most `ahead`
// of those taken. Messages: SliceRequest in, SliceReply out (types.d.ts, PROTOCOL.md).
// A read that fails (the file changed, no BYOB reader in this browser) is answered with
// slice-error: the engine worker then reads the rest itself.
'use strict';

/** @type {{credits: number, wake: (() => void) | null}} */
const flow = { credits: 0, wake: null };

/** @param {SliceReply} message @param {Transferable[]} [transfer] */
const reply = (message, transfer = []) => self.postMessage(message, transfer);

const waitForCredit = () => new Promise((resolve) => {
  if (flow.credits > 0) resolve(undefined);
  else flow.wake = () => { flow.wake = null; resolve(undefined); };
});

// One stream over the whole range, read into slices (a BYOB reader: no copy of its own). Read by
// slice() per 4 MiB instead, a 200 MB Blob built in the page became unreadable partway: the bytes
// of each slice seem to stay in Chromium's blob store until this thread collects its garbage.
/** @param {SliceReadMessage} m */
async function stream(m) {
  const reader = m.file.slice(m.start, m.end).stream().getReader({ mode: 'byob' });
  for (let at = m.start; at < m.end;) {
    await waitForCredit();  // before reading: at most `ahead` slices read and not yet taken
    flow.credits -= 1;
    let buffer = new ArrayBuffer(Math.min(m.sliceBytes, m.end - at));
    let filled = 0;
    while (filled < buffer.byteLength) {
      const { done, value } = await reader.read(new Uint8Array(buffer, filled));
      if (done || !value) throw new DOMException('the file ended early: was it changed?', 'NotReadableError');
      buffer = value.buffer;  // the read transferred it
      filled += value.byteLength;
    }
    reply({ type: 'slice', at, bytes: buffer }, [buffer]);
    at += filled;
  }
}

/** @param {MessageEvent<SliceRequest>} event */
self.onmessage = (event) => {
  const m = event.data;
  if (m.type === 'read-slices') {
    flow.credits = m.ahead;
    stream(m).catch((error) => {
      const e = error instanceof Error ? error : new Error(String(error));
      reply({ type: 'slice-error', name: e.name, message: e.message });
    });
  } else if (m.type === 'slice-taken') {
    flow.credits += 1;
    if (flow.wake) flow.wake();
  }
};
