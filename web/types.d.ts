// Types of the browser app's scripts, checked by TypeScript (tsconfig.json; `tsc -b`), never
// shipped: the messages of web/PROTOCOL.md (page ⇄ worker ⇄ readers, page ⇄ app), the settings,
// and the WebAssembly engine's Embind class (src/worker/engine_bindings.cpp,
// EMSCRIPTEN_BINDINGS). Shared by every realm (page, engine worker, reader worker): only types
// that exist both in lib.dom and in lib.webworker here; the page's own are in page.d.ts.
//
// The engine answers in JSON text (src/protocol/codec.h). `Json<T>` is text that holds a T: the
// engine's methods say what their text holds, and JSON.parse/JSON.stringify below carry the type
// across, so `JSON.parse(engine.progress())` is an EngineProgress and
// `engine.beginRead(JSON.stringify(options))` checks the options. This is the one seam between
// the C++ definitions (src/protocol/messages.h) and these: keep the two in step.

type Json<T> = string & { readonly __json?: T };
interface JSON {
  parse<T>(text: Json<T>): T;
  stringify<T>(value: T, replacer?: null, space?: string | number): Json<T>;
}

// ---- settings (share links, the app's controls) ----

type Preset = 'article' | 'exact' | 'custom';
type SolverName = 'gd' | 'newton';
type DatasetMode = 'merge' | 'per-file' | 'per-filter';

interface QuietOptions {
  plies: number;
  checksBreak: boolean;
  distinct: boolean;
  skipFirst: number;
}

interface ModelChoice {
  outcomes?: 'draws-out' | 'fractional' | 'ordinal';
  intercept?: boolean;
  bishopPair?: boolean;
  phase?: boolean;
  eloOffset?: boolean;
  sideToMove?: boolean;
  imbalance?: string;      // imbalance terms, comma-separated (learn/vocabulary/imbalance.h); absent: none
  splitSides?: boolean;    // own and opponent's pieces as separate columns
  squares?: boolean;       // values by square beside the material fit (the read keeps boards)
}

// Every setting the worker keeps (absent fields of a message keep these: DEFAULT_SETTINGS).
interface Settings {
  preset: Preset;
  solver: SolverName;
  step: number;
  iterations: number;
  lambda: number;
  draws: 'exclude' | 'half';
  unknown: 'draw' | 'skip';
  units: 'pawn' | 'elo' | 'logodds';
  bootstrap: number;
  seed: number;
  filter: string;
  datasets: DatasetMode;
  eachFilter: string[];
  quiet: QuietOptions;
  model?: ModelChoice;
  maxGames?: number;      // stop after this many games (0 or absent: all)
  maxMegabytes?: number;  // stop after the game being read at this many MB of the files
  target?: Target;        // what the fit predicts (absent: the game's result)
}
// The fit's target: the game's result, or the engine's [%eval] of each position.
type Target = 'result' | 'eval';

/** The row-key fields a read keeps (learn/stats/key_fields.h): what the model reads. */
interface KeyFields {
  bishopPair: boolean;
  phase: boolean;
  sideToMove: boolean;
  rating: boolean;
  counts?: boolean;  // each side's piece counts (imbalance and split-sides models only)
  boards?: boolean;  // each position's board (values by square only)
}
// The engine's read options: what decides which games and positions count.
interface ReadOptions {
  unknown: 'draw' | 'skip';
  filter: string;
  quiet: QuietOptions;
  bootstrap: number;
  seed: number;
  datasets: DatasetMode;
  eachFilter: string[];
  maxGames: number;
  maxMegabytes: number;
  target: Target;
  keep?: KeyFields;
  keepRows?: boolean;
  hashFiles?: boolean;
}

// ---- what the engine reports ----

// A source of a read: a dropped or picked File, or an address (the bundled sample, a share link).
// A player's games from a service (web/player-source.js): speed a lichess perfType ("blitz",
// "bullet,blitz"), dates "YYYY-MM-DD" (inclusive), base the service's address for tests.
interface PlayerSource {
  kind: 'player';
  service: 'lichess' | 'chesscom';
  user: string;
  speed?: string;
  rated?: boolean;
  since?: string;
  until?: string;
  base?: string;
}
type Source =
  | { kind: 'file'; file: File }
  | { kind: 'url'; url: string; name?: string; size?: number; player?: PlayerSource }
  | PlayerSource;

