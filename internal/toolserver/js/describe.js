// describe.js is called on an element (this). It returns the element as the
// snapshot reports a control (see snapshot.Control in Go), with
// visible: whether a user could see it now, and
// covered: "" when a click at (x, y) would reach it, otherwise a short
// description of the element that would receive the click instead. x and y
// are viewport coordinates; pass -1 to skip the hit test.
function (x, y) {
  const ts = globalThis.__ts;
  const el = this;
  const role = ts.role(el, getComputedStyle(el)) || (ts.region(el) ? 'region' : el.localName);
  const c = ts.control(el, role);
  c.visible = ts.visible(el);
  c.covered = '';
  // Only elements of this document share the viewport's coordinates; one
  // in a shadow tree is hit-tested in its tree, or the host would hide it.
  if (x >= 0 && el.ownerDocument === document) {
    const root = el.getRootNode();
    const hit = (root instanceof ShadowRoot ? root : document).elementFromPoint(x, y);
    const reaches = (h) => {
      // Walk up through shadow roots, and accept a label clicking through
      // to its control or a control's own label.
      for (let e = h; e; e = e.parentElement || e.getRootNode().host) {
        if (e === el) return true;
        if (e.localName === 'label' && e.control === el) return true;
        if (el.localName === 'label' && el.control === e) return true;
      }
      return false;
    };
    if (!hit) {
      c.covered = 'nothing (the point is outside the page)';
    } else if (!reaches(hit)) {
      let d = '<' + hit.localName;
      if (hit.id) d += ' id="' + hit.id + '"';
      else if (hit.classList.length) d += ' class="' + Array.from(hit.classList).slice(0, 3).join(' ') + '"';
      d += '>';
      const text = ts.text(hit).slice(0, 80);
      if (text) d += ' "' + text + '"';
      c.covered = d;
    }
  }
  return c;
}
