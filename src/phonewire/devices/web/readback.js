// Typing read back (readback.py), `focused` being active_element.js: 'mark' keeps the focused text field before
// the keys, and the values of the document's other text fields, and answers what the field holds; 'read' answers,
// once the page's queued tasks ran, the kept field's value and selection (value null: it left the page or lost focus) and the
// other fields the keys changed (`strays`: the page moved focus to them while the text was typed, and the rest
// went there) — unless the field was full (its maxlength reached: a one-time-code row moving the typing on);
// 'undo' sets the kept field and the strays back to what they held at 'mark' (input and change events fired).
(mode, focused) => {
  const MAX_FIELDS = 500;
  const NOT_TEXT = new Set(['hidden', 'checkbox', 'radio', 'submit', 'button', 'reset', 'file', 'image', 'range',
    'color']);
  const set = (el, value) => {
    const proto = el.tagName === 'TEXTAREA' ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
    Object.getOwnPropertyDescriptor(proto, 'value').set.call(el, value);
    el.dispatchEvent(new Event('input', {bubbles: true}));
    el.dispatchEvent(new Event('change', {bubbles: true}));
  };
  const said = (el) => {
    const name = el.getAttribute('aria-label') || (el.labels && el.labels[0] ? el.labels[0].textContent : '') ||
      el.getAttribute('placeholder') || '';
    return el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
      (name ? ` "${name.replace(/\s+/g, ' ').trim().slice(0, 60)}"` : '');
  };
  if (mode === 'undo') {
    const mark = window.__phonewireTypedMark;
    window.__phonewireTypedMark = null;
    if (!mark) return false;
    for (const [el, was] of mark.fields) if (el.isConnected && el.value !== was) set(el, was);
    if (mark.kept.isConnected && mark.kept.value !== mark.value) set(mark.kept, mark.value);
    return true;
  }
  if (mode === 'read') {
    return new Promise(resolve => setTimeout(resolve, 0)).then(() => {
      const mark = window.__phonewireTypedMark;
      const kept = window.__phonewireTyped;
      window.__phonewireTyped = null;
      if (!kept) return null;
      const el = focused(), kept_focus = kept.isConnected && kept === el;
      const full = kept.maxLength > 0 && kept.value.length >= kept.maxLength;
      // (a field the page fills from the typed one while it keeps focus — a slug from a title — is no stray)
      const strays = kept_focus || full || !mark ? [] :
        mark.fields.filter(([f, was]) => f.isConnected && f.value !== was)
          .map(([f, was]) => ({field: said(f), was: was, now: f.value, secret: f.type === 'password'}));
      let start = null, end = null;
      if (kept_focus) try { start = kept.selectionStart; end = kept.selectionEnd; } catch (err) {}
      return {value: kept_focus ? kept.value : null, start, end, strays, field: said(kept)};
    });
  }
  const el = focused();
  window.__phonewireTyped = null;
  window.__phonewireTypedMark = null;
  if (!el || (el.tagName !== 'INPUT' && el.tagName !== 'TEXTAREA')) return null;
  window.__phonewireTyped = el;
  const fields = [];
  for (const f of el.ownerDocument.querySelectorAll('input, textarea')) {
    if (f !== el && fields.length < MAX_FIELDS && !NOT_TEXT.has((f.type || '').toLowerCase())) fields.push([f, f.value]);
  }
  window.__phonewireTypedMark = {kept: el, value: el.value, fields};
  let start = null, end = null;
  try { start = el.selectionStart; end = el.selectionEnd; } catch (err) {}
  return {value: el.value, start, end, multiline: el.tagName === 'TEXTAREA',
          secret: (el.getAttribute('type') || '').toLowerCase() === 'password'};
}