interface Counts {
  games: number;
  used: number;
  partial: number;
  skipped: number;
  rows: number;
}
// engine.progress(), and a reader's progress over its range.
interface EngineProgress extends Counts {
  bytes: number;
}

interface SkippedGame {
  file: string;
  line: number;
  game: number;
  reason: string;
}
interface DatasetSummary {
  name: string;
  games: number;
  used: number;
  filtered: number;
  rows: number;
}
// engine.report(): the data report; the worker adds the timing.
interface DataReport {
  stoppedAtLimit?: boolean;  // a read limit (maxGames, maxMegabytes) ended the read
  games: number;
  used: number;
  partial: number;
  skipped: number;
  filtered: number;
  filteredBy?: unknown;
  datasets?: DatasetSummary[];
  rows: number;
  drawRows: number;
  decisiveRows: number;
  whiteWinRows?: number;
  blackWinRows?: number;
  distinctRows?: number;
  bytes: number;
  plies?: number;
  files: string[];
  fileErrors: string[];
  skippedGames?: SkippedGame[];
  skippedTotal?: number;
  seconds?: number;
  mbps?: number;
  bytesRead?: number;
  helperSlices?: number;  // file slices read by the slice reader (web/slice-reader.js), not the engine worker
  readers?: number;  // the most parallel readers one file of the read had (1: every file read in order)
  // The evaluation target's counts (target 'eval' only): rows are the annotated positions.
  target?: Target;
  unannotatedRows?: number;
  gamesWithEvals?: number;
  gamesWithoutEvals?: number;
  malformedEvals?: number;
  // A read without rows: why, as a code and a sentence (learn/read/empty_read.h).
  emptyRead?: 'no-evaluations' | 'all-variants' | 'all-filtered' | 'no-rows';
  emptyReadMessage?: string;
}

interface BalanceBin {
  dm: number;
  white: number;
  draws: number;
  black: number;
}

interface Snapshot {
  iteration: number;
  dataset?: number;
  columns?: string[];
  theta: number[];
  values: number[];
  valueSe?: number[];
  loss: number;
  gradientNorm?: number;
}

interface Coefficient {
  name: string;
  label?: string;
  identified?: boolean;
  value: number | null;
  valueSe: number | null;
  elo: number | null;
  [field: string]: unknown;
}
// One dataset's fit (fit-done.fits).
interface Fit {
  name: string;
  used: number;
  rows: number;
  state?: 'fitted' | 'warnings' | 'failed';
  error?: string;
  errors?: string | null;
  warnings?: { code: string; message?: string }[];
  coefficients?: Coefficient[];
  [field: string]: unknown;
}
interface Difference {
  a: number;
  b: number;
  contrast: string;
  diff: number;
  se: number;
  p: number;
  bootstrapP?: number | null;
}

// ---- worker → page (the page forwards every one to the app's inbox) ----

