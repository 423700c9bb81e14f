// watch.js runs in the judge's isolated world at the start of every
// document of a page (Page.addScriptToEvaluateOnNewDocument), again when
// the page's main frame commits a document (the browser does not run the
// new-document scripts of an isolated world in every document: not in the
// document that replaces a window's first, empty one, as window.open and
// a link to a new tab do, which also keeps the window's globals, nor, in
// a headless shell, in the first document of a page another page opened),
// and when the judge reads a document. It returns nothing; it keeps, for
// the document it runs in and out of reach of the page's own scripts, in
// globalThis.__contractbenchWatch:
//   mutatedAt   when the DOM last changed (any mutation of the document);
//   attendedAt  when the page last received trusted input (a click, a key,
//               text typed in, a wheel turn, a touch): where the agent
//               last acted. Focus is not input: a page focuses itself
//               (autofocus, focus(), window.focus()) and the browser
//               focuses a window it opens, with trusted focus events all;
//   shownAt     when the page was last brought to the front of its window
//               (a trusted visibilitychange to visible): a page cannot do
//               that to itself, the agent's tool server can
//               (Target.activateTarget, Page.bringToFront), and so can
//               closing the tab in front of it;
//   skipped     the elements with content-visibility: auto whose content
//               the browser skips because it is far from the viewport, as
//               the browser reports them (contentvisibilityautostatechange:
//               at the start and at each change);
//   since       when watching started;
//   doc         the document watched: a record found from another
//               document is replaced, and the listeners are the
//               document's, so they go with it.
// Times are on the wall clock in milliseconds (performance.timeOrigin +
// performance.now()), comparable across pages.
(() => {
  if (globalThis.__contractbenchWatch?.doc === document) return;
  const now = () => performance.timeOrigin + performance.now();
  const w = { since: now(), mutatedAt: now(), attendedAt: 0, shownAt: 0, skipped: new Set(), doc: document };
  globalThis.__contractbenchWatch = w;
  new MutationObserver(() => {
    w.mutatedAt = now();
  }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  const attend = (e) => {
    if (e.isTrusted) w.attendedAt = now();
  };
  for (const type of ['pointerdown', 'mousedown', 'keydown', 'input', 'wheel', 'touchstart']) {
    document.addEventListener(type, attend, { capture: true, passive: true });
  }
  document.addEventListener('visibilitychange', (e) => {
    if (e.isTrusted && document.visibilityState === 'visible') w.shownAt = now();
  }, { capture: true, passive: true });
  document.addEventListener('contentvisibilityautostatechange', (e) => {
    if (!e.isTrusted) return;
    if (e.skipped) w.skipped.add(e.target);
    else w.skipped.delete(e.target);
  }, { capture: true, passive: true });
})();
