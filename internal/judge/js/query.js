// query.js is a function of (queries, maxTexts, maxChars, minTextPx) that
// returns, for each query {selector, contains} in order, either
// {count, hidden, texts, cut, found} or {error}:
//   count   the number of matches a person can see (the rules below);
//   hidden  the number of the other matches;
//   texts   the visible text of the first maxTexts visible matches, white
//           space folded, each cut to at most maxChars UTF-16 units, never
//           splitting a surrogate pair;
//   cut     true when texts is not all the visible text of all the
//           visible matches;
//   found   for each string of contains (already white-space folded), in
//           order, [match, excerpt]: the 1-based index of the first
//           visible match whose folded visible text contains it, searched
//           over every match and the whole text, or 0; and the folded
//           text around the first occurrence;
//   error   the message of the exception an invalid selector throws.
//
// A selector matches in the document and in every open shadow root, in
// the order of the composed tree.
//
// What a person sees, decided in the judge's isolated world (the page's
// scripts cannot replace what it calls):
//   - Text is the data of text nodes in the composed (flat) tree: open
//     shadow roots are entered, slots show what is assigned to them. CSS
//     text-transform is not applied. A <br> and the edges of block-level
//     boxes separate words. Form fields contribute the label of a button
//     (<input type=submit|button|reset>) and the chosen option of a
//     <select>, never what was typed.
//   - A word of a text node is seen when its element is rendered
//     (checkVisibility, with opacity and visibility, drawn at least 5%
//     opaque counting the opacity, filter: opacity() and a mask made only
//     of transparent gradients of every ancestor, and not a back face
//     turned away), its ink is neither (nearly) transparent nor (nearly)
//     the colour of the opaque background behind it (contrast ratio under
//     1.2; unless its background paints the text; the fill and stroke of
//     SVG text), it is not blurred by a radius of a fifth of its font size
//     or more, and its box, cut by every ancestor box that clips it
//     (overflow hidden or clip, paint containment, a scroll container too
//     small to show a line, the clip property, a clip-path's shape or an
//     empty SVG clipPath; absolute and fixed boxes escape the clipping of
//     the boxes they are not inside, and fixed boxes are cut to the
//     viewport) and by the area the page can be scrolled to (not at
//     negative coordinates, not beyond the document's scroll size), keeps
//     its whole width and at least half its height, at least minTextPx
//     high; and no opaque box is painted over it (a positioned box with an
//     opaque background colour that the painting order puts above the
//     text, or the opaque background of an ancestor of text sunk under it
//     by a negative z-index; a fixed box only when it fills the viewport,
//     since a person scrolls text out from under a fixed header). A text
//     node whose words are all seen is seen whole; otherwise only its seen
//     words are, in order: text cut off after a line, behind an ellipsis
//     or off the page's edge is not evidence.
//   - A closed <details> shows only its <summary>.
//   - Nothing inside an editable region (contenteditable, designMode)
//     counts: text the agent typed is not evidence of the page.
//   - An element is seen when it is rendered, not in an editable region,
//     and either its own box, clipped as above, is at least 2px by 2px and
//     not wholly under an opaque box painted over it, or it holds seen text
//     or a seen element.
function (queries, maxTexts, maxChars, minTextPx) {
  // Below this opacity (or colour alpha) nothing is seen, and text whose
  // contrast with its background is below minContrast is not read.
  const minAlpha = 0.05;
  const minContrast = 1.2;
  const doc = document;
  const view = doc.defaultView;
  const root = doc.scrollingElement || doc.documentElement;
  const pageW = Math.max(root ? root.scrollWidth : 0, view.innerWidth);
  const pageH = Math.max(root ? root.scrollHeight : 0, view.innerHeight);
  const sx = view.scrollX, sy = view.scrollY;
  const designMode = doc.designMode === 'on';

  const styles = new Map();
  const style = (el) => {
    let s = styles.get(el);
    if (s === undefined) {
      s = view.getComputedStyle(el);
      styles.set(el, s);
    }
    return s;
  };

  // The parent in the flat tree: the slot an element is assigned to, or
  // the host of a shadow root.
  const flatParent = (node) => {
    if (node.assignedSlot) return node.assignedSlot;
    const p = node.parentNode;
    if (!p) return null;
    if (p.nodeType === 11) return p.host || null;
    return p;
  };

  // The children in the flat tree.
  const flatChildren = (node) => {
    if (node.nodeType === 1) {
      if (node.shadowRoot) return node.shadowRoot.childNodes;
      if (node.localName === 'slot' && typeof node.assignedNodes === 'function') {
        const assigned = node.assignedNodes();
        if (assigned.length > 0) return assigned;
      }
    }
    return node.childNodes;
  };

  const editable = (el) => designMode || el.isContentEditable === true;

  // alpha is how opaque an element is drawn: the product of its own and
  // its ancestors' opacity, filter: opacity() and mask. An element's own
  // drawing is read once: its opacity and the radius of its own blur.
  const alphas = new Map();
  const owns = new Map();
  const own = (el) => {
    let o = owns.get(el);
    if (o !== undefined) return o;
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
    o = { alpha: a, blur2 };
    owns.set(el, o);
    return o;
  };
  const ownAlpha = (el) => own(el).alpha;
  // maskedOut tells a mask that lets nothing through: gradients only, and
  // every colour in them (nearly) transparent. An image mask is not read.
  // (-webkit-mask-image is the same property.)
  const maskedOut = (mask) => {
    if (!mask || mask === 'none' || mask.includes('url(') || !mask.includes('gradient(')) return false;
    const colours = mask.match(/rgba?\([^)]*\)|transparent/g) || [];
    return colours.length > 0 && colours.every(transparent);
  };
  const alpha = (el) => {
    let a = alphas.get(el);
    if (a !== undefined) return a;
    const p = flatParent(el);
    a = ownAlpha(el) * (p && p.nodeType === 1 ? alpha(p) : 1);
    alphas.set(el, a);
    return a;
  };

  // rendered: the element has a box that is not hidden by display,
  // visibility, opacity (down to minAlpha) or content-visibility. An
  // element with display:contents has no box; its children decide.
  const rendered = new Map();
  const isRendered = (el) => {
    let r = rendered.get(el);
    if (r !== undefined) return r;
    const s = style(el);
    if (s.display === 'contents') {
      const p = flatParent(el);
      r = s.visibility === 'visible' && (!p || p.nodeType !== 1 || isRenderedAncestor(p));
    } else {
      r = el.checkVisibility({ visibilityProperty: true });
    }
    // Opacity is alpha's: checkVisibility would only catch exactly 0.
    r = r && alpha(el) >= minAlpha && !turnedAway(el);
    rendered.set(el, r);
    return r;
  };
  // turnedAway tells an element with backface-visibility: hidden, or
  // inside one, whose transform shows its back.
  const away = new Map();
  const turnedAway = (el) => {
    let r = away.get(el);
    if (r !== undefined) return r;
    const s = style(el);
    r = false;
    if (s.backfaceVisibility === 'hidden' && s.transform && s.transform !== 'none') {
      try {
        r = new DOMMatrixReadOnly(s.transform).m33 < 0;
      } catch (e) {
        r = false;
      }
    }
    const p = flatParent(el);
    r = r || (p !== null && p.nodeType === 1 && turnedAway(p));
    away.set(el, r);
    return r;
  };
  // An ancestor of a display:contents element only needs to be rendered
  // as a box holder: visibility is inherited and opacity is alpha's.
  const isRenderedAncestor = (el) => {
    const s = style(el);
    if (s.display === 'contents') {
      const p = flatParent(el);
      return !p || p.nodeType !== 1 || isRenderedAncestor(p);
    }
    return el.checkVisibility();
  };

  const INF = { l: -Infinity, t: -Infinity, r: Infinity, b: Infinity };
  const meet = (a, b) => ({ l: Math.max(a.l, b.l), t: Math.max(a.t, b.t), r: Math.min(a.r, b.r), b: Math.min(a.b, b.b) });

  // The box an element's ancestors clip its own box to (in viewport
  // coordinates), following CSS containing blocks.
  const clipOfBox = new Map();
  const boxClip = (el) => {
    let c = clipOfBox.get(el);
    if (c !== undefined) return c;
    const pos = style(el).position;
    let anc = flatParent(el);
    if (pos === 'fixed') {
      // Fixed to the viewport: never scrolled into view from outside it.
      c = { l: 0, t: 0, r: view.innerWidth, b: view.innerHeight };
    } else {
      if (pos === 'absolute') {
        while (anc && anc.nodeType === 1 && style(anc).position === 'static') anc = flatParent(anc);
      }
      c = anc && anc.nodeType === 1 ? contentClip(anc) : INF;
    }
    clipOfBox.set(el, c);
    return c;
  };
  // The box an element clips its content to: its own clip (overflow on
  // each axis, the clip property) within the clip of its own box.
  const clipOfContent = new Map();
  const contentClip = (el) => {
    let c = clipOfContent.get(el);
    if (c !== undefined) return c;
    c = boxClip(el);
    const s = style(el);
    // Paint containment clips like overflow: clip. A scroll container
    // clips too, but a person scrolls what it hides into view, unless it
    // is too small to show a line: then nothing inside can be read.
    const contained = /paint|strict|content/.test(s.contain || '') || s.contentVisibility === 'auto';
    const scroller = el !== doc.documentElement && el !== doc.body;
    const scrolls = (o) => scroller && (o === 'auto' || o === 'scroll');
    const clipsX = contained || s.overflowX === 'hidden' || s.overflowX === 'clip' || (scrolls(s.overflowX) && el.clientWidth < minTextPx);
    const clipsY = contained || s.overflowY === 'hidden' || s.overflowY === 'clip' || (scrolls(s.overflowY) && el.clientHeight < minTextPx);
    const clipProp = s.clip && s.clip !== 'auto' && (s.position === 'absolute' || s.position === 'fixed');
    const clipPath = s.clipPath && s.clipPath !== 'none';
    if ((clipsX || clipsY || clipProp || clipPath) && s.display !== 'contents') {
      const b = el.getBoundingClientRect();
      if (clipPath) c = meet(c, clipPathBox(s.clipPath, b));
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
    clipOfContent.set(el, c);
    return c;
  };

  // clipPathBox bounds what a clip-path leaves of box b: an inset() cuts
  // its sides, a polygon() is bounded by its points, a circle() or
  // ellipse() with a radius of 0 and a url() naming an SVG clipPath with
  // no shape in it leave nothing; other shapes are bounded by the box.
  const NOTHING = { l: 0, t: 0, r: 0, b: 0 };
  const clipPathBox = (path, b) => {
    const len = (v, whole) => (v.endsWith('%') ? (parseFloat(v) / 100) * whole : parseFloat(v) || 0);
    const whole = { l: b.left, t: b.top, r: b.right, b: b.bottom };
    let m = /^inset\(([^)]*)\)/.exec(path);
    if (m) {
      const v = m[1].split(/\s+round\s+/)[0].trim().split(/\s+/);
      const [t, r, bo, l] = [v[0], v[1] ?? v[0], v[2] ?? v[0], v[3] ?? v[1] ?? v[0]];
      return { l: b.left + len(l, b.width), t: b.top + len(t, b.height), r: b.right - len(r, b.width), b: b.bottom - len(bo, b.height) };
    }
    m = /^polygon\(\s*(?:(?:nonzero|evenodd)\s*,)?([^)]*)\)/.exec(path);
    if (m) {
      const box = { l: Infinity, t: Infinity, r: -Infinity, b: -Infinity };
      for (const point of m[1].split(',')) {
        const [x, y] = point.trim().split(/\s+/);
        if (x === undefined || y === undefined) return whole;
        const px = b.left + len(x, b.width), py = b.top + len(y, b.height);
        box.l = Math.min(box.l, px); box.r = Math.max(box.r, px);
        box.t = Math.min(box.t, py); box.b = Math.max(box.b, py);
      }
      return box.r > box.l && box.b > box.t ? box : NOTHING;
    }
    m = /^(circle|ellipse)\(([^)]*)\)/.exec(path);
    if (m) {
      const radii = m[2].split(/\s+at\s+/)[0].trim().split(/\s+/).filter(Boolean);
      return radii.some((r) => /^0(px|%)?$/.test(r)) ? NOTHING : whole;
    }
    m = /^url\(\s*["']?#([^"')]+)["']?\s*\)/.exec(path);
    if (m) {
      const target = doc.getElementById(m[1]);
      if (target && target.localName === 'clipPath') {
        const shapes = Array.from(target.children).filter((c) => c.localName !== 'title' && c.localName !== 'desc' && style(c).display !== 'none');
        if (shapes.length === 0) return NOTHING;
      }
    }
    return whole;
  };

  // Whether a rectangle, cut by clip, is at least w by h and lies where
  // the page can be scrolled to.
  const shows = (rect, clip, w, h) => {
    const c = meet({ l: rect.left, t: rect.top, r: rect.right, b: rect.bottom }, clip);
    if (c.r - c.l < w || c.b - c.t < h) return false;
    const l = c.l + sx, t = c.t + sy, r = c.r + sx, b = c.b + sy;
    return r > 0 && b > 0 && l < pageW && t < pageH;
  };

  // rgba parses a computed colour as [r, g, b, a], or null for a form it
  // does not know.
  const rgba = (color) => {
    if (!color) return null;
    if (color === 'transparent') return [0, 0, 0, 0];
    const m = /^rgba?\(([^)]*)\)$/.exec(color);
    if (!m) return null;
    const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(parseFloat);
    return p.length >= 3 ? [p[0], p[1], p[2], p.length > 3 ? p[3] : 1] : null;
  };
  const transparent = (color) => {
    const c = rgba(color);
    return c !== null && c[3] < minAlpha;
  };
  // The colour behind an element's text: the first opaque background of it
  // or an ancestor, or null when an image or a translucent background is
  // in the way (then the judge does not guess).
  const backdrop = (el) => {
    for (let e = el; e && e.nodeType === 1; e = flatParent(e)) {
      const s = style(e);
      if (s.backgroundImage && s.backgroundImage !== 'none') return null;
      const c = rgba(s.backgroundColor);
      if (c === null) return null;
      if (c[3] >= 1) return c;
      if (c[3] > 0) return null;
    }
    return [255, 255, 255, 1]; // the canvas
  };
  const luminance = (c) => {
    const lin = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4));
    return 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2]);
  };
  // Text whose colour is (nearly) its background's: a contrast ratio under
  // minContrast, by WCAG's formula.
  const blendsIn = (fill, el) => {
    const f = rgba(fill), bg = backdrop(el);
    if (f === null || bg === null || f[3] < 1) return false;
    const a = luminance(f), b = luminance(bg);
    return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05) < minContrast;
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
  const inks = (paint, opacity, el) => paint !== 'none' && opacity >= minAlpha && !transparent(paint) && !blendsIn(paint, el);
  const SVG = 'http://www.w3.org/2000/svg';
  const inkless = new Map();
  const noInk = (el) => {
    let r = inkless.get(el);
    if (r === undefined) {
      const s = style(el);
      if (el.namespaceURI === SVG) {
        r = !inks(s.fill, parseFloat(s.fillOpacity), el) && !(parseFloat(s.strokeWidth) > 0 && inks(s.stroke, parseFloat(s.strokeOpacity), el));
      } else {
        r = !inks(s.webkitTextFillColor || s.color, 1, el) &&
          !(parseFloat(s.webkitTextStrokeWidth) > 0 && inks(s.webkitTextStrokeColor, 1, el)) &&
          !paintsText(el);
      }
      inkless.set(el, r);
    }
    return r;
  };

  // blurred tells text under a blur (its own filter and its ancestors',
  // combined as Gaussians combine) of at least a fifth of its font size.
  const blurs = new Map();
  const blur2Of = (el) => {
    let b = blurs.get(el);
    if (b !== undefined) return b;
    const p = flatParent(el);
    b = own(el).blur2 + (p && p.nodeType === 1 ? blur2Of(p) : 0);
    blurs.set(el, b);
    return b;
  };
  const blurred = (el) => {
    const b2 = blur2Of(el);
    return b2 > 0 && Math.sqrt(b2) >= parseFloat(style(el).fontSize) / 5;
  };

  // The area the page can be scrolled to, in viewport coordinates.
  const pageArea = { l: -sx, t: -sy, r: pageW - sx, b: pageH - sy };

  // readable tells whether a piece of text's box, cut by clip, keeps its
  // whole width (less than the narrowest letter may go: 20% of the line's
  // height, at least 1px) and at least half its height, at least minTextPx
  // high.
  const readable = (rect, clip) => {
    const c = meet({ l: rect.left, t: rect.top, r: rect.right, b: rect.bottom }, clip);
    return c.r - c.l >= Math.max(1, rect.width - Math.max(1, 0.2 * rect.height)) && c.b - c.t >= Math.max(minTextPx, rect.height / 2);
  };

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
  const keys = new Map();
  const paintKey = (el) => {
    let k = keys.get(el);
    if (k) return k;
    const p = flatParent(el);
    const up = p && p.nodeType === 1 ? paintKey(p) : { z: 0, layered: false, fixed: false };
    if (up.fixed) {
      k = up;
    } else {
      const s = style(el);
      const z = zIndexOf(el, s);
      k = isNaN(z)
        ? { z: 0, layered: up.layered || s.position !== 'static' || createsContext(s), fixed: false }
        : { z, layered: true, fixed: true };
    }
    keys.set(el, k);
    return k;
  };
  const flatContains = (a, el) => {
    for (let e = el; e && e.nodeType === 1; e = flatParent(e)) if (e === a) return true;
    return false;
  };
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
  let coverList = null;
  const covers = () => {
    if (coverList) return coverList;
    coverList = [];
    for (const r of roots) {
      for (const el of r.querySelectorAll('*')) {
        const s = style(el);
        if (s.position === 'static' || s.position === 'sticky' || !opaqueBackground(s)) continue;
        if (!isRendered(el) || alpha(el) < 1 - minAlpha) continue;
        const b = el.getBoundingClientRect();
        const box = meet({ l: b.left, t: b.top, r: b.right, b: b.bottom }, boxClip(el));
        if (box.r - box.l < 1 || box.b - box.t < 1) continue;
        if (s.position === 'fixed' && !(box.l <= 0 && box.t <= 0 && box.r >= view.innerWidth && box.b >= view.innerHeight)) continue;
        coverList.push({ el, box });
      }
    }
    return coverList;
  };

  // sunkUnder lists the boxes of the opaque backgrounds painted over an
  // element's text because a negative z-index sinks it below them: those
  // of the ancestors of the sunk box inside its stacking context (the
  // root's background, and the body's when it is the canvas's, are
  // painted first).
  const sinkers = new Map();
  const sinker = (el) => {
    let e = sinkers.get(el);
    if (e !== undefined) return e;
    const p = flatParent(el);
    e = zIndexOf(el, style(el)) < 0 ? el : p && p.nodeType === 1 ? sinker(p) : null;
    sinkers.set(el, e);
    return e;
  };
  const sunk = new Map();
  const NONE = [];
  const sunkUnder = (el) => {
    const e = sinker(el);
    if (e === null) return NONE;
    let r = sunk.get(e);
    if (r) return r;
    r = [];
    const root = doc.documentElement;
    const bodyIsCanvas = !opaqueBackground(style(root)) && style(root).backgroundImage === 'none';
    for (let a = flatParent(e); a && a.nodeType === 1 && a !== root; a = flatParent(a)) {
      const s = style(a);
      if (createsContext(s) || !isNaN(zIndexOf(a, s))) break;
      if (a === doc.body && bodyIsCanvas) continue;
      if (opaqueBackground(s)) {
        const b = a.getBoundingClientRect();
        r.push(meet({ l: b.left, t: b.top, r: b.right, b: b.bottom }, boxClip(a)));
      }
    }
    sunk.set(e, r);
    return r;
  };

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

  // The text of a node as a person reads it: all of it, the words that
  // are seen, or ''.
  const range = doc.createRange();
  const WORD = /\S+/g;
  const seenText = (node, el) => {
    const data = node.data;
    if (!/[^\s]/.test(data)) return '';
    if (!isRendered(el) || style(el).visibility !== 'visible' || noInk(el) || blurred(el)) return '';
    const clip = meet(contentClip(el), pageArea);
    range.selectNodeContents(node);
    let whole = true, any = false;
    for (const rect of range.getClientRects()) {
      if (rect.width < 1 || rect.height === 0) continue; // no glyph in it
      if (readable(rect, clip) && !coveredBy(rect, el)) {
        any = true;
      } else {
        whole = false;
        any = any || shows(rect, clip, 1, minTextPx);
      }
    }
    if (whole) return any ? data : '';
    if (!any) return '';
    const seen = [];
    let first = false, last = false;
    WORD.lastIndex = 0;
    for (let m; (m = WORD.exec(data)); ) {
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      let ok = false;
      for (const rect of range.getClientRects()) {
        if (readable(rect, clip) && !coveredBy(rect, el)) {
          ok = true;
          break;
        }
      }
      if (ok) seen.push(m[0]);
      if (m.index === 0) first = ok;
      last = ok && m.index + m[0].length === data.length;
    }
    if (seen.length === 0) return '';
    // Glued to a neighbour's text only where the node itself is.
    return (first ? '' : ' ') + seen.join(' ') + (last ? '' : ' ');
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
    const clip = boxClip(el);
    for (const rect of el.getClientRects()) {
      if (shows(rect, clip, 2, 2) && !buried(rect, clip, el)) return true;
    }
    return false;
  };
  // buried tells whether the seen part of an element's box lies wholly
  // under an opaque box painted over it.
  const buried = (rect, clip, el) => {
    const c = meet({ l: rect.left, t: rect.top, r: rect.right, b: rect.bottom }, clip);
    const holds = (box) => box.l <= c.l + 1 && box.t <= c.t + 1 && box.r >= c.r - 1 && box.b >= c.b - 1;
    return sunkUnder(el).some(holds) || covers().some((cv) => holds(cv.box) && above(cv.el, el));
  };
  const collect = (el) => {
    const out = { text: [], seen: false };
    const walk = (node, parentEl) => {
      if (node.nodeType === 3) {
        const text = parentEl ? seenText(node, parentEl) : '';
        if (text) {
          out.text.push(text);
          out.seen = true;
        }
        return;
      }
      if (node.nodeType !== 1) return;
      const s = style(node);
      // Nothing below display:none, opacity:0 or an editable region is
      // seen; below visibility:hidden a child may be visible again.
      if (s.display === 'none' || ownAlpha(node) < minAlpha || editable(node)) return;
      if (node.localName === 'br') {
        out.text.push('\n');
        return;
      }
      const field = fieldText(node);
      if (field !== null) {
        if (ownBoxSeen(node)) {
          out.seen = true;
          if (field) out.text.push(' ' + field + ' ');
        }
        return;
      }
      if (!out.seen && ownBoxSeen(node)) out.seen = true;
      const block = blockish(s.display);
      if (block) out.text.push('\n');
      const summary = closedDetails(node) ? summaryOf(node) : undefined;
      for (const child of flatChildren(node)) {
        if (summary === undefined || child === summary) walk(child, node);
      }
      if (block) out.text.push('\n');
    };
    for (let a = flatParent(el); a && a.nodeType === 1; a = flatParent(a)) {
      if (editable(a)) return out;
    }
    if (hiddenInDetails(el)) return out;
    walk(el, null);
    return out;
  };

  const WS = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/g;
  const fold = (s) => s.replace(WS, ' ').trim();
  const cut = (s) => {
    if (s.length <= maxChars) return s;
    let end = maxChars;
    const last = s.charCodeAt(end - 1);
    if (last >= 0xd800 && last <= 0xdbff) end--;
    return s.slice(0, end);
  };
  const excerpt = (text, at, n) => {
    const start = Math.max(0, at - 60), end = Math.min(text.length, at + n + 60);
    return (start > 0 ? '…' : '') + text.slice(start, end) + (end < text.length ? '…' : '');
  };

  // Every open shadow root, in composed tree order.
  const roots = [doc];
  const findRoots = (node) => {
    const walker = doc.createTreeWalker(node, NodeFilter.SHOW_ELEMENT);
    for (let el = walker.currentNode; el; el = walker.nextNode()) {
      if (el.nodeType === 1 && el.shadowRoot) {
        roots.push(el.shadowRoot);
        findRoots(el.shadowRoot);
      }
    }
  };
  findRoots(doc);

  // Composed tree order of elements, for sorting matches across roots.
  let order = null;
  const orderOf = () => {
    if (order) return order;
    order = new Map();
    let i = 0;
    const visit = (node) => {
      if (node.nodeType === 1) order.set(node, i++);
      if (node.nodeType === 1 && node.shadowRoot) for (const c of node.shadowRoot.childNodes) visit(c);
      for (const c of node.childNodes) visit(c);
    };
    visit(doc.documentElement);
    return order;
  };

  return queries.map(({ selector, contains }) => {
    let found = [];
    try {
      for (const r of roots) found.push(...r.querySelectorAll(selector));
    } catch (e) {
      return { error: String(e && e.message ? e.message : e) };
    }
    if (roots.length > 1) {
      const o = orderOf();
      found.sort((a, b) => (o.get(a) ?? 0) - (o.get(b) ?? 0));
    }
    const needles = contains || [];
    const hits = needles.map(() => [0, '']);
    let left = needles.length;
    const texts = [];
    let count = 0, hidden = 0, wasCut = false;
    for (const el of found) {
      const got = collect(el);
      if (!got.seen) {
        hidden++;
        continue;
      }
      count++;
      const text = fold(got.text.join(''));
      if (texts.length < maxTexts) {
        const kept = cut(text);
        if (kept.length < text.length) wasCut = true;
        texts.push(kept);
      } else {
        wasCut = true;
      }
      if (left > 0) {
        needles.forEach((n, i) => {
          if (hits[i][0] !== 0) return;
          const at = text.indexOf(n);
          if (at >= 0) {
            hits[i] = [count, excerpt(text, at, n.length)];
            left--;
          }
        });
      }
    }
    return { count, hidden, texts, cut: wasCut, found: hits };
  });
}