type WorkerPhase = 'idle' | 'reading' | 'fitting' | 'done' | 'error';
type ReadyMessage = { type: 'ready' };
type StateMessage = { type: 'state'; state: WorkerPhase; status: string };
type ProgressMessage = {
  type: 'progress'; bytes: number; totalBytes: number; games: number; used: number;
  skipped: number; rows: number; mbps: number; eta: number; file: string; fileIndex: number;
  fileCount: number;
};
type ReportMessage = { type: 'report'; report: DataReport; committed: boolean };
type BalanceMessage = { type: 'balance'; bins: BalanceBin[]; alpha?: number | null; fitted?: boolean };
type FitBeginMessage = { type: 'fit-begin'; solver: SolverName; preset: Preset; planned: number; reason?: string };
type SnapshotMessage = { type: 'snapshot' } & Snapshot;
type FitDoneMessage = { type: 'fit-done'; snapshot: Snapshot; fits?: Fit[]; differences?: Difference[] };
// An exact fit of the data read so far (while reading): protocol::Estimate.
type EstimateMessage = { type: 'estimate'; games: number; rows: number; bytes: number; fits: Fit[] };
type ErrorMessage = { type: 'error'; message: string };
type DownloadMessage = { type: 'download'; name: string; blob: Blob; text?: string };
type ResetMessage = { type: 'reset' };
// The settings of the kept data again, after a read that asked for others did not commit.
type SettingsMessage = { type: 'settings'; settings: Settings };
// Both targets on the annotated positions (protocol::TargetCompare), values in pawn = 100.
interface TargetRow {
  name: string; label: string; identified: boolean; result: number | null; resultSe: number | null;
  eval: number | null; evalSe: number | null; difference: number | null; differenceSe: number | null;
}
type TargetCompareMessage = {
  type: 'target-compare'; positions: number; games: number; outcomes: string;
  differenceErrors: string; error?: string; rows: TargetRow[];
};
// Values by square (PROTOCOL.md): the kept positions' counts, the tables in log-odds, or why none.
type SquaresTables = { mg: Record<string, number[]>; eg: Record<string, number[]> };
type SquaresMessage = {
  type: 'squares';
  live?: boolean;  // a preview while the games stream in (a sample, one penalty)
  squaresData: { positionsOffered: number; positionsKept: number; sampled: boolean; maxPositions: number;
    drawsLeftOut: number; rowsWithoutBoard: number; trainingGames: number; heldOutGames: number };
  squares: SquaresTables | null; squaresSe?: SquaresTables; squaresPositions?: Record<string, number[]>;
  squaresMaterial?: Record<string, number>; squaresMinPositions?: number;
  validation?: { logLoss: number; materialLogLoss: number; games: number; positions: number; trainingPositions: number; lambda: number };
  squaresError?: { code: string; message: string }; target?: Target; seconds?: number;
};
type WorkerMessage =
  | ReadyMessage | StateMessage | ProgressMessage | ReportMessage | BalanceMessage
  | FitBeginMessage | SnapshotMessage | FitDoneMessage | EstimateMessage | ErrorMessage | DownloadMessage
  | ResetMessage | SettingsMessage | TargetCompareMessage | SquaresMessage;

// ---- page → worker ----

type ExportFormat = 'mat' | 'csv' | 'json' | 'provenance' | 'code'
  | 'squares-csv' | 'squares-code' | 'squares-json' | 'positions';
type PageMessage =
  | { type: 'read'; sources: Source[]; readers?: number; estimateMs?: number; settings?: Partial<Settings>; fromLink?: boolean }
  | { type: 'fit'; settings: Partial<Settings> }
  | { type: 'cancel' }
  | { type: 'export'; format: ExportFormat }
  | { type: 'compare-targets'; settings?: Partial<Settings> }
  | { type: 'units'; units: Settings['units'] }
  | { type: 'motion'; reduced: boolean }
  | { type: 'reset'; settings?: Partial<Settings> };

// ---- coordinator ⇄ readers (parallel reads) ----

// A reader's share of one file (engine.exportPart(), typed arrays transferred).
interface Part {
  keys: Uint32Array<ArrayBuffer>;
  counts: Float64Array<ArrayBuffer>;
  pairA: Uint32Array<ArrayBuffer>;
  pairB: Uint32Array<ArrayBuffer>;
  pairCounts: Float64Array<ArrayBuffer>;
  pairGames: Float64Array<ArrayBuffer>;
  report: Float64Array<ArrayBuffer>;  // the counters in part_bindings.cpp's order, for the way back
  // The counts the coordinator shows and offsets by.
  tally: { games: number; used: number; partial: number; skipped: number; rows: number };
  issues: { game: number; line: number; status: number; reason: number; detail: string; rowsKept: number }[];
  variants?: string[];  // the variants of the games filtered for their variant
  // A read that keeps boards: the positions kept for values by square (learn::SquaresRow bytes)
  // and their tally (part_bindings.cpp's order).
  squaresRows?: Uint8Array<ArrayBuffer>;
  squaresTally?: Float64Array<ArrayBuffer>;
}
// liveMs: post the range's live share (exportLivePart) at most this often, for the estimates.
type ReadRangeMessage = { type: 'read-range'; file: File; start: number; end: number; options: ReadOptions; liveMs?: number };
// A decompressed chunk of a compressed file (its buffer transferred), starting at a game.
type ReadChunkMessage = { type: 'read-chunk'; index: number; name: string; bytes: ArrayBuffer; options: ReadOptions };
type CoordinatorMessage = ReadRangeMessage | ReadChunkMessage;
// A reader's range-error as the coordinator throws it: readerHeapBytes says it was a reader's.
interface ReaderError extends Error { readerHeapBytes: number }
type RangeDoneMessage = { type: 'range-done'; part: Part; lines: number; error: FileEnd | null; progress: EngineProgress };
type ChunkDoneMessage = { type: 'chunk-done'; index: number; part: Part; lines: number; error: FileEnd | null };
// heapBytes: the reader's heap when it failed (an abort: out of memory, a bug); unreadable: the
// file could not be read (message from unreadableFile in file-slices.js).
type RangeErrorMessage = { type: 'range-error'; message: string; heapBytes?: number; unreadable?: boolean };
type ReaderMessage =
  | { type: 'range-progress'; progress: EngineProgress }
  | { type: 'range-live'; part: Part }
  | RangeDoneMessage
  | ChunkDoneMessage
  | RangeErrorMessage;

