/* The page's few messages upward: a module that must have the state read again, or another
 * screen shown, says so here, and main.js hands each message to the module that owns it. So
 * no module imports one above it, and the modules form no cycle (KioskPageFilesTests checks). */

const handlers = new Map();

/** Sets the one handler of `name` (main.js, at start). */
export function on(name, handler) {
  handlers.set(name, handler);
}

/** Hands `args` to the handler of `name`; a message nobody handles yet is dropped. */
export function emit(name, ...args) {
  const handler = handlers.get(name);
  return handler ? handler(...args) : undefined;
}
