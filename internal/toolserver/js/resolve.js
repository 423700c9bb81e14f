// resolve.js is called in the isolated world with a ref number. It returns
// the element that ref names (as a remote object, so the tool server can
// scroll to it, measure it and send input to it), or a string saying why
// there is none: "unknown" (this document never issued the ref) or
// "removed" (a script took the element out of the document).
function (ref) {
  return globalThis.__ts.lookup(ref);
}
