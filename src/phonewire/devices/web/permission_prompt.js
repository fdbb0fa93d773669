// Run in every page before its own scripts (environment.py's PROMPT_JS): the permission prompt a page's request
// triggers.  A phone asks its user when a page first wants the position (navigator.geolocation.getCurrentPosition)
// or to send notifications (Notification.requestPermission): a system dialog, Allow or Don't Allow.  The headless
// browser asks nobody.  So each request tells the device first, in the same task (the binding `binding`: the
// permission's name and the request's number); the device shows its dialog when the phone has not decided that
// permission yet, and answers (`window[Symbol.for("phonewire.permission")](number)`) once it has — at once when it
// had, else after a tap on Allow or Don't Allow set it.  Then the page's own call runs, and the page sees the
// answer as the API gives it (a position or error 1; "granted" or "denied").
(binding) => {
  const key = Symbol.for("phonewire.permission");
  if (window[key]) return;
  const waiting = new Map();
  let next = 0;
  Object.defineProperty(window, key, {value: (number) => {
    const go = waiting.get(number);
    waiting.delete(number);
    if (go) go();
  }});
  const asked = (name) => new Promise((go) => {
    const tell = window[binding];
    if (typeof tell !== "function") { go(); return; }
    const number = ++next;
    waiting.set(number, go);
    tell(JSON.stringify({number, name}));
  });
  const geolocation = navigator.geolocation;
  if (geolocation) {
    const getCurrentPosition = geolocation.getCurrentPosition.bind(geolocation);
    geolocation.getCurrentPosition = function (...args) {
      asked("geolocation").then(() => getCurrentPosition(...args));
    };
  }
  if (typeof Notification === "function" && Notification.requestPermission) {
    const requestPermission = Notification.requestPermission.bind(Notification);
    Notification.requestPermission = function (...args) {
      return asked("notifications").then(() => requestPermission(...args));
    };
  }
}
