// query.js is a function of (queries, maxTexts, maxChars, minTextPx,
// rejected) that returns, for each query {selector, contains} in order,
// either
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
//           over every match and the whole text, or 0; the folded text
//           around the first occurrence; and the spans of the page it was
//           read from, [node, start, end) of a text node's data or
//           [element, -1 | -2, 0] for its ::before or ::after, nodes
//           numbered in globalThis.__contractbenchJudge for paint.js;
//   error   the message of the exception an invalid selector throws.
//
// A selector matches in the document and in every open shadow root, in
// the order of the composed tree.
//
// What a person sees, decided in the judge's isolated world (the page's
// scripts cannot replace what it calls):
//   - Text is the data of text nodes in the composed (flat) tree: open
//     shadow roots are entered, slots show what is assigned to them. A
//     text node of white space alone is the space between its neighbours.
//     The text CSS generates in ::before and ::after (strings, attr(),
//     quotes) comes before and after the element's own. CSS
//     text-transform is not applied. A <br> and the edges of block-level
//     boxes separate words. Form fields contribute the label of a button
//     (<input type=submit|button|reset>) and the chosen option of a
//     <select>, never what was typed. The words of rejected (those the
//     pixels showed unpainted) are left out.
//   - A word of a text node is seen when its element is rendered
//     (checkVisibility, with opacity and visibility, drawn at least 5%
//     opaque counting the opacity, filter: opacity() and a mask made only
//     of transparent gradients of every ancestor, and not a back face
//     turned away), its ink is neither (nearly) transparent nor (nearly)
//     the colour of the opaque background behind it (contrast ratio under
//     1.2 with a background colour, or every colour of a gradient of
//     opaque colours, unless a positioned opaque box painted under the
//     text contrasts with it, or its background paints the text; the fill
//     and stroke of SVG text), it is not blurred by a radius of a fifth of its font size
//     or more, and its box, cut by every ancestor box that clips it
//     (overflow hidden or clip, paint containment, a scroll container that
//     cannot show a line, the clip property, a clip-path's shape or an
//     empty SVG clipPath; absolute and fixed boxes escape the clipping of
//     the boxes they are not inside, and fixed boxes are cut to the
//     viewport; what a scroll container that shows a line holds is cut by
//     nothing outside it on the axes it scrolls, since a person scrolls it
//     into view) and by the area the page can be scrolled to (not at
//     negative coordinates, not beyond the document's scroll size, only
//     what is in view on an axis the viewport does not scroll), keeps
//     its whole width and at least half its height, at least minTextPx
//     high; and no opaque box is painted over it (a positioned box with an
//     opaque background colour that the painting order puts above the
//     text, or the opaque background of an ancestor of text sunk under it
//     by a negative z-index; a fixed box only when it fills the viewport,
//     since a person scrolls text out from under a fixed header, and then
//     it covers the whole page). A text
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
function (queries, maxTexts, maxChars, minTextPx, rejected) {
  //lib: the helpers of js/lib, put here by js.go.
  // The nodes the answers name, by number: the judge's paint check
  // (paint.js) reads them in this world after the query returns.
  const reg = globalThis.__contractbenchJudge || (globalThis.__contractbenchJudge = { nodes: [], ids: new Map() });
  const idOf = (node) => {
    let id = reg.ids.get(node);
    if (id === undefined) {
      id = reg.nodes.length;
      reg.nodes.push(node);
      reg.ids.set(node, id);
    }
    return id;
  };
  // The words the paint check found unpainted: per node, [start, end)
  // ranges of its data; a pseudo-element's text by -1 (::before) or -2
  // (::after).
  const refused = new Map();
  for (const [id, start, end] of rejected || []) {
    const node = reg.nodes[id];
    if (!node) continue;
    if (!refused.has(node)) refused.set(node, []);
    refused.get(node).push([start, end]);
  }
  const isRefused = (node, start, end) =>
    (refused.get(node) || NONE).some(([s, e]) => (s < 0 ? s === start : s < end && start < e));
  // Below this opacity (or colour alpha) nothing is seen, and text whose
  // contrast with its background is below minContrast is not read.
  const minAlpha = 0.05;
  const minContrast = 1.2;
  const doc = document;
  const view = doc.defaultView;
  const root = doc.scrollingElement || doc.documentElement;
  const sx = view.scrollX, sy = view.scrollY;
  const designMode = doc.designMode === 'on';
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

  const styles = new Map();
  const style = (el) => {
    let s = styles.get(el);
    if (s === undefined) {
      s = view.getComputedStyle(el);
      styles.set(el, s);
    }
    return s;
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
  // scrolling tells, for each axis, whether an element is a scroll
  // container on it (not the root or the body: those scroll the
  // viewport) that shows enough of itself to scroll what it holds into
  // view (free), or too little (shut).
  const scrollings = new Map();
  const NO = { x: false, y: false };
  const scrolling = (el) => {
    let r = scrollings.get(el);
    if (r) return r;
    r = { free: NO, shut: NO };
    const s = style(el);
    const x = s.overflowX === 'auto' || s.overflowX === 'scroll';
    const y = s.overflowY === 'auto' || s.overflowY === 'scroll';
    if ((x || y) && el !== doc.documentElement && el !== doc.body && s.display !== 'contents') {
      const b = el.getBoundingClientRect();
      const seen = meet(boxClip(el), { l: b.left, t: b.top, r: b.right, b: b.bottom });
      const okX = el.clientWidth >= minTextPx && seen.r - seen.l >= minTextPx;
      const okY = el.clientHeight >= minTextPx && seen.b - seen.t >= minTextPx;
      r = { free: { x: x && okX, y: y && okY }, shut: { x: x && !okX, y: y && !okY } };
    }
    scrollings.set(el, r);
    return r;
  };

  // emptyClip tells an SVG <clipPath> with no shape in it.
  const emptyClip = (id) => {
    const target = doc.getElementById(id);
    if (!target || target.localName !== 'clipPath') return false;
    return !Array.from(target.children).some((c) => c.localName !== 'title' && c.localName !== 'desc' && style(c).display !== 'none');
  };

  // The box an element clips its content to: its own clip (overflow on
  // each axis, the clip property) within the clip of its own box.
  const clipOfContent = new Map();
  const contentClip = (el) => {
    let c = clipOfContent.get(el);
    if (c !== undefined) return c;
    c = boxClip(el);
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
    clipOfContent.set(el, c);
    return c;
  };

  // Whether a rectangle, cut by clip, is at least w by h.
  const shows = (rect, clip, w, h) => {
    const c = meet({ l: rect.left, t: rect.top, r: rect.right, b: rect.bottom }, clip);
    return c.r - c.l >= w && c.b - c.t >= h;
  };

  // The area a person can bring into view, in viewport coordinates: the
  // page's, but free on an axis where a scroll container the element is
  // in (or is), one big enough to show a line, scrolls.
  const pageArea = { l: page.l - sx, t: page.t - sy, r: page.r - sx, b: page.b - sy };
  const scrollAxes = new Map();
  const axesOf = (el) => {
    let a = scrollAxes.get(el);
    if (a) return a;
    const p = flatParent(el);
    a = p && p.nodeType === 1 ? axesOf(p) : NO;
    const free = scrolling(el).free;
    if ((free.x && !a.x) || (free.y && !a.y)) a = { x: a.x || free.x, y: a.y || free.y };
    scrollAxes.set(el, a);
    return a;
  };
  const areaOf = (el) => {
    const a = el && el.nodeType === 1 ? axesOf(el) : NO;
    return {
      l: a.x ? -Infinity : pageArea.l, r: a.x ? Infinity : pageArea.r,
      t: a.y ? -Infinity : pageArea.t, b: a.y ? Infinity : pageArea.b,
    };
  };

  const transparent = (color) => {
    const c = rgba(color);
    return c !== null && c[3] < minAlpha;
  };
  // The colours behind an element's text: those of the first opaque
  // background of it or an ancestor (a colour, or gradients of opaque
  // colours only), or null when an image or something translucent is in
  // the way (then the judge does not guess).
  const CANVAS = [[255, 255, 255, 1]];
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
  const inks = (paint, opacity, el) => paint !== 'none' && opacity >= minAlpha && !transparent(paint) && !(el && blendsIn(paint, el));
  const SVG = 'http://www.w3.org/2000/svg';
  const inkless = new Map();
  const noInk = (el) => {
    let r = inkless.get(el);
    if (r === undefined) {
      const s = style(el);
      if (el.namespaceURI === SVG) {
        // What an SVG shape paints behind its text is not a background:
        // only the pixels tell SVG text from what is behind it.
        r = !inks(s.fill, parseFloat(s.fillOpacity), null) && !(parseFloat(s.strokeWidth) > 0 && inks(s.stroke, parseFloat(s.strokeOpacity), null));
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
  const bars = new Map();
  const inBar = (el) => {
    let r = bars.get(el);
    if (r !== undefined) return r;
    const p = flatParent(el);
    r = p !== null && p.nodeType === 1 && (style(p).position === 'fixed' || style(p).position === 'sticky' || inBar(p));
    bars.set(el, r);
    return r;
  };
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

  // The text of a node as a person reads it, as segments {s, node, at}
  // (at: where s begins in the node's data; a segment without a node is a
  // separator): all of it, the words that are seen, or none. A node of
  // white space alone is the space between its neighbours' words.
  const range = doc.createRange();
  const WORD = /\S+/g;
  const SPACE = [{ s: ' ' }];
  const seenText = (node, el) => {
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
  // buried tells whether the seen part of an element's box lies wholly
  // under an opaque box painted over it.
  const buried = (rect, clip, el) => {
    const c = meet({ l: rect.left, t: rect.top, r: rect.right, b: rect.bottom }, clip);
    const holds = (box) => box.l <= c.l + 1 && box.t <= c.t + 1 && box.r >= c.r - 1 && box.b >= c.b - 1;
    return sunkUnder(el).some(holds) || covers().some((cv) => holds(cv.box) && above(cv.el, el));
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
    const hits = needles.map(() => [0, '', []]);
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
      // Where a string is found, its place is mapped back to the page's
      // nodes; the map costs a look at every character, so only then.
      const text = foldText(got.text);
      let folded = null;
      if (texts.length < maxTexts) {
        const kept = cutText(text, maxChars);
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
            folded = folded || fold(got.text);
            hits[i] = [count, excerpt(text, at, n.length), spansOf(got.text, folded, at, n.length, idOf)];
            left--;
          }
        });
      }
    }
    return { count, hidden, texts, cut: wasCut, found: hits };
  });
}