// ---- the slice reader: web/slice-reader.js, reading a file's slices for the engine worker ----

// Engine worker → slice reader: the bytes [start, end) of `file`, `sliceBytes` at a time, at
// most `ahead` slices before they were taken; then a `slice-taken` for each slice taken.
type SliceReadMessage = { type: 'read-slices'; file: Blob; start: number; end: number; sliceBytes: number; ahead: number };
type SliceRequest = SliceReadMessage | { type: 'slice-taken' };
// Slice reader → engine worker: the next slice (its buffer transferred), or why the file could
// not be read (the DOMException's name and message, e.g. NotReadableError).
type SliceReply =
  | { type: 'slice'; at: number; bytes: ArrayBuffer }
  | { type: 'slice-error'; name: string; message: string };

// ---- the engine: materialist-engine.js (Emscripten, MODULARIZE) ----

// The Embind class Engine (src/worker/engine_bindings.cpp). Chunks travel through one buffer:
// chunkBuffer(n) gives its address in HEAPU8, feed(pointer, n) parses what was copied there.
interface Engine {
  // A fallible call answers Json<T | EngineError>: its result ({} when none) or its error, which
  // web/engine-reply.js's engineReply decodes.
  beginRead(options: Json<ReadOptions>): Json<{} | EngineError>;  // why the read cannot start
  beginFile(name: string, size: number): void;
  addStats(name: string, pointer: number, length: number): Json<{} | EngineError>;  // why the .mstats cannot be read
  endStats(): Json<{} | EngineError>;  // why the statistics files added do not merge
  statsOptions(): Json<ReadOptions>;  // the data settings the statistics were made with
  chunkBuffer(capacity: number): number;
  feed(pointer: number, length: number): boolean;  // false: the file was rejected
  // A parallel reader's byte range, cut at game starts: no whole-file error but binary data at
  // the file's start (fileStart); the coordinator's endImport judges the file.
  beginRange(name: string, fileStart: boolean): void;
  endFile(): FileEnd | null;  // null: the file was read whole
  exportPart(): Part;
  lineBreaks(): number;  // after endFile: the line breaks its parser read (CR, LF, CRLF one each)
  beginImport(name: string): void;
  importPart(part: Part, lineOffset: number, gameOffset: number): void;
  endImport(bytes: number): FileEnd | null;  // a file without games (no-games), or null
  endRead(): boolean;  // committed: the read yielded rows
  cancelRead(): void;
  progress(): Json<EngineProgress>;
  report(): Json<DataReport>;
  balance(): Json<BalanceMessage>;
  beginFit(settings: Json<Settings>): Json<FitBeginMessage | EngineError>;  // error: the fit cannot start
  snapshot(): Json<SnapshotMessage>;
  step(iterations: number): Json<SnapshotMessage>;
  otherSnapshots(): Json<Snapshot[]>;
  fitFinished(): boolean;
  fitDone(): Json<FitDoneMessage>;
  takeMatText(): string;
  limitReached(): boolean;
  valuesCsv(): string;
  resultJson(): Json<Record<string, unknown>>;
  provenanceJson(): Json<Record<string, unknown>>;
  compareTargets(settings: Json<Settings>): Json<TargetCompareMessage | EngineError>;
  codeHeader(): string;
  fitSquares(settings: Json<Settings>): Json<SquaresMessage | EngineError>;
  squaresExport(name: string): string;  // "" without a fit
  squaresPositions(): string;           // labelled EPD lines, "" without boards
  statusLine(): string;
  setUnits(units: string): Json<{} | EngineError>;  // "pawn", "elo" or "logodds"
  bandFilters(spec: string, filter: string): Json<string[] | EngineError>;
  compressed(pointer: number, length: number): boolean;
  missingDigests(): number[];
  hashBegin(): void;
  hashFeed(pointer: number, length: number): void;
  hashEndInto(index: number): void;
  hasData(): boolean;
  reset(): void;
  heapBytes(): number;       // the WebAssembly heap now
  heapLimitBytes(): number;  // the most it may grow to
  // A reader's share so far, without issues; withSquares: a sample of its kept positions.
  exportLivePart(withSquares: boolean): Part;
  // A live preview of values by square with the readers' samples ("" when there is none yet).
  fitSquaresLive(parts: Part[], settings: Json<Settings>): Json<SquaresMessage | {} | EngineError>;
  // The estimate of everything read so far plus the readers' live shares.
  estimateWith(parts: Part[], settings: Json<Settings>): Json<EstimateMessage | EngineError>;
  endDecodedEntry(entry: string, bytes: number): void;  // a decoded file's entry, after its parts
  // The decoded file (its compressed bytes, entries, the decoder that read it): its end, null when read whole.
  endDecoded(bytes: number, entries: number, decoder: ChunkDecoder): FileEnd | null;
  delete(): void;  // Embind: frees the C++ object
}

