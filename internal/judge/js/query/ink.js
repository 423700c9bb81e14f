// query/ink.js: whether text leaves ink a person can read: its paint
// against the colours behind it, and blur.

import { contrast, rgba, transparent } from '../lib/colour.js';
import { flatContains, flatParent, flatParentElement, once } from '../lib/tree.js';
import { minAlpha, minContrast } from './limits.js';

// The colour behind everything: the canvas's, white.
const CANVAS = [[255, 255, 255, 1]];
const SVG = 'http://www.w3.org/2000/svg';

// inking reads an element's paint through drawing's style and own, and
// the boxes painted under it through covering's covers and above.
export const inking = ({ style, own }, { covers, above }) => {
  // The colours behind an element's text: those of the first opaque
  // background of it or an ancestor (a colour, or gradients of opaque
  // colours only), or null when an image or something translucent is in
  // the way (then the judge does not guess).
  const backdrop = (el) => {
    for (let e = el; e && e.nodeType === 1; e = flatParent(e)) {
      const s = style(e);
      const image = s.backgroundImage;
      if (image && image !== 'none') {
        if (image.includes('url(') || !image.includes('gradient(')) return null;
        const stops = (image.match(/rgba?\([^)]*\)/g) || []).map(rgba);
        if (stops.length === 0 || stops.some((c) => c === null || c[3] < 1)) return null;
        return stops;
      }
      const c = rgba(s.backgroundColor);
      if (c === null) return null;
      if (c[3] >= 1) return [c];
      if (c[3] > 0) return null;
    }
    return CANVAS;
  };
  // Text whose colour is (nearly) its background's: a contrast ratio under
  // minContrast, by WCAG's formula.
  // A positioned opaque box painted under the text (as on a hero banner)
  // is its backdrop too: text that blends into its ancestors' background
  // but not into such a box is seen.
  const blendsIn = (fill, el) => {
    const f = rgba(fill), bg = backdrop(el);
    if (f === null || bg === null || f[3] < 1) return false;
    if (!bg.every((c) => contrast(f, c) < minContrast)) return false;
    const b = el.getBoundingClientRect();
    return !covers().some(
      (cv) => cv.box.l <= b.left + 1 && cv.box.t <= b.top + 1 && cv.box.r >= b.right - 1 && cv.box.b >= b.bottom - 1 &&
        !flatContains(el, cv.el) && !above(cv.el, el) && contrast(f, rgba(style(cv.el).backgroundColor)) >= minContrast,
    );
  };
  const paintsText = (el) => {
    for (let e = el; e && e.nodeType === 1; e = flatParent(e)) {
      const s = style(e);
      if (s.backgroundClip === 'text' || s.webkitBackgroundClip === 'text') return true;
    }
    return false;
  };
  // A paint leaves ink when it is a colour neither (nearly) transparent
  // nor (nearly) the background's, or a paint server (url()).
  const inks = (paint, opacity, el) => paint !== 'none' && opacity >= minAlpha && !transparent(paint, minAlpha) && !(el && blendsIn(paint, el));
  const noInk = once((el) => {
    const s = style(el);
    if (el.namespaceURI === SVG) {
      // What an SVG shape paints behind its text is not a background:
      // only the pixels tell SVG text from what is behind it.
      return !inks(s.fill, parseFloat(s.fillOpacity), null) && !(parseFloat(s.strokeWidth) > 0 && inks(s.stroke, parseFloat(s.strokeOpacity), null));
    }
    return !inks(s.webkitTextFillColor || s.color, 1, el) &&
      !(parseFloat(s.webkitTextStrokeWidth) > 0 && inks(s.webkitTextStrokeColor, 1, el)) &&
      !paintsText(el);
  });

  // blurred tells text under a blur (its own filter and its ancestors',
  // combined as Gaussians combine) of at least a fifth of its font size.
  const blur2Of = once((el) => {
    const p = flatParentElement(el);
    return own(el).blur2 + (p ? blur2Of(p) : 0);
  });
  const blurred = (el) => {
    const b2 = blur2Of(el);
    return b2 > 0 && Math.sqrt(b2) >= parseFloat(style(el).fontSize) / 5;
  };
  return { backdrop, noInk, blurred };
};
