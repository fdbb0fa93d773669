// The page's change mark (changes.js): document id, changes counted, URL.
(() => {
  const s = window[Symbol.for("phonewire.changes")];
  return (s ? s.doc + ":" + s.n : "-") + ":" + location.href;
})()
