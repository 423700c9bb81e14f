// query/draw.js: whether an element is drawn at all: its computed style
// (read once), whether it is in an editable region, how opaque it is drawn
// (alpha), and whether it is rendered.

import { transparent } from '../lib/colour.js';
import { flatParentElement, once } from '../lib/tree.js';
import { minAlpha } from './limits.js';

// drawing reads the page's elements through view (its window) and knows
// whether the whole document is editable (designMode).
export const drawing = ({ view, designMode }) => {
  const style = once((el) => view.getComputedStyle(el));

  const editable = (el) => designMode || el.isContentEditable === true;

  // alpha is how opaque an element is drawn: the product of its own and
  // its ancestors' opacity, filter: opacity() and mask. An element's own
  // drawing is read once: its opacity and the radius of its own blur.
  const own = once((el) => {
    const s = style(el);
    let a = parseFloat(s.opacity), blur2 = 0;
    if (isNaN(a)) a = 1;
    const filter = s.filter;
    if (filter && filter !== 'none') {
      const re = /(opacity|blur)\(\s*([\d.]+)(%|px)?\s*\)/g;
      for (let m; (m = re.exec(filter)); ) {
        if (m[1] === 'blur') blur2 += parseFloat(m[2]) ** 2;
        else a *= m[3] === '%' ? parseFloat(m[2]) / 100 : parseFloat(m[2]);
      }
    }
    if (maskedOut(s.maskImage)) a = 0;
    return { alpha: a, blur2 };
  });
  const ownAlpha = (el) => own(el).alpha;
  // maskedOut tells a mask that lets nothing through: gradients only, and
  // every colour in them (nearly) transparent. An image mask is not read.
  // (-webkit-mask-image is the same property.)
  const maskedOut = (mask) => {
    if (!mask || mask === 'none' || mask.includes('url(') || !mask.includes('gradient(')) return false;
    const colours = mask.match(/rgba?\([^)]*\)|transparent/g) || [];
    return colours.length > 0 && colours.every((c) => transparent(c, minAlpha));
  };
  const alpha = once((el) => {
    const p = flatParentElement(el);
    return ownAlpha(el) * (p ? alpha(p) : 1);
  });

  // autoOf is the nearest of el and its ancestors with content-visibility:
  // auto, or null: the browser skips what such an element holds while it
  // is far from the viewport.
  const autoOf = once((el) => {
    if (!el) return null;
    if (style(el).contentVisibility === 'auto') return el;
    return autoOf(flatParentElement(el));
  });

  // rendered: the element has a box that is not hidden by display,
  // visibility, opacity (down to minAlpha) or content-visibility. An
  // element with display:contents has no box; its children decide.
  const isRendered = once((el) => {
    const s = style(el);
    let r;
    if (s.display === 'contents') {
      const p = flatParentElement(el);
      r = s.visibility === 'visible' && (!p || isRenderedAncestor(p));
    } else {
      r = el.checkVisibility({ visibilityProperty: true });
    }
    // Opacity is alpha's: checkVisibility would only catch exactly 0.
    return r && alpha(el) >= minAlpha && !turnedAway(el);
  });
  // turnedAway tells an element with backface-visibility: hidden, or
  // inside one, whose transform shows its back.
  const turnedAway = once((el) => {
    const s = style(el);
    if (s.backfaceVisibility === 'hidden' && s.transform && s.transform !== 'none') {
      try {
        if (new DOMMatrixReadOnly(s.transform).m33 < 0) return true;
      } catch (e) {
        // A transform it cannot read turns nothing away.
      }
    }
    const p = flatParentElement(el);
    return p !== null && turnedAway(p);
  });
  // An ancestor of a display:contents element only needs to be rendered
  // as a box holder: visibility is inherited and opacity is alpha's.
  const isRenderedAncestor = (el) => {
    const s = style(el);
    if (s.display === 'contents') {
      const p = flatParentElement(el);
      return !p || isRenderedAncestor(p);
    }
    return el.checkVisibility();
  };
  return { style, editable, own, ownAlpha, alpha, autoOf, isRendered, turnedAway };
};
