// The engine worker's exports that read the files again or hash them (loaded by engine-worker.js
// with importScripts, in its realm): .mat text, the values and analysis files, missing hashes.
'use strict';

// The current data's rows as .mat text. Rows are not kept while reading (memory stays bounded by
// the model, whatever the number of games): a second engine reads the same files with the same
// options again, and its text is taken after every chunk, so the Blob parts hold it, not the heap.
/** @returns {Promise<string[]>} */
async function matTextParts() {
  const { wasm } = loaded();
  if (!worker.readKey) throw new Error('no data to export: read games first');
  if (worker.fromStats) throw new Error('statistics files hold counts, not rows: export .mat from the games');
  const exporter = new wasm.Engine();
  /** @type {string[]} */
  const parts = [];
  try {
    const options = { ...JSON.parse(worker.readKey), keepRows: true };
    const begun = engineReply(exporter.beginRead(JSON.stringify(options)));
    if (begun.error) throw new Error(begun.error.message);
    for (const source of worker.lastSources) {
      const { name, size } = describe(source);
      exporter.beginFile(name, size);
      for await (const { data } of chunksOf(source, () => {})) {
        const accepted = feed(data, exporter);
        parts.push(exporter.takeMatText());
        await yieldToMessages();
        if (!accepted) break;
      }
      exporter.endFile();
      parts.push(exporter.takeMatText());
      if (exporter.limitReached()) break;  // the same read limit as the data's
    }
    exporter.cancelRead();
  } finally {
    exporter.delete();
  }
  return parts;
}

/** @param {ExportFormat} format */
async function exportData(format) {
  const { engine } = loaded();
  applyUnits(engine);  // the JSON's units and the header's terms
  worker.activity = `exporting ${format}`;
  if (format === 'mat') {
    post({ type: 'download', name: 'materialist-rows.mat', blob: new Blob(await matTextParts(), { type: 'text/plain' }) });
  } else if (format === 'csv') {
    post({ type: 'download', name: 'materialist-values.csv', blob: new Blob([engine.valuesCsv()], { type: 'text/csv' }) });
  } else if (format === 'provenance') {
    await hashMissingFiles();
    const provenance = JSON.parse(engine.provenanceJson());
    provenance.report = JSON.parse(engine.report());
    post({
      type: 'download', name: 'materialist-analysis.json',
      blob: new Blob([JSON.stringify(provenance, null, 2)], { type: 'application/json' }),
    });
  } else if (format === 'code') {
    const code = engine.codeHeader();
    post({ type: 'download', name: 'materialist-values.h', blob: new Blob([code], { type: 'text/x-c++hdr' }), text: code });
  } else if (format === 'squares-csv' || format === 'squares-code' || format === 'squares-json') {
    const name = { 'squares-csv': 'materialist-squares.csv', 'squares-code': 'materialist-squares.h', 'squares-json': 'materialist-squares.json' }[format];
    const text = engine.squaresExport(name);
    if (!text) throw new Error('no values by square yet: switch on "values by square" and fit');
    const type = format === 'squares-csv' ? 'text/csv' : format === 'squares-code' ? 'text/x-c++hdr' : 'application/json';
    post({ type: 'download', name, blob: new Blob([text], { type }), ...(format === 'squares-code' ? { text } : {}) });
  } else if (format === 'positions') {
    const text = engine.squaresPositions();
    if (!text) throw new Error('no positions kept: switch on "values by square" (the read keeps each position\'s board)');
    post({ type: 'download', name: 'materialist-positions.epd', blob: new Blob([text], { type: 'text/plain' }) });
  } else if (format === 'json') {
    const result = JSON.parse(engine.resultJson());
    result.report = JSON.parse(engine.report());
    post({
      type: 'download', name: 'materialist-values.json',
      blob: new Blob([JSON.stringify(result, null, 2)], { type: 'application/json' }),
    });
  }
}

// The worker reads without hashing (SHA-256 costs as much as parsing here): the provenance export
// hashes every file then, in order, from the sources it came from (the same File objects).
async function hashMissingFiles() {
  const { wasm, engine } = loaded();
  const missing = engine.missingDigests();
  for (const index of missing) {
    const source = worker.lastSources[index];
    if (!source) continue;
    engine.hashBegin();
    for await (const chunk of chunksOf(source, () => {})) {
      for (let at = 0; at < chunk.data.length; at += CHUNK_BYTES) {
        const part = chunk.data.subarray(at, Math.min(chunk.data.length, at + CHUNK_BYTES));
        const pointer = copyIntoEngine(wasm, (n) => engine.chunkBuffer(n), part, 'a chunk to hash');
        engine.hashFeed(pointer, part.length);
      }
      await yieldToMessages();
    }
    engine.hashEndInto(index);
  }
}
