// Typing read back (readback.py), `focused` being active_element.js: 'mark' keeps the focused text field before
// the keys and answers what it holds; 'read' answers, once the page's queued tasks ran, the kept field's value
// and selection (null: it left the page or lost focus).
(mode, focused) => {
  if (mode === 'read') {
    return new Promise(resolve => setTimeout(resolve, 0)).then(() => {
      const kept = window.__phonewireTyped;
      window.__phonewireTyped = null;
      const el = focused();
      if (!kept || !kept.isConnected || kept !== el) return null;
      let start = null, end = null;
      try { start = kept.selectionStart; end = kept.selectionEnd; } catch (err) {}
      return {value: kept.value, start, end};
    });
  }
  const el = focused();
  window.__phonewireTyped = null;
  if (!el || (el.tagName !== 'INPUT' && el.tagName !== 'TEXTAREA')) return null;
  window.__phonewireTyped = el;
  let start = null, end = null;
  try { start = el.selectionStart; end = el.selectionEnd; } catch (err) {}
  return {value: el.value, start, end, multiline: el.tagName === 'TEXTAREA',
          secret: (el.getAttribute('type') || '').toLowerCase() === 'password'};
}
