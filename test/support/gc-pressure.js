// Preloaded (`node --expose-gc --require …`) by tests only: forces a full garbage collection
// every 100 ms, so a timer or signal that nothing holds strongly is collected during a wait, as
// it would be at some point in a long-running server.
const collect = globalThis.gc;
if (typeof collect !== 'function') {
  throw new Error('gc-pressure needs node --expose-gc');
}
setInterval(() => collect(), 100).unref();
