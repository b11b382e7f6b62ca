// The page: starts the engine worker and the canvas app, bridges their messages, handles file
// drops, the file picker, downloads and the #materialist-status mirror. Protocol: PROTOCOL.md.
// @ts-check: types in web/types.d.ts and web/page.d.ts (the page's realm: tsconfig.page.json).
'use strict';

(function main() {
  /**
   * The element of index.html with that id, of that kind.
   * @template {HTMLElement} T @param {string} id @param {new () => T} kind @returns {T}
   */
  function element(id, kind) {
    const found = document.getElementById(id);
    if (!(found instanceof kind)) throw new Error(`index.html has no ${kind.name} #${id}`);
    return found;
  }
  const canvas = element('canvas', HTMLCanvasElement);
  const fileInput = element('file-input', HTMLInputElement);
  const mirror = element('materialist-status', HTMLElement);
  const loading = element('loading', HTMLElement);
  /** @type {Source} */
  const SAMPLE = { kind: 'url', url: 'samples/OpenRating.pgn', name: 'OpenRating.pgn' };

  // The page's public face for tests and curious users (documented in PROTOCOL.md).
  /** @type {MaterialistFace} */
  const materialist = {
    ui: { buttons: {} },     // the app's main buttons, CSS pixels relative to the canvas
    downloads: [],           // {name, size} of every download offered
    reads: 0,                // reads the worker finished (a refit must not add one)
    appReady: false,
    workerReady: false,
  };
  window.materialist = materialist;

  // A play-test link (#play&set=…) is the app's (play-page.js): no data settings in it.
  const openingLink = parseLink(isPlayLink(location.hash) ? '' : location.hash);
  const sharedSettings = openingLink.settings;

  /** @type {AppInboxMessage[]} */
  const inbox = [];          // messages for the app, drained once per frame
  /** @param {AppInboxMessage} message */
  const toApp = (message) => inbox.push(message);

  /** @typedef {'sample' | 'files' | {url: string, stats: boolean} | {player: PlayerSource, mine: boolean}} DataOrigin */
  /**
   * The page's mutable state.
   * @typedef {object} PageState
   * @property {Record<string, unknown>} result  the mirror's data-result
   * @property {DataOrigin | null} dataOrigin  where the data came from, for share links
   * @property {DataOrigin | null} readingOrigin  where the running read's data come from
   */
  /** @type {PageState} */
  const page = { result: {}, dataOrigin: null, readingOrigin: null };

  // ---- the mirror ----

  /** @param {WorkerPhase} state @param {string} [text] */
  function setMirror(state, text) {
    mirror.dataset.state = state;
    if (text) mirror.textContent = text;
  }
  /** @param {Record<string, unknown>} fields */
  function updateResult(fields) {
    page.result = { ...page.result, ...fields };
    mirror.dataset.result = JSON.stringify(page.result);
  }
  const LETTERS = ['P', 'N', 'B', 'R', 'Q'];
  /** @param {readonly (number | null)[]} values */
  const valuesObject = (values) => Object.fromEntries(LETTERS.map((l, i) => [l, values[i]]));
  const PIECES = ['pawn', 'knight', 'bishop', 'rook', 'queen'];
  // One dataset's fit as scripts read it: values pawn = 100 (null where not identified), errors,
  // warnings and the draw margin (Elo) of the ordinal model.
  /** @param {Fit} f */
  function fitSummary(f) {
    /** @param {string} name */
    const coefficient = (name) => (f.coefficients || []).find((c) => c.name === name) || null;
    /** @param {'value' | 'valueSe'} key */
    const piece = (key) => Object.fromEntries(LETTERS.map((l, i) => {
      const c = coefficient(PIECES[i]);
      return [l, c ? c[key] : null];
    }));
    const margin = coefficient('draw-margin');
    return {
      name: f.name, used: f.used, rows: f.rows, state: f.state || 'failed', errors: f.errors || null,
      warnings: (f.warnings || []).map((w) => w.code), values: piece('value'), standardErrors: piece('valueSe'),
      drawMargin: margin ? margin.elo : null, coefficients: (f.coefficients || []).map((c) => c.name),
    };
  }

  // ---- the worker ----

  const worker = new Worker('engine-worker.js');
  /** @param {PageMessage} message */
  const toWorker = (message) => worker.postMessage(message);
  // A fit's descent is paced to be watched, unless the system asks for reduced motion.
  const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)');
  toWorker({ type: 'motion', reduced: reducedMotion.matches });
  reducedMotion.addEventListener('change', () => toWorker({ type: 'motion', reduced: reducedMotion.matches }));
  worker.onerror = (event) => {
    const message = `The engine worker failed: ${event.message || 'unknown error'}`;
    toApp({ type: 'error', message });
    toApp({ type: 'state', state: 'error', status: message });
    setMirror('error', message);
  };
  /** A file from the worker, saved; the code export also goes to the clipboard, and a toast
   * says which of the two happened. @param {DownloadMessage} m */
  function saveDownload(m) {
    download(m.blob, m.name);
    if (typeof m.text !== 'string') return;
    const text = m.text;
    const lines = text.split('\n').length - 1;
    clipboardWrite(text).then((copied) => toast(copied
      ? `C++ header copied to the clipboard (${lines} lines), and saved as ${m.name}`
      : `C++ header saved as ${m.name} (${lines} lines): this browser did not allow the clipboard`));
  }
  /** A read's report in the mirror (tests read it). @param {ReportMessage} m */
  function mirrorReport(m) {
    materialist.reads += 1;
    if (m.committed && page.readingOrigin) page.dataOrigin = page.readingOrigin;
    page.readingOrigin = null;
    const r = m.report;
    updateResult({
      games: r.games, used: r.used, partial: r.partial, skipped: r.skipped, rows: r.rows,
      drawRows: r.drawRows, decisiveRows: r.decisiveRows, bytes: r.bytes, files: r.files,
      fileErrors: r.fileErrors, seconds: r.seconds, mbps: r.mbps, helperSlices: r.helperSlices || 0,
      readers: r.readers || 1,
      filtered: r.filtered, filteredBy: r.filteredBy || null, datasets: r.datasets || null,
      stoppedAtLimit: Boolean(r.stoppedAtLimit),
      // The evaluation target's counts (null for a read of the results).
      target: r.target || 'result',
      evaluations: r.target === 'eval' ? { unannotatedRows: r.unannotatedRows || 0, gamesWithEvals: r.gamesWithEvals || 0,
        gamesWithoutEvals: r.gamesWithoutEvals || 0, malformedEvals: r.malformedEvals || 0 } : null,
      ...(m.committed ? { targetCompare: null } : {}),  // new data: the comparison is asked again
    });
  }
  worker.onmessage = (event) => {
    const m = /** @type {WorkerMessage} */ (event.data);  // structured clone: typed by PROTOCOL.md
    switch (m.type) {
      case 'ready': {
        const first = !materialist.workerReady;  // a restarted engine says ready again
        materialist.workerReady = true;
        if (first) followLink(openingLink);
        return;
      }
      case 'download':
        saveDownload(m);
        return;
      case 'state':
        setMirror(m.state, m.status);
        break;
      case 'report':
        mirrorReport(m);
        break;
      case 'settings':  // a read that did not commit: the kept data's settings are back
        updateResult({ settings: m.settings });
        break;
      case 'progress':
        updateResult({ progressGames: m.games });  // the status line's games (tests compare them)
        break;
      case 'balance':
        updateResult({ alpha: m.alpha ?? null });
        break;
      case 'fit-begin':
        updateResult({ solver: m.solver, preset: m.preset, values: null, loss: null, iterations: 0 });
        break;
      case 'snapshot':
        updateResult({ values: valuesObject(m.values), loss: m.loss, iterations: m.iteration });
        break;
      case 'fit-done':
        updateResult({
          values: valuesObject(m.snapshot.values), loss: m.snapshot.loss, iterations: m.snapshot.iteration,
          standardErrors: m.snapshot.valueSe ? valuesObject(m.snapshot.valueSe) : null,
          fits: (m.fits || []).map(fitSummary),
          differences: (m.differences || []).length,
        });
        break;
      case 'estimate': {
        const first = m.fits.length > 0 ? fitSummary(m.fits[0]) : null;
        updateResult({
          estimate: first && { games: m.games, rows: m.rows, values: first.values, standardErrors: first.standardErrors },
          estimates: Number(page.result.estimates || 0) + 1,
        });
        break;
      }
      case 'target-compare':
        updateResult({ targetCompare: { positions: m.positions, games: m.games, outcomes: m.outcomes,
          differenceErrors: m.differenceErrors, error: m.error || null, rows: m.rows } });
        break;
      case 'squares': {  // values by square: what tests compare (the app draws the tables)
        const squares = { error: m.squaresError ? m.squaresError.message : null, data: m.squaresData || null,
          validation: m.validation || null, material: m.squaresMaterial || null, tables: m.squares, se: m.squaresSe || null,
          positions: m.squaresPositions || null, seconds: m.seconds ?? null, live: Boolean(m.live) };
        // Live previews so far in this page, and the last one (tests count and read them).
        updateResult({ squares, squaresPreviews: Number(page.result.squaresPreviews || 0) + (m.live ? 1 : 0),
          lastSquaresPreview: m.live ? squares : page.result.lastSquaresPreview });
        break;
      }
      case 'error':
        page.readingOrigin = null;  // that read, if any, did not commit
        updateResult({ error: m.message });
        break;
      case 'reset':  // the settings stay (Reset sent the preset's)
        page.result = { settings: page.result.settings };
        updateResult({});
        break;
      default:
        break;
    }
    toApp(m);
  };

  // ---- the play-test's workers (play-page.js) ----

  const play = createPlayPool({
    toApp,
    updateResult,
    download,
    // "Learn from these games": the played games are read as a dropped file would be.
    readText: (name, text) => read([{ kind: 'file', file: new File([text], name, { type: 'application/x-chess-pgn' }) }]),
    share: (link) => {
      history.replaceState(null, '', `#${link}`);  // no hashchange: the test is not started again
      updateResult({ playLink: location.href });
      const text = 'Link in the address bar: it repeats this play-test';
      if (navigator.clipboard) navigator.clipboard.writeText(location.href).catch(() => {});
      updateResult({ toast: text });
      toApp({ type: 'toast', text });
    },
  });
  materialist.play = play.face;

  // ?readers=N sets how many workers read one large file in parallel (default: a core each, but
  // one left for the page); ?estimateMs=N how often a read's live estimate is made (default 500).
  const query = new URLSearchParams(location.search);
  const readers = Number(query.get('readers')) || 0;
  const estimateMs = Number(query.get('estimateMs')) || 0;
  /**
   * @param {Source[]} sources @param {Partial<Settings> | null} [settings] @param {boolean} [mine]
   * @param {boolean} [fromLink]  the opening link's read: its settings are the page's starting
   *   state, kept should the read fail (an action's are undone then)
   */
  function read(sources, settings, mine = true, fromLink = false) {
    if (sources.length === 0) return;
    updateResult({ error: null });
    const first = sources[0];
    // Where the data come from once this read commits (a failed read keeps the earlier data).
    page.readingOrigin = first.kind === 'player' ? { player: first, mine } : sources.length === 1 && first === SAMPLE ? 'sample'
      : sources.length === 1 && sources[0].kind === 'url'
        ? { url: sources[0].url, stats: /\.mstats$/i.test(sources[0].name || '') } : 'files';
    toWorker({
      type: 'read', sources, readers, ...(estimateMs > 0 ? { estimateMs } : {}), ...(settings ? { settings } : {}),
      ...(fromLink ? { fromLink } : {}),
    });
  }
  /** @param {FileList} files */
  function readFiles(files) {
    read(Array.from(files).map((file) => ({ kind: 'file', file })));
  }
  /** @param {Partial<Settings> | null} [settings] @param {boolean} [fromLink] */
  function loadSample(settings, fromLink = false) { read([SAMPLE], settings, true, fromLink); }

  // Follows a share link: reads the URL or the sample with its settings, or refits with them.
  /** @param {Link} link */
  function followLink(link) {
    if (link.error) {
      toApp({ type: 'error', message: link.error });
      updateResult({ error: link.error });
    }
    if (link.stats) {  // the worker reads a .mstats by its name
      let name = '';
      try {
        name = decodeURIComponent(new URL(link.stats, location.href).pathname.split('/').pop() ?? '');
      } catch { /* the default name */ }
      read([{ kind: 'url', url: link.stats, name: /\.mstats$/i.test(name) ? name : 'shared.mstats' }], link.settings, true, true);
    } else if (link.url) {
      let name = 'shared.pgn';
      try {
        name = decodeURIComponent(new URL(link.url, location.href).pathname.split('/').pop() ?? '') || name;
      } catch { /* keep the default name */ }
      read([{ kind: 'url', url: link.url, name }], link.settings, true, true);
    } else if (link.player) {
      read([link.player], link.settings, link.mine, true);
    } else if (link.sample) {
      loadSample(link.settings, true);
    } else if (link.settings) {
      toWorker({ type: 'fit', settings: link.settings });
    }
    if (link.files.length > 0 && !link.stats && !link.url && !link.player && !link.sample) {
      toApp({ type: 'link-files', files: link.files });  // which files to drop
      updateResult({ linkFiles: link.files });
    }
  }

  // Writes the link of the applied settings (the app's compact parameters, and the data's URL or
  // the sample) into the address bar without reloading, and into the clipboard when the browser
  // allows it; the app shows a toast either way.
  /** @param {Partial<Settings>} settings @param {string} query */
  function share(settings, query) {
    const parts = query ? [query] : [];
    if (page.dataOrigin === 'sample') parts.push('sample');
    if (page.dataOrigin && typeof page.dataOrigin === 'object' && 'player' in page.dataOrigin) {
      parts.push(playerLinkParts(page.dataOrigin.player, page.dataOrigin.mine));
    } else if (typeof page.dataOrigin === 'object' && page.dataOrigin) {
      parts.push(`${page.dataOrigin.stats ? 'stats' : 'url'}=${encodeURIComponent(page.dataOrigin.url)}`);
    } else if (page.dataOrigin === 'files') {
      // Local files cannot travel in a link: their names do, for the recipient to drop them.
      parts.push(...linkFileParts(/** @type {string[]} */ (page.result.files || [])));
    }
    history.replaceState(null, '', parts.length ? `#${parts.join('&')}` : location.pathname + location.search);  // no hashchange: no re-read
    updateResult({ settings, shareLink: location.href });
    clipboardWrite(location.href).then((copied) => toast(copied ? 'Link copied: it holds the applied settings'
      : 'Link in the address bar: it holds the applied settings'));
  }
  /** @param {string} text */
  function toast(text) {
    updateResult({ toast: text });
    toApp({ type: 'toast', text });
  }
  // Resolves true when the text went to the clipboard. A clipboard write can wait on a permission
  // that never comes (headless, some browsers): false after 800 ms.
  /** @param {string} text @returns {Promise<boolean>} */
  function clipboardWrite(text) {
    if (!navigator.clipboard) return Promise.resolve(false);
    return Promise.race([navigator.clipboard.writeText(text).then(() => true, () => false),
      new Promise((done) => { setTimeout(() => done(false), 800); })]);
  }

  // ---- commands from the app ----

  /** @param {AppCommand} command */
  function onAppCommand(command) {
    switch (command.type) {
      case 'open-files':
        fileInput.click();  // within the click's user activation
        break;
      case 'load-sample':  // with settings: a local files' link's filter left out (app_state.h)
        if (command.settings) updateResult({ settings: command.settings });
        loadSample(command.settings || null);
        break;
      case 'load-player': {  // the app's Player form; its settings hold the filter and read limit
        const base = new URLSearchParams(location.search).get(`${command.player.service}-base`);
        updateResult({ settings: command.settings });
        read([{ ...command.player, kind: 'player', ...(base ? { base } : {}) }], command.settings, command.mine);
        break;
      }
      case 'export':
        if (command.format === 'png') {
          // Called right after the frame was drawn: the drawing buffer still holds it.
          canvas.toBlob((blob) => blob && download(blob, 'materialist.png'), 'image/png');
        } else {
          toWorker({ type: 'export', format: command.format });
        }
        break;
      case 'share':
        share(command.settings, command.link);
        break;
      case 'fit':
        updateResult({ settings: command.settings });
        toWorker(command);
        break;
      case 'cancel':
        page.readingOrigin = null;  // a cancelled read does not commit
        toWorker(command);
        break;
      case 'units':  // the status line and the exports follow the values' unit
        updateResult({ settings: { ...(/** @type {object} */ (page.result.settings) || {}), units: command.units } });
        toWorker(command);
        break;
      case 'reset':  // the data are forgotten, the settings back to the preset's
        page.readingOrigin = null;
        page.dataOrigin = null;
        // The address forgets them too: a reload after Reset starts from the preset, not the link.
        history.replaceState(null, '', location.pathname + location.search);  // no hashchange
        updateResult({ settings: command.settings });
        toWorker(command);
        break;
      case 'compare-targets':  // both targets on the annotated positions: a target-compare comes back
        toWorker(command);
        break;
      case 'dismiss-error':
        if (mirror.dataset.state === 'error') setMirror('idle', 'Ready.');
        break;
      default:
        play.command(command);
        break;
    }
  }

  /** @param {Blob} blob @param {string} name */
  function download(blob, name) {
    materialist.downloads.push({ name, size: blob.size });
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = name;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 30000);
  }

  fileInput.addEventListener('change', () => {
    if (fileInput.files) readFiles(fileInput.files);
    fileInput.value = '';
  });

  listenForDrops(toApp, readFiles);  // page-input.js
  listenForPointer(canvas, toApp);

  window.addEventListener('hashchange', () => {
    if (isPlayLink(location.hash)) {
      toApp({ type: 'play-link', link: location.hash.slice(1) });
      return;
    }
    if (!materialist.workerReady) return;
    const link = parseLink(location.hash);
    if (link.settings) {
      toApp({ type: 'settings', settings: link.settings });
      updateResult({ settings: link.settings });
    }
    followLink(link);
  });

  // ---- the app ----

  /** @param {string} text */
  function fatal(text) {
    loading.hidden = true;
    element('fallback-text', HTMLElement).textContent = text;
    element('fallback', HTMLElement).hidden = false;
    setMirror('error', text);
  }

  if (typeof WebAssembly !== 'object') {
    fatal('This page needs WebAssembly, which this browser does not offer.');
    return;
  }
  if (!document.createElement('canvas').getContext('webgl2')) {
    fatal('This page needs WebGL 2, which this browser does not offer (or has disabled).');
    return;
  }

  const font = fetch('fonts/DejaVuSans.ttf')
    .then((response) => (response.ok ? response.arrayBuffer() : null))
    .catch(() => null);

  const appScript = document.createElement('script');
  appScript.src = 'materialist-app.js';
  appScript.onload = () => {
    font.then((bytes) => createMaterialistApp({
      canvas,
      materialistFont: bytes ? new Uint8Array(bytes) : undefined,
      materialistInbox: inbox,
      onAppCommand,
      onAppLayout: (buttons) => { materialist.ui.buttons = buttons; },
      print: (text) => console.log(text),
      printErr: (text) => console.error(text),
    })).then(() => {
      // A phone or tablet: files are chosen, not dropped, and targets are larger.
      inbox.push({ type: 'device', touch: matchMedia('(pointer: coarse)').matches && !matchMedia('(pointer: fine)').matches });
      inbox.push({ type: 'play-pool', workers: play.size });
      if (isPlayLink(location.hash)) inbox.push({ type: 'play-link', link: location.hash.slice(1) });
      if (sharedSettings) {
        inbox.push({ type: 'settings', settings: sharedSettings });
        updateResult({ settings: sharedSettings });
      }
      materialist.appReady = true;
      loading.hidden = true;
    }).catch((error) => fatal(`The app failed to start: ${error}`));
  };
  appScript.onerror = () => fatal('materialist-app.js could not be loaded.');
  document.head.appendChild(appScript);
}());
