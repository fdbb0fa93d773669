// Run in every page before its own scripts (environment.py's PROMPT_JS): the permission prompt a page's request
// triggers.  A phone asks its user when a page first wants the position (navigator.geolocation.getCurrentPosition,
// watchPosition), to send notifications (Notification.requestPermission) or the camera and microphone
// (navigator.mediaDevices.getUserMedia): a system dialog, Allow or Don't Allow.  The headless
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
    // A watch's id is the page's at once, as the API returns it; the browser's watch starts once the phone decided
    // (cleared before that, it never starts).
    const watchPosition = geolocation.watchPosition.bind(geolocation);
    const clearWatch = geolocation.clearWatch.bind(geolocation);
    const watches = new Map();
    let watch = 0;
    geolocation.watchPosition = function (...args) {
      const id = ++watch;
      watches.set(id, null);
      asked("geolocation").then(() => { if (watches.has(id)) watches.set(id, watchPosition(...args)); });
      return id;
    };
    geolocation.clearWatch = function (id) {
      const real = watches.get(id);
      watches.delete(id);
      if (real !== null && real !== undefined) clearWatch(real);
    };
  }
  // The headless browser captures only with its own prompt answered for it (browser.py's fake UI, which says yes
  // whatever the phone decided): a permission the phone denies is the page's NotAllowedError here, as the
  // browser's would be.
  const media = navigator.mediaDevices;
  const query = navigator.permissions && navigator.permissions.query.bind(navigator.permissions);
  if (media && media.getUserMedia && query) {
    const getUserMedia = media.getUserMedia.bind(media);
    media.getUserMedia = function (constraints, ...rest) {
      const c = constraints || {};
      const name = c.video && c.audio ? "camera+microphone" : c.video ? "camera" : c.audio ? "microphone" : "";
      if (!name) return getUserMedia(constraints, ...rest);  // (the API's own TypeError)
      return asked(name).then(async () => {
        for (const each of name.split("+")) {
          if ((await query({name: each})).state === "denied") {
            throw new DOMException("Permission denied", "NotAllowedError");
          }
        }
        return getUserMedia(constraints, ...rest);
      });
    };
  }
  if (typeof Notification === "function" && Notification.requestPermission) {
    const requestPermission = Notification.requestPermission.bind(Notification);
    Notification.requestPermission = function (...args) {
      return asked("notifications").then(() => requestPermission(...args));
    };
  }
}
