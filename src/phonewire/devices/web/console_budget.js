// Run in every page before its own scripts (observe.py's CONSOLE_BUDGET_JS): a page's console, on a budget.  Every
// console call of a page reaches phonewire as a DevTools event through the browser's pipe; a page that logs without
// end (20 lines of 20 KB on every timer tick) filled the pipe faster than the runner could read it, and every other
// app of the phone waited behind it (a launch took 16 s).  So in each second the first `perSecond` calls pass at
// once; of the rest only the newest `perSecond` are held (the log keeps the newest, as the device's ring does), each
// string argument cut to `argChars` characters as the log would keep it.  The held calls are let through when the
// second is over, or when phonewire reads the log (window[Symbol.for("phonewire.consoleBudget")]() — so a read
// never misses the newest), after one line that says how many calls were dropped (`marker` and the count: the
// device counts them among the log's dropped entries).
(perSecond, argChars, marker) => {
  const key = Symbol.for("phonewire.consoleBudget");
  if (window[key]) return;
  const held = new Array(perSecond);
  let start = -Infinity, used = 0, next = 0, count = 0, dropped = 0, timer = 0;
  const log = console.log;
  const flush = () => {
    clearTimeout(timer);
    timer = 0;
    if (dropped) log.call(console, marker + dropped);
    const first = next - count;
    for (let i = 0; i < count; i++) {
      const [real, self, args] = held[(first + i + perSecond) % perSecond];
      real.apply(self, args);
    }
    held.fill(undefined);
    next = count = dropped = 0;
  };
  Object.defineProperty(window, key, {value: flush});
  const cut = (arg) => {
    if (typeof arg !== "string" || arg.length <= argChars) return arg;
    const end = `…[truncated: ${arg.length} chars]`;
    return arg.slice(0, Math.max(0, argChars - end.length)) + end;
  };
  for (const name of ["log", "info", "warn", "error", "debug", "trace", "dir", "dirxml", "table"]) {
    const real = console[name];
    if (typeof real !== "function") continue;
    console[name] = function (...args) {
      const now = performance.now();
      if (now - start >= 1000) {
        if (count) flush();
        start = now;
        used = 0;
      }
      if (used < perSecond) {
        used++;
        return real.apply(this, args.map(cut));
      }
      if (count === perSecond) dropped++;
      else count++;
      held[next] = [real, this, args.map(cut)];
      next = (next + 1) % perSecond;
      if (!timer) timer = setTimeout(flush, Math.max(0, 1000 - (now - start)));
      return undefined;
    };
  }
}
