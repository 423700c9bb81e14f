// query/clip.js: where an element can be seen: the area a person can
// scroll the page over, the boxes its ancestors clip it to, what a scroll
// container lets a person scroll into view, and whether a piece of text
// keeps enough of itself to be read.

import { INF, boxOf, clipPathBox, meet } from '../lib/shapes.js';
import { flatParentElement, once } from '../lib/tree.js';

// clipping reads the page (doc, its window view, scrolled as it is now)
// through drawing's style; text under minTextPx high is not read.
export const clipping = ({ doc, view, minTextPx }, { style }) => {
  const root = doc.scrollingElement || doc.documentElement;
  const sx = view.scrollX, sy = view.scrollY;

  // The area a person can scroll the page over, in page coordinates: the
  // document's scroll size, or on an axis where the viewport does not
  // scroll (overflow hidden or clip on the root, or on the body when the
  // root leaves it visible) what is in view.
  const page = (() => {
    const html = doc.documentElement;
    let ov = html ? view.getComputedStyle(html) : null;
    if (ov && ov.overflowX === 'visible' && ov.overflowY === 'visible' && doc.body) ov = view.getComputedStyle(doc.body);
    const fixedOn = (o) => ov !== null && (o === 'hidden' || o === 'clip');
    const w = Math.max(root ? root.scrollWidth : 0, view.innerWidth);
    const h = Math.max(root ? root.scrollHeight : 0, view.innerHeight);
    return {
      l: fixedOn(ov && ov.overflowX) ? sx : 0, r: fixedOn(ov && ov.overflowX) ? sx + view.innerWidth : w,
      t: fixedOn(ov && ov.overflowY) ? sy : 0, b: fixedOn(ov && ov.overflowY) ? sy + view.innerHeight : h,
    };
  })();

  // The box an element's ancestors clip its own box to (in viewport
  // coordinates), following CSS containing blocks.
  const boxClip = once((el) => {
    const pos = style(el).position;
    // Fixed to the viewport: never scrolled into view from outside it.
    if (pos === 'fixed') return { l: 0, t: 0, r: view.innerWidth, b: view.innerHeight };
    let anc = flatParentElement(el);
    if (pos === 'absolute') {
      while (anc && style(anc).position === 'static') anc = flatParentElement(anc);
    }
    return anc ? contentClip(anc) : INF;
  });
  // scrolling tells, for each axis, whether an element is a scroll
  // container on it (not the root or the body: those scroll the
  // viewport) that shows enough of itself to scroll what it holds into
  // view (free), or too little (shut).
  const NO = { x: false, y: false };
  const scrolling = once((el) => {
    const s = style(el);
    const x = s.overflowX === 'auto' || s.overflowX === 'scroll';
    const y = s.overflowY === 'auto' || s.overflowY === 'scroll';
    if (!(x || y) || el === doc.documentElement || el === doc.body || s.display === 'contents') return { free: NO, shut: NO };
    const seen = meet(boxClip(el), boxOf(el.getBoundingClientRect()));
    const okX = el.clientWidth >= minTextPx && seen.r - seen.l >= minTextPx;
    const okY = el.clientHeight >= minTextPx && seen.b - seen.t >= minTextPx;
    return { free: { x: x && okX, y: y && okY }, shut: { x: x && !okX, y: y && !okY } };
  });

  // emptyClip tells an SVG <clipPath> with no shape in it.
  const emptyClip = (id) => {
    const target = doc.getElementById(id);
    if (!target || target.localName !== 'clipPath') return false;
    return !Array.from(target.children).some((c) => c.localName !== 'title' && c.localName !== 'desc' && style(c).display !== 'none');
  };

  // The box an element clips its content to: its own clip (overflow on
  // each axis, the clip property) within the clip of its own box.
  const contentClip = once((el) => {
    let c = boxClip(el);
    const s = style(el);
    // A scroll container clips what it holds to its box, but a person
    // scrolls what it hides into the part of it that shows: on an axis it
    // scrolls, what it holds is cut by nothing outside it. One too small
    // to show a line, or shown less than that, shows nothing it holds.
    const sc = scrolling(el);
    if (sc.free.x) c = { l: -Infinity, t: c.t, r: Infinity, b: c.b };
    if (sc.free.y) c = { l: c.l, t: -Infinity, r: c.r, b: Infinity };
    // Paint containment clips like overflow: clip.
    const contained = /paint|strict|content/.test(s.contain || '') || s.contentVisibility === 'auto';
    const clipsX = (contained && !sc.free.x) || s.overflowX === 'hidden' || s.overflowX === 'clip' || sc.shut.x;
    const clipsY = (contained && !sc.free.y) || s.overflowY === 'hidden' || s.overflowY === 'clip' || sc.shut.y;
    const clipProp = s.clip && s.clip !== 'auto' && (s.position === 'absolute' || s.position === 'fixed');
    const clipPath = s.clipPath && s.clipPath !== 'none';
    if ((clipsX || clipsY || clipProp || clipPath) && s.display !== 'contents') {
      const b = el.getBoundingClientRect();
      if (clipPath) c = meet(c, clipPathBox(s.clipPath, b, emptyClip));
      if (clipsX) c = meet(c, { l: b.left, t: -Infinity, r: b.right, b: Infinity });
      if (clipsY) c = meet(c, { l: -Infinity, t: b.top, r: Infinity, b: b.bottom });
      if (clipProp) {
        const m = /rect\(\s*([^,\s)]+)[,\s]+([^,\s)]+)[,\s]+([^,\s)]+)[,\s]+([^,\s)]+)\s*\)/.exec(s.clip);
        if (m) {
          const v = (x, auto) => (x === 'auto' ? auto : parseFloat(x));
          c = meet(c, {
            l: b.left + v(m[4], 0), t: b.top + v(m[1], 0),
            r: b.left + v(m[2], b.width), b: b.top + v(m[3], b.height),
          });
        }
      }
    }
    return c;
  });

  // Whether a rectangle, cut by clip, is at least w by h.
  const shows = (rect, clip, w, h) => {
    const c = meet(boxOf(rect), clip);
    return c.r - c.l >= w && c.b - c.t >= h;
  };

  // The area a person can bring into view, in viewport coordinates: the
  // page's, but free on an axis where a scroll container the element is
  // in (or is), one big enough to show a line, scrolls.
  const pageArea = { l: page.l - sx, t: page.t - sy, r: page.r - sx, b: page.b - sy };
  const axesOf = once((el) => {
    const p = flatParentElement(el);
    const a = p ? axesOf(p) : NO;
    const free = scrolling(el).free;
    return (free.x && !a.x) || (free.y && !a.y) ? { x: a.x || free.x, y: a.y || free.y } : a;
  });
  const areaOf = (el) => {
    const a = el && el.nodeType === 1 ? axesOf(el) : NO;
    return {
      l: a.x ? -Infinity : pageArea.l, r: a.x ? Infinity : pageArea.r,
      t: a.y ? -Infinity : pageArea.t, b: a.y ? Infinity : pageArea.b,
    };
  };

  // readable tells whether a piece of text's box, cut by clip, keeps its
  // whole width (less than the narrowest letter may go: 20% of the line's
  // height, at least 1px) and at least half its height, at least minTextPx
  // high.
  const readable = (rect, clip) => {
    const c = meet(boxOf(rect), clip);
    return c.r - c.l >= Math.max(1, rect.width - Math.max(1, 0.2 * rect.height)) && c.b - c.t >= Math.max(minTextPx, rect.height / 2);
  };
  return { boxClip, contentClip, scrolling, shows, areaOf, readable };
};
