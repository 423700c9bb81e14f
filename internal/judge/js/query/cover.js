// query/cover.js: the opaque boxes painted over text (positioned boxes
// above it in the painting order, and the backgrounds a negative z-index
// sinks it under), and whether one hides a piece of text or an element's
// box.

import { rgba } from '../lib/colour.js';
import { INF, boxOf, meet } from '../lib/shapes.js';
import { flatContains, flatParent, flatParentElement, once } from '../lib/tree.js';
import { minAlpha } from './limits.js';

const NONE = [];

// covering reads the page (doc, its window view, its open roots and the
// composed tree order orderOf() of its elements) through drawing's style,
// isRendered and alpha, and clipping's boxClip.
export const covering = ({ doc, view, roots, orderOf }, { style, isRendered, alpha }, { boxClip }) => {
  // createsContext tells a style that makes its element a stacking context
  // painted with the positioned boxes (z-index aside).
  const createsContext = (s) =>
    parseFloat(s.opacity) < 1 || s.transform !== 'none' || s.filter !== 'none' || s.isolation === 'isolate' ||
    s.mixBlendMode !== 'normal' || s.perspective !== 'none' || s.clipPath !== 'none' ||
    (s.maskImage && s.maskImage !== 'none') || /paint|layout|strict|content/.test(s.contain || '') ||
    s.position === 'fixed' || s.position === 'sticky';
  // zIndexOf is the z-index that applies to an element, or NaN.
  const zIndexOf = (el, s) => {
    const z = parseInt(s.zIndex, 10);
    if (isNaN(z)) return NaN;
    const p = flatParent(el);
    const applies = s.position !== 'static' || (p && p.nodeType === 1 && /flex|grid/.test(style(p).display));
    return applies ? z : NaN;
  };
  const opaqueBackground = (s) => {
    const c = rgba(s.backgroundColor);
    return c !== null && c[3] >= 1 - minAlpha;
  };

  // paintKey places an element in the root stacking context's painting
  // order, roughly: z is the z-index of its outermost ancestor (or itself)
  // that has one, layered whether it paints with the positioned boxes
  // (then later in tree order is painted over earlier) or in the flow,
  // below them.
  const paintKey = once((el) => {
    const p = flatParentElement(el);
    const up = p ? paintKey(p) : { z: 0, layered: false, fixed: false };
    if (up.fixed) return up;
    const s = style(el);
    const z = zIndexOf(el, s);
    return isNaN(z)
      ? { z: 0, layered: up.layered || s.position !== 'static' || createsContext(s), fixed: false }
      : { z, layered: true, fixed: true };
  });
  // above tells whether cover (positioned) is painted over el's text.
  const above = (cover, el) => {
    if (flatContains(cover, el)) return false; // a background is behind its own content
    const kc = paintKey(cover), kt = paintKey(el);
    if (kc.z !== kt.z) return kc.z > kt.z;
    if (kc.layered !== kt.layered) return kc.layered;
    if (!kc.layered) return false;
    return flatContains(el, cover) || orderOf().get(cover) > orderOf().get(el);
  };

  // The opaque boxes that may be painted over text: positioned, drawn
  // opaque, with an opaque background colour; a fixed one only when it
  // fills the viewport. Images are not read: they may be transparent.
  const inBar = once((el) => {
    const p = flatParentElement(el);
    return p !== null && (style(p).position === 'fixed' || style(p).position === 'sticky' || inBar(p));
  });
  const covers = once(() => {
    const coverList = [];
    for (const r of roots) {
      for (const el of r.querySelectorAll('*')) {
        const s = style(el);
        if (s.position === 'static' || s.position === 'sticky' || !opaqueBackground(s)) continue;
        if (!isRendered(el) || alpha(el) < 1 - minAlpha) continue;
        const box = meet(boxOf(el.getBoundingClientRect()), boxClip(el));
        if (box.r - box.l < 1 || box.b - box.t < 1) continue;
        if (s.position === 'fixed') {
          // A wall that fills the viewport stays over whatever is
          // scrolled under it: it covers the whole page.
          if (!(box.l <= 0 && box.t <= 0 && box.r >= view.innerWidth && box.b >= view.innerHeight)) continue;
          coverList.push({ el, box: INF });
          continue;
        }
        // What a bar fixed or stuck to the screen holds moves with it:
        // a person scrolls text out from under it as from under the bar.
        if (inBar(el)) continue;
        coverList.push({ el, box });
      }
    }
    return coverList;
  });

  // sunkUnder lists the boxes of the opaque backgrounds painted over an
  // element's text because a negative z-index sinks it below them: those
  // of the ancestors of the sunk box inside its stacking context (the
  // root's background, and the body's when it is the canvas's, are
  // painted first).
  const sinker = once((el) => {
    if (zIndexOf(el, style(el)) < 0) return el;
    const p = flatParentElement(el);
    return p ? sinker(p) : null;
  });
  const sunkUnder = (el) => {
    const e = sinker(el);
    return e === null ? NONE : sunkBelow(e);
  };
  const sunkBelow = once((e) => {
    const r = [];
    const root = doc.documentElement;
    const bodyIsCanvas = !opaqueBackground(style(root)) && style(root).backgroundImage === 'none';
    for (let a = flatParent(e); a && a.nodeType === 1 && a !== root; a = flatParent(a)) {
      const s = style(a);
      if (createsContext(s) || !isNaN(zIndexOf(a, s))) break;
      if (a === doc.body && bodyIsCanvas) continue;
      if (opaqueBackground(s)) r.push(meet(boxOf(a.getBoundingClientRect()), boxClip(a)));
    }
    return r;
  });

  // coveredBy tells whether an opaque box painted over el hides part of a
  // piece of its text: more than 1px of its width, half its height.
  const coveredBy = (rect, el) => {
    const hides = (box) =>
      Math.min(rect.right, box.r) - Math.max(rect.left, box.l) > 1 &&
      Math.min(rect.bottom, box.b) - Math.max(rect.top, box.t) >= rect.height / 2;
    for (const box of sunkUnder(el)) if (hides(box)) return true;
    for (const c of covers()) if (hides(c.box) && above(c.el, el)) return true;
    return false;
  };
  // buried tells whether the seen part of an element's box lies wholly
  // under an opaque box painted over it.
  const buried = (rect, clip, el) => {
    const c = meet(boxOf(rect), clip);
    const holds = (box) => box.l <= c.l + 1 && box.t <= c.t + 1 && box.r >= c.r - 1 && box.b >= c.b - 1;
    return sunkUnder(el).some(holds) || covers().some((cv) => holds(cv.box) && above(cv.el, el));
  };
  return { above, covers, sunkUnder, coveredBy, buried };
};
