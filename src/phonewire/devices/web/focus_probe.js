// The kind of the focused editable (descending into same-origin frames and shadow roots), "readonly" / "disabled"
// for a focused text field that takes no typing, or null; `el` is the focused element (active_element.js).
(el) => {
  if (!el) return null;
  if ((el.tagName === 'INPUT' || el.tagName === 'TEXTAREA') && (el.disabled || el.readOnly)) {
    return el.disabled ? 'disabled' : 'readonly';
  }
  if (el.disabled || el.readOnly) return null;
  if (el.isContentEditable) return 'contenteditable';
  if (el.tagName === 'TEXTAREA') return 'textarea';
  if (el.tagName === 'INPUT') {
    const t = (el.getAttribute('type') || 'text').toLowerCase();
    const ok = ['text','search','email','tel','url','password','number','date','time','datetime-local','month',
                'week','color'];
    return ok.includes(t) ? 'input:' + t : null;
  }
  return null;
}
