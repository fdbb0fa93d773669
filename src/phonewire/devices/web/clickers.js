// Run in every page before its own scripts (walk.py's CLICKERS_JS): remembers, in a WeakSet the walk reads, the
// elements that get click-like listeners — what makes a <span> or <div> a button to a person.
(() => {
  const key = Symbol.for("phonewire.clickers");
  if (window[key]) return;
  const clickers = new WeakSet();
  Object.defineProperty(window, key, {value: clickers});
  const kinds = new Set(["click", "mousedown", "mouseup", "pointerdown", "pointerup", "touchstart", "touchend",
                         "dblclick"]);
  // React (17 and later) listens to every event it supports on its root's container, to dispatch them to the tree
  // below: those listeners say nothing of the container itself (JupyterLab's dialog header, a React root holding a
  // title only, read as Button "Rename File" beside the real one).  Its sign: a listener for a media element's
  // event (volumechange) on an element that is none.
  const roots = new WeakSet();
  const add = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function (type, listener, options) {
    if (this instanceof Element) {
      if (type === "volumechange" && !(this instanceof HTMLMediaElement)) {
        roots.add(this);
        clickers.delete(this);
      } else if (kinds.has(type) && !roots.has(this)) {
        clickers.add(this);
      }
    }
    return add.call(this, type, listener, options);
  };
})()
