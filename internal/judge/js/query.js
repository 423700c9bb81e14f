// query.js is a function of (selectors, maxTexts, maxChars) that returns,
// for each CSS selector in order, either {count, texts} or {error}:
//   count  the number of elements document.querySelectorAll matches;
//   texts  the innerText of the first maxTexts matches in document order,
//          each cut to at most maxChars UTF-16 units (the judge cuts the
//          UTF-8 bytes further), never splitting a surrogate pair;
//   error  the message of the exception an invalid selector throws.
//
// The judge calls it in its own isolated world, so a page that overrides
// Document.prototype.querySelectorAll or innerText changes only its own
// world, not what the judge sees.
function (selectors, maxTexts, maxChars) {
  const cut = (s) => {
    if (s.length <= maxChars) return s;
    let end = maxChars;
    const last = s.charCodeAt(end - 1);
    if (last >= 0xd800 && last <= 0xdbff) end--;
    return s.slice(0, end);
  };
  return selectors.map((selector) => {
    let found;
    try {
      found = document.querySelectorAll(selector);
    } catch (e) {
      return { error: String(e && e.message ? e.message : e) };
    }
    const texts = [];
    for (let i = 0; i < found.length && i < maxTexts; i++) {
      const el = found[i];
      // innerText exists on HTML elements; SVG and MathML have only
      // textContent.
      const text = typeof el.innerText === 'string' ? el.innerText : el.textContent;
      texts.push(cut(text || ''));
    }
    return { count: found.length, texts };
  });
}
