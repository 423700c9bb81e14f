// editable.js is called on an element (this) before the type tool sends key
// events to it. It checks that the element takes text, focuses it and
// selects its current content, so the keys that follow replace it. It
// returns {error: "why not"} when the element cannot take text, otherwise
// {length: how many characters were selected}.
function () {
  const el = this;
  const tag = el.localName;
  const noText = new Set(['button', 'submit', 'reset', 'image', 'checkbox', 'radio', 'file', 'hidden', 'range', 'color']);
  let length = 0;
  if (tag === 'input' || tag === 'textarea') {
    if (tag === 'input' && noText.has(el.type)) return { error: 'it is an input of type ' + el.type + ', which takes no typed text' };
    if (el.disabled) return { error: 'it is disabled' };
    if (el.readOnly) return { error: 'it is read-only' };
    el.focus();
    el.select();
    length = el.value.length;
  } else if (el.isContentEditable) {
    el.focus();
    const range = el.ownerDocument.createRange();
    range.selectNodeContents(el);
    const sel = el.ownerDocument.getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
    length = sel.toString().length;
  } else {
    return { error: 'it is a ' + (el.getAttribute('role') || tag) + ', not a text field (input, textarea or contenteditable)' };
  }
  // In a shadow tree the document's active element is the host; the
  // tree's own is the element.
  const active = el.getRootNode().activeElement;
  if (active !== el && !el.contains(active)) {
    return { error: 'it did not take the focus' };
  }
  return { length };
}
