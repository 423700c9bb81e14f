// page_state.js returns {visibility, popup, url, title, ready, mutatedAt,
// attendedAt, shownAt, skipped, watchedSince, now} for the document it
// runs in:
// document.visibilityState ("visible" for the tab in front of its window,
// "hidden" for the others), whether the browser opened the page as a
// popup window rather than a tab (its toolbar is not visible: the HTML
// standard's BarProp), location.href, document.title,
// document.readyState, and what js/watch.js recorded (installing it if the
// document predates the judge; skipped is how many elements it holds),
// with the current wall-clock time.
//
// The judge evaluates it in its own isolated world, where the page's
// scripts cannot replace the DOM methods and getters it reads.
(() => {
  const found = globalThis.__contractbenchWatch;
  const w = found?.doc === document ? found : { since: 0, mutatedAt: 0, attendedAt: 0, shownAt: 0 };
  return {
    visibility: document.visibilityState,
    popup: !window.toolbar.visible,
    url: location.href,
    title: document.title,
    ready: document.readyState,
    mutatedAt: w.mutatedAt,
    attendedAt: w.attendedAt,
    shownAt: w.shownAt,
    skipped: w.skipped ? w.skipped.size : 0,
    watchedSince: w.since,
    now: performance.timeOrigin + performance.now(),
  };
})()
