// watch.js runs in the judge's isolated world at the start of every
// document of a page (Page.addScriptToEvaluateOnNewDocument), and again
// when the judge first reads a document that was loaded before it
// attached. It returns nothing; it keeps, out of reach of the page's own
// scripts, in globalThis.__contractbenchWatch:
//   mutatedAt   when the DOM last changed (any mutation of the document);
//   attendedAt  when the page last received trusted input or focus (a
//               click, a key, a wheel turn, a touch, the window brought to
//               the front): where the agent last acted;
//   since       when watching started.
// Times are on the wall clock in milliseconds (performance.timeOrigin +
// performance.now()), comparable across pages.
(() => {
  if (globalThis.__contractbenchWatch) return;
  const now = () => performance.timeOrigin + performance.now();
  const w = { since: now(), mutatedAt: now(), attendedAt: 0 };
  globalThis.__contractbenchWatch = w;
  new MutationObserver(() => {
    w.mutatedAt = now();
  }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  const attend = (e) => {
    if (e.isTrusted) w.attendedAt = now();
  };
  for (const type of ['pointerdown', 'mousedown', 'keydown', 'input', 'wheel', 'touchstart', 'focus']) {
    addEventListener(type, attend, { capture: true, passive: true });
  }
})();
