// page_state.js returns {visibility, url, title} for the document it runs
// in: document.visibilityState ("visible" for the tab in front of its
// window, "hidden" for the others), location.href and document.title.
//
// The judge evaluates it in its own isolated world, where the page's
// scripts cannot replace the DOM methods and getters it reads.
({
  visibility: document.visibilityState,
  url: location.href,
  title: document.title,
})
