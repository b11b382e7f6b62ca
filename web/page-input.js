// @ts-check
// The page's input (loaded by index.html before page.js): files dropped anywhere on the page, the
// mouse wheel and touches over the canvas, handed to the app's inbox as its messages (drag, wheel)
// or as the mouse events Emscripten's GLFW reads. Every listener is on the window, in the capture
// phase: before Emscripten's handlers.
'use strict';

/**
 * Files dragged over and dropped anywhere on the page.
 * @param {(message: AppInboxMessage) => void} toApp
 * @param {(files: FileList) => void} readFiles  what a drop of files starts
 */
function listenForDrops(toApp, readFiles) {
  // Drag and drop anywhere on the page. Capture-phase listeners on window run before
  // Emscripten's GLFW canvas handlers, and stop the drop there: GLFW would otherwise read every
  // dropped file whole into memory.
  let dragDepth = 0;  // dragenter minus dragleave events: 0 when the drag left the page

  /** @param {DragEvent} event @returns {event is DragEvent & {dataTransfer: DataTransfer}} */
  const carriesFiles = (event) =>
    Boolean(event.dataTransfer && Array.from(event.dataTransfer.types || []).includes('Files'));
  window.addEventListener('dragenter', (event) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    dragDepth += 1;
    toApp({ type: 'drag', over: true, count: event.dataTransfer.items ? event.dataTransfer.items.length : 0 });
  }, true);
  window.addEventListener('dragover', (event) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    event.stopPropagation();
    event.dataTransfer.dropEffect = 'copy';
  }, true);
  window.addEventListener('dragleave', (event) => {
    if (!carriesFiles(event)) return;
    dragDepth = Math.max(0, dragDepth - 1);
    if (dragDepth === 0) toApp({ type: 'drag', over: false });
  }, true);
  window.addEventListener('drop', (event) => {
    event.preventDefault();
    event.stopPropagation();
    dragDepth = 0;
    toApp({ type: 'drag', over: false });
    if (event.dataTransfer && event.dataTransfer.files.length) readFiles(event.dataTransfer.files);
  }, true);
}

/**
 * The mouse wheel and touches over the canvas.
 * @param {HTMLCanvasElement} canvas @param {(message: AppInboxMessage) => void} toApp
 */
function listenForPointer(canvas, toApp) {
  // Mouse wheel: normalised here (Emscripten 3.1.6's GLFW passes raw pixels with the wrong sign)
  // and handed to the app as notches, positive = up, as GLFW and ImGui count them.
  const WHEEL_PIXELS_PER_NOTCH = 100;
  window.addEventListener('wheel', (event) => {
    if (event.target !== canvas) return;
    event.stopPropagation();
    const scale = event.deltaMode === 1 ? 1 / 3 : event.deltaMode === 2 ? 10 : 1 / WHEEL_PIXELS_PER_NOTCH;
    toApp({ type: 'wheel', x: -event.deltaX * scale, y: -event.deltaY * scale });
  }, { capture: true, passive: true });

  // Touch: one finger dragged over the canvas scrolls what is under it (sent as wheel notches:
  // the app's panels scroll as under a mouse wheel); a tap is a click. Emscripten's GLFW would
  // take a touch for a held mouse button (no scrolling), so touches stop here and become mouse
  // events the page makes. Two fingers are left to the browser (pinch zoom); A− / A+ in the app
  // change the text size.
  /** @type {{x: number, y: number, moved: boolean} | null} */
  let touchFrom = null;
  const TOUCH_PIXELS_PER_NOTCH = 40;
  /** @param {string} type @param {number} x @param {number} y */
  const mouse = (type, x, y) => canvas.dispatchEvent(new MouseEvent(type, {
    bubbles: true, cancelable: true, clientX: x, clientY: y, screenX: x, screenY: y, button: 0, buttons: type === 'mousedown' ? 1 : 0,
  }));
  window.addEventListener('touchstart', (event) => {
    if (event.target !== canvas) return;
    event.stopPropagation();
    if (event.touches.length !== 1) {
      touchFrom = null;
      return;
    }
    event.preventDefault();  // no emulated mouse events after it: the page makes its own
    const touch = event.touches[0];
    touchFrom = { x: touch.clientX, y: touch.clientY, moved: false };
    mouse('mousemove', touch.clientX, touch.clientY);  // what is under the finger is hovered
  }, { capture: true, passive: false });
  window.addEventListener('touchmove', (event) => {
    if (event.target !== canvas) return;
    event.stopPropagation();
    if (!touchFrom || event.touches.length !== 1) return;
    event.preventDefault();
    const touch = event.touches[0];
    const dx = touch.clientX - touchFrom.x;
    const dy = touch.clientY - touchFrom.y;
    if (!touchFrom.moved && Math.hypot(dx, dy) < 8) return;  // still a tap
    touchFrom = { x: touch.clientX, y: touch.clientY, moved: true };
    toApp({ type: 'wheel', x: dx / TOUCH_PIXELS_PER_NOTCH, y: dy / TOUCH_PIXELS_PER_NOTCH });
  }, { capture: true, passive: false });
  /** @param {TouchEvent} event */
  const touchEnd = (event) => {
    if (event.target !== canvas) return;
    event.stopPropagation();
    const tap = touchFrom && !touchFrom.moved && event.type === 'touchend' ? touchFrom : null;
    touchFrom = null;
    if (!tap) return;
    event.preventDefault();
    mouse('mousedown', tap.x, tap.y);
    // Released a frame later: ImGui sees the press, then the release (a click).
    requestAnimationFrame(() => requestAnimationFrame(() => mouse('mouseup', tap.x, tap.y)));
  };
  window.addEventListener('touchend', touchEnd, { capture: true, passive: false });
  window.addEventListener('touchcancel', touchEnd, { capture: true, passive: false });
}
