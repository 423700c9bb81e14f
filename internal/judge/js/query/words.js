// query/words.js: the text a person reads in an element, as segments
// that map back to the page's nodes, and whether anything in it is seen.

import { rgba } from '../lib/colour.js';
import { meet } from '../lib/shapes.js';
import { contentText } from '../lib/text.js';
import { flatChildren, flatParent, flatParentElement } from '../lib/tree.js';
import { minAlpha } from './limits.js';

const NONE = [];

// reading reads the page (doc and its window view) through every other
// part of the rules; text under minTextPx high is not read, nor the words
// refused (per node, the [start, end) ranges of its data the pixels
// showed unpainted; a pseudo-element's text by -1 for ::before or -2 for
// ::after). collect(el) is an element's seen text; skipping, the
// elements with content-visibility: auto around text not seen, filled as
// collect reads.
export const reading = (
  { doc, view, minTextPx, refused },
  { style, editable, ownAlpha, alpha, autoOf, isRendered },
  { boxClip, contentClip, areaOf, shows, readable },
  { noInk, blurred },
  { coveredBy, buried },
) => {
  const isRefused = (node, start, end) =>
    (refused.get(node) || NONE).some(([s, e]) => (s < 0 ? s === start : s < end && start < e));
  const skipping = new Set();

  // The text of a node as a person reads it, as segments {s, node, at}
  // (at: where s begins in the node's data; a segment without a node is a
  // separator): all of it, the words that are seen, or none. A node of
  // white space alone is the space between its neighbours' words.
  const range = doc.createRange();
  const WORD = /\S+/g;
  const SPACE = [{ s: ' ' }];
  const seenText = (node, el) => {
    const segs = seenTextOf(node, el);
    // Text not seen whole where the browser may be skipping what it holds
    // until it is near the viewport: read again once it is rendered.
    if (autoOf(el) && !(segs.length === 1 && segs[0].node) && segs !== SPACE) {
      for (let a = autoOf(el); a; a = autoOf(flatParentElement(a))) skipping.add(a);
    }
    return segs;
  };
  const seenTextOf = (node, el) => {
    const data = node.data;
    if (!/[^\s]/.test(data)) return data ? SPACE : NONE;
    if (!isRendered(el) || style(el).visibility !== 'visible' || noInk(el) || blurred(el)) return NONE;
    const clip = meet(contentClip(el), areaOf(el));
    range.selectNodeContents(node);
    let whole = !refused.has(node), any = false;
    for (const rect of range.getClientRects()) {
      if (rect.width < 1 || rect.height === 0) continue; // no glyph in it
      if (readable(rect, clip) && !coveredBy(rect, el)) {
        any = true;
      } else {
        whole = false;
        any = any || shows(rect, clip, 1, minTextPx);
      }
    }
    if (whole) return any ? [{ s: data, node, at: 0 }] : NONE;
    if (!any) return NONE;
    const seen = [];
    WORD.lastIndex = 0;
    for (let m; (m = WORD.exec(data)); ) {
      const end = m.index + m[0].length;
      let ok = !isRefused(node, m.index, end);
      if (ok) {
        range.setStart(node, m.index);
        range.setEnd(node, end);
        ok = false;
        for (const rect of range.getClientRects()) {
          if (readable(rect, clip) && !coveredBy(rect, el)) {
            ok = true;
            break;
          }
        }
      }
      // A word not seen separates the seen ones around it; the node's
      // own white space is kept where it is.
      if (ok) seen.push({ s: data.slice(m.index === 0 ? 0 : m.index - 1, end === data.length ? end : end + 1), node, at: m.index === 0 ? 0 : m.index - 1 });
      else seen.push({ s: ' ' });
    }
    return seen;
  };

  // generated is the text CSS generates in an element's ::before or
  // ::after, as a person sees it (strings, attr(), quotes; counters and
  // images are not read), or ''.
  const generated = (el, which) => {
    if (isRefused(el, which === '::before' ? -1 : -2)) return '';
    const p = view.getComputedStyle(el, which);
    const content = p.content;
    if (p.display === 'none' || p.visibility !== 'visible') return '';
    if (parseFloat(p.opacity) * alpha(el) < minAlpha) return '';
    const ink = rgba(p.webkitTextFillColor || p.color);
    if (ink !== null && ink[3] < minAlpha && !(parseFloat(p.webkitTextStrokeWidth) > 0)) return '';
    return contentText(content, (name) => el.getAttribute(name));
  };
  // A closed <details> shows only its summary; the browser hides the
  // rest in a shadow tree of its own, which the walk does not see.
  const summaryOf = (details) => Array.from(details.children).find((c) => c.localName === 'summary') || null;
  const closedDetails = (node) => node.nodeType === 1 && node.localName === 'details' && !node.open;
  const hiddenInDetails = (node) => {
    for (let child = node, p = flatParent(node); p && p.nodeType === 1; child = p, p = flatParent(p)) {
      if (closedDetails(p) && child !== summaryOf(p)) return true;
    }
    return false;
  };

  const blockish = (display) =>
    !(display.startsWith('inline') || display === 'contents' || display === 'ruby' || display === 'ruby-text');

  const fieldText = (el) => {
    if (el.localName === 'input') {
      const t = (el.type || '').toLowerCase();
      return t === 'submit' || t === 'button' || t === 'reset' ? el.value : '';
    }
    if (el.localName === 'select') {
      return Array.from(el.selectedOptions || [], (o) => o.text).join(' ');
    }
    return null;
  };

  // seenText walks an element's flat subtree and returns its seen text,
  // and whether anything in it is seen (text, or an element's own box).
  const ownBoxSeen = (el) => {
    if (!isRendered(el) || style(el).display === 'contents') return false;
    const clip = meet(boxClip(el), areaOf(flatParent(el)));
    for (const rect of el.getClientRects()) {
      if (shows(rect, clip, 2, 2) && !buried(rect, clip, el)) return true;
    }
    return false;
  };
  // collect walks an element's flat subtree and returns its seen text as
  // segments, and whether anything in it is seen (text, or an element's
  // own box).
  const NL = { s: '\n' };
  const collect = (el) => {
    const out = { text: [], seen: false };
    const walk = (node, parentEl) => {
      if (node.nodeType === 3) {
        const segs = parentEl ? seenText(node, parentEl) : NONE;
        for (const g of segs) out.text.push(g);
        if (segs.some((g) => g.node)) out.seen = true;
        return;
      }
      if (node.nodeType !== 1) return;
      const s = style(node);
      // Nothing below display:none, opacity:0 or an editable region is
      // seen; below visibility:hidden a child may be visible again.
      if (s.display === 'none' || ownAlpha(node) < minAlpha || editable(node)) return;
      if (node.localName === 'br') {
        out.text.push(NL);
        return;
      }
      const field = fieldText(node);
      if (field !== null) {
        if (ownBoxSeen(node)) {
          out.seen = true;
          if (field) out.text.push({ s: ' ' + field + ' ' });
        }
        return;
      }
      if (!out.seen && ownBoxSeen(node)) out.seen = true;
      // A drop cap floated beside its word is part of the word.
      const block = blockish(s.display) && !(s.cssFloat !== 'none' && node.textContent.trim().length === 1);
      if (block) out.text.push(NL);
      const rendered = isRendered(node);
      const pseudo = (which, code) => {
        const text = rendered ? generated(node, which) : '';
        if (!text) return;
        out.text.push(SPACE_IF_BLOCK(node, which), { s: text, node, at: code, pseudo: true }, SPACE_IF_BLOCK(node, which));
        out.seen = true;
      };
      pseudo('::before', -1);
      const summary = closedDetails(node) ? summaryOf(node) : undefined;
      for (const child of flatChildren(node)) {
        if (summary === undefined || child === summary) walk(child, node);
      }
      pseudo('::after', -2);
      if (block) out.text.push(NL);
    };
    for (let a = flatParent(el); a && a.nodeType === 1; a = flatParent(a)) {
      if (editable(a)) return out;
    }
    if (hiddenInDetails(el)) return out;
    walk(el, null);
    return out;
  };
  // A pseudo-element laid out as a block is a line of its own.
  const EMPTY = { s: '' };
  const SPACE_IF_BLOCK = (el, which) => (blockish(view.getComputedStyle(el, which).display) ? NL : EMPTY);
  return { collect, skipping };
};
