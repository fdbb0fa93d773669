// Resolves a task after the load event (pages.py's _LOADED says why a message, not a timer).
new Promise(r => {
  const done = () => { const c = new MessageChannel(); c.port1.onmessage = () => r(0); c.port2.postMessage(0); };
  document.readyState === 'complete' ? done() : addEventListener('load', done);
})
