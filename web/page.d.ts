// The page's own types (the DOM realm; web/types.d.ts has the shared ones): the canvas app's
// module factory (materialist-app.js, Emscripten MODULARIZE, src/app/web_seam.cpp) and the
// page's public face, window.materialist (web/PROTOCOL.md).

interface ButtonRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

// Page → app: the worker's messages, and the page's own.
type AppInboxMessage =
  | WorkerMessage
  | { type: 'drag'; over: boolean; count?: number }
  | { type: 'settings'; settings: Partial<Settings> }
  | { type: 'wheel'; x: number; y: number }
  | { type: 'toast'; text: string }
  | { type: 'link-files'; files: string[] }
  | { type: 'device'; touch: boolean }
  | PlayInboxMessage;  // web/play.d.ts

// App → page: Module.onAppCommand(command).
type AppCommand =
  | { type: 'open-files' }
  | { type: 'load-sample'; settings?: Partial<Settings> }
  | { type: 'load-player'; player: Omit<PlayerSource, 'kind' | 'base'>; mine: boolean; settings: Partial<Settings> }
  | { type: 'export'; format: ExportFormat | 'png' }
  | { type: 'share'; settings: Partial<Settings>; link: string }
  | { type: 'fit'; settings: Partial<Settings> }
  | { type: 'cancel' }
  | { type: 'reset'; settings: Partial<Settings> }
  | { type: 'units'; units: Settings['units'] }
  | { type: 'dismiss-error' }
  | { type: 'compare-targets'; settings: Partial<Settings> }
  | PlayAppCommand;  // web/play.d.ts

interface AppModuleOptions {
  canvas: HTMLCanvasElement;
  materialistFont?: Uint8Array;
  materialistInbox: AppInboxMessage[];  // emptied by the app once per frame
  onAppCommand(command: AppCommand): void;
  onAppLayout(buttons: Record<string, ButtonRect>): void;
  print(text: string): void;
  printErr(text: string): void;
}
declare function createMaterialistApp(options: AppModuleOptions): Promise<unknown>;

// window.materialist: for tests and curious users.
interface MaterialistFace {
  ui: { buttons: Record<string, ButtonRect> };
  downloads: { name: string; size: number }[];
  reads: number;
  appReady: boolean;
  workerReady: boolean;
  play?: PlayFace;  // the play pool's counts (web/play-page.js)
}
interface Window {
  materialist: MaterialistFace;
}
