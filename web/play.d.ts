// The play-test's types (web/PROTOCOL.md, "Play-test"): the play module (materialist-play.js,
// src/worker/play_bindings.cpp), the play worker's messages, and the page's play pool
// (web/play-page.js).

interface PlayPlayer {
  start(task: string): string;  // "" or why the task was refused
  step(moves: number): boolean;  // true once the pair has ended
  finished(): boolean;
  board(): string;   // JSON: {task, game, fen, lastMove, san, openingPlies, white, black, ply}
  result(): string;  // JSON: the pair's result (src/play/task_codec.h)
  nodes(): number;
  delete(): void;
}
interface PlayModule {
  Player: new () => PlayPlayer;
}
declare function createMaterialistPlay(moduleArg?: object): Promise<PlayModule>;

// Page → play worker.
type PlayWorkerCommand = { type: 'play-task'; task: string };
// Play worker → page.
type PlayWorkerMessage =
  | { type: 'play-ready' }
  | { type: 'play-board'; board: string }
  | { type: 'play-result'; result: string; nodes: number; ms: number }
  | { type: 'play-error'; message: string };

// Page → app (the play pool forwards the workers' messages with their number).
type PlayInboxMessage =
  | { type: 'play-pool'; workers: number }
  | { type: 'play-link'; link: string }
  | ({ type: 'play-board'; worker: number } & Record<string, unknown>)
  | { type: 'play-result'; worker: number; result: string }
  | { type: 'play-error'; worker: number; message: string };

// App → page.
type PlayAppCommand =
  | { type: 'play-task'; worker: number; task: string }
  | { type: 'play-stop' }
  | ({ type: 'play-status' } & Record<string, unknown>)
  | { type: 'save'; name: string; mime: string; text: string }
  | { type: 'play-learn'; name: string; text: string }
  | { type: 'play-share'; link: string };

interface PlayFace {
  workers: number;   // the pool's size
  started: number;   // workers started
  results: number;   // pair results received
  nodes: number;     // nodes searched in them
  workerMs: number;  // the workers' time on them
  stops: number;     // play-stop commands (cancel or a match's end)
}

interface PlayPoolHooks {
  toApp(message: PlayInboxMessage): void;
  updateResult(fields: Record<string, unknown>): void;
  download(blob: Blob, name: string): void;
  readText(name: string, text: string): void;
  share(link: string): void;
}
interface PlayPool {
  size: number;
  command(command: PlayAppCommand): boolean;
  stop(): void;
  face: PlayFace;
}
