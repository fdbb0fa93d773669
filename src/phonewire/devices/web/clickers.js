// Run in every page before its own scripts (walk.py's CLICKERS_JS): remembers, in a WeakSet the walk reads, the
// elements that get click-like listeners — what makes a <span> or <div> a button to a person.
(() => {
  const key = Symbol.for("phonewire.clickers");
  if (window[key]) return;
  const clickers = new WeakSet();
  Object.defineProperty(window, key, {value: clickers});
  const kinds = new Set(["click", "mousedown", "mouseup", "pointerdown", "pointerup", "touchstart", "touchend",
                         "dblclick"]);
  const add = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function (type, listener, options) {
    if (kinds.has(type) && this instanceof Element) clickers.add(this);
    return add.call(this, type, listener, options);
  };
})()
