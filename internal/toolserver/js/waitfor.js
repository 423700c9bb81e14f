// waitfor.js is called in the isolated world, repeatedly, by the wait_for
// tool. It returns true when the page shows text (case-insensitive, in the
// rendered text of the body) or has a visible element matching the CSS
// selector, false while it does not, and {error: "..."} for a selector the
// browser cannot parse.
function (text, selector) {
  const ts = globalThis.__ts;
  if (selector) {
    let els;
    try {
      els = document.querySelectorAll(selector);
    } catch (e) {
      return { error: String(e.message || e) };
    }
    for (const el of els) if (ts.visible(el)) return true;
    return false;
  }
  const body = document.body;
  if (!body) return false;
  return ts.collapse(body.innerText || '').toLowerCase().includes(text.toLowerCase());
}