// A fallible Engine call's error (web/engine-reply.js): the code (core/error.h's names) and the
// engine's words. The worker posts the words; it decides by the code, never by the words.
interface EngineError { type: 'error'; code: string; message: string }

// Why a file was not read to its end (Engine.endFile, endImport, endDecoded): the code
// (core/error.h: "empty-file", "not-text", "no-games", "no-usable-games", "unsupported-format",
// "corrupt-data", "truncated-data"), the engine's words, and whether the games before the problem
// are in the data. The worker decides by inPart, never by the words (the code is for tests and
// whoever needs the cause).
interface FileEnd { code: string; message: string; inPart: boolean }
// A file's problem as a read lists it: "name: message", and the FileEnd's inPart.
interface FileNote { text: string; inPart: boolean }

// A compressed file decoded into chunks cut at game starts (chunk_decoder_bindings.h).
interface DecodedPiece {
  kind: 'begin-file' | 'chunk' | 'end-file';
  file: string;                  // the file ("<zip>:<entry>" for a zip's entry)
  bytes: Uint8Array<ArrayBuffer>;  // chunk: its text (a copy: transferable)
  endsBeforeGameStart: boolean;  // chunk: false when cut inside a game
  fileBytes: number;             // end-file: the file's decompressed bytes
}
interface ChunkDecoder {
  buffer(capacity: number): number;  // an address in HEAPU8 for the next compressed bytes (0: no memory)
  feed(pointer: number, length: number): boolean;  // false once the decoder stopped (Engine.endDecoded says why)
  finish(): void;
  next(): DecodedPiece | null;
  delete(): void;
}

interface EngineModule {
  ChunkDecoder: new (name: string, targetChunkBytes: number) => ChunkDecoder;
  Engine: new () => Engine;
  HEAPU8: Uint8Array<ArrayBuffer>;  // replaced when memory grows: read it after chunkBuffer
}

declare function createMaterialistEngine(moduleArg?: object): Promise<EngineModule>;

// What web/out-of-memory.js says about a heap that ran out.
interface OutOfMemoryFacts {
  who: string;         // "The engine", "A parallel reader"
  heapBytes: number;   // its heap when it failed
  limitBytes: number;  // the most the heap may grow to (0: unknown)
  activity: string;    // "reading games.pgn", "fitting"
  bootstrap: boolean;  // bootstrap replicates were asked for (the advice names them)
  detail: string;      // the abort's own words
}
