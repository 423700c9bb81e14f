// paint.js exports paint, a function of (op, arg) that the judge calls,
// in its isolated world, to see whether words that query.js found are
// painted on the screen. Words are [node, start, end] (a text node's
// data [start, end)) or [element, -1 | -2, 0] (the text of its ::before
// or ::after), nodes numbered as query.js numbered them. The operations:
//   words  arg {spans}: for each span, its words (runs of non-space) in
//          order, as [node, start, end].
//   locate arg {words}: brings the first word into view, scrolling the
//          scroll containers it is in and the page as a person would
//          (never a box or a page that does not scroll) until it is in
//          the band between the bars fixed to the viewport's top and
//          bottom, and returns
//          {shown, gone, scroll}: shown the words with a part in the
//          viewport, each {i, rects} (i its index in words, rects its
//          boxes [left, top, right, bottom] in viewport coordinates;
//          but for the first, only words in the band);
//          gone the first word when it could not be brought into view or
//          is no longer in the document; scroll the page's scroll offset
//          and viewport its size.
//   ink    arg {words, hide}: makes the ink of the words transparent
//          (hide) or restores it. Text is hidden through a custom
//          highlight of its range, SVG text and generated text through a
//          style sheet the page's tree adopts, with a rule for their
//          element found by its place in the tree: the page's DOM is not
//          changed.
//   restore: restores the ink and every scroll position locate changed.
//   reveal: renders the content the browser skips until it is near the
//          viewport (content-visibility: auto: the elements watch.js
//          records as skipped, those query.js last kept, and every such
//          element inside them) as it
//          renders it when a person scrolls near: a style sheet the tree
//          adopts gives each content-visibility: visible. Content hidden
//          until a person acts (content-visibility: hidden, so
//          hidden=until-found, a closed <details>) stays hidden. Returns
//          how many elements it rendered.
//   conceal: skips again what reveal rendered, and puts back in place
//          what was in the middle of the viewport and the scroll
//          positions of the boxes around what it rendered.
import { flatChildren, flatParent, flatParentElement } from './lib/tree.js';

export function paint(op, arg) {
  const doc = document;
  const view = doc.defaultView;
  const reg = globalThis.__contractbenchJudge || (globalThis.__contractbenchJudge = { nodes: [], ids: new Map() });
  const state = reg.paint || (reg.paint = { scrolled: new Map(), adopted: new Map(), inked: new Map(), revealed: new Map(), anchored: new Map() });
  const NAME = 'contractbench-judge';
  const WORD = /\S+/g;
  const SVG = 'http://www.w3.org/2000/svg';

  const alive = (node) => node && node.isConnected;

  // The boxes of a word, in viewport coordinates.
  const range = doc.createRange();
  const rectsOf = ([id, start, end]) => {
    const node = reg.nodes[id];
    if (!alive(node)) return [];
    let list;
    if (start < 0) {
      list = node.getClientRects();
    } else {
      range.setStart(node, Math.min(start, node.data.length));
      range.setEnd(node, Math.min(end, node.data.length));
      list = range.getClientRects();
    }
    return Array.from(list, (r) => [r.left, r.top, r.right, r.bottom]).filter((r) => r[2] - r[0] >= 1 && r[3] - r[1] >= 1);
  };
  const ownerOf = ([id, start]) => {
    const node = reg.nodes[id];
    return start < 0 ? node : node.parentElement || flatParent(node);
  };

  const within = (r, box) => r[0] >= box[0] - 1 && r[1] >= box[1] - 1 && r[2] <= box[2] + 1 && r[3] <= box[3] + 1;
  const meets = (r, box) => Math.min(r[2], box[2]) - Math.max(r[0], box[0]) >= 1 && Math.min(r[3], box[3]) - Math.max(r[1], box[1]) >= 1;

  // scrolls tells whether a person can scroll the element (or, for null,
  // the page) on each axis.
  const scrollsOn = (o) => o === 'auto' || o === 'scroll';
  const pageScrolls = () => {
    const html = doc.documentElement;
    let s = view.getComputedStyle(html);
    if (s.overflowX === 'visible' && s.overflowY === 'visible' && doc.body) s = view.getComputedStyle(doc.body);
    const fixed = (o) => o === 'hidden' || o === 'clip';
    return { x: !fixed(s.overflowX), y: !fixed(s.overflowY) };
  };
  const save = (key, left, top) => {
    if (!state.scrolled.has(key)) state.scrolled.set(key, [left, top]);
  };
  // Moves a box's centre to the centre of area by scrolling on the axes
  // allowed, when the box is not already inside it.
  const offset = (r, area) => [((r[0] + r[2]) - (area[0] + area[2])) / 2, ((r[1] + r[3]) - (area[1] + area[3])) / 2];
  // The boxes a person scrolls to bring a word into view, from the
  // innermost out: {el, x, y, box} with the axes it scrolls on and the
  // part of it that shows what it holds, in viewport coordinates.
  const scrollers = (word) => {
    const out = [];
    const owner = ownerOf(word);
    for (let e = owner && flatParent(owner); e && e.nodeType === 1; e = flatParent(e)) {
      if (e === doc.documentElement || e === doc.body) break;
      const s = view.getComputedStyle(e);
      const x = scrollsOn(s.overflowX) && e.scrollWidth > e.clientWidth;
      const y = scrollsOn(s.overflowY) && e.scrollHeight > e.clientHeight;
      if (!x && !y) continue;
      const b = e.getBoundingClientRect();
      out.push({ el: e, x, y, box: [b.left + e.clientLeft, b.top + e.clientTop, b.left + e.clientLeft + e.clientWidth, b.top + e.clientTop + e.clientHeight] });
    }
    return out;
  };
  // The band of the viewport where a word is looked at: between the bars
  // fixed or stuck to its top and bottom (a header, a cookie notice), or
  // its middle half when they leave too little. A person reads a line
  // there, scrolled out from under the bars; what covers the band (a
  // wall, a modal's backdrop) covers it wherever it is scrolled. The bars
  // only say where to look: the pixels still decide.
  const band = () => {
    const w = view.innerWidth, h = view.innerHeight;
    let top = 0, bottom = h;
    for (const el of doc.querySelectorAll('*')) {
      const pos = view.getComputedStyle(el).position;
      if ((pos !== 'fixed' && pos !== 'sticky') || !el.checkVisibility()) continue;
      const r = el.getBoundingClientRect();
      if (r.width < w / 2 || r.height >= h * 0.6 || r.bottom <= 0 || r.top >= h) continue;
      if (r.top <= h * 0.1) top = Math.max(top, r.bottom);
      else if (r.bottom >= h * 0.9) bottom = Math.min(bottom, r.top);
    }
    return bottom - top >= 60 ? [0, top, w, bottom] : [0, h / 4, w, (h * 3) / 4];
  };
  // The area where a word can be seen: the viewport (or its band), within
  // the boxes that scroll it.
  const areaOf = (word, a = [0, 0, view.innerWidth, view.innerHeight]) => {
    for (const s of scrollers(word)) a = [Math.max(a[0], s.box[0]), Math.max(a[1], s.box[1]), Math.min(a[2], s.box[2]), Math.min(a[3], s.box[3])];
    return a;
  };
  const bring = (word, inBand) => {
    if (!alive(reg.nodes[word[0]])) return;
    let rects = rectsOf(word);
    if (rects.length === 0) return;
    // Scrolling a box moves what it holds, never the boxes around it.
    for (const { el: e, x, y, box } of scrollers(word)) {
      if (within(rects[0], box)) continue;
      const [dx, dy] = offset(rects[0], box);
      save(e, e.scrollLeft, e.scrollTop);
      e.scrollTo({ left: e.scrollLeft + (x ? dx : 0), top: e.scrollTop + (y ? dy : 0), behavior: 'instant' });
      rects = rectsOf(word);
      if (rects.length === 0) return;
    }
    if (within(rects[0], inBand)) return;
    const can = pageScrolls();
    const [dx, dy] = offset(rects[0], inBand);
    save(view, view.scrollX, view.scrollY);
    view.scrollTo({ left: view.scrollX + (can.x ? dx : 0), top: view.scrollY + (can.y ? dy : 0), behavior: 'instant' });
  };

  // The rule that selects an element by its place in its tree, and the
  // tree (document or shadow root) whose style sheets can hold it.
  const placeOf = (el) => {
    const steps = [];
    for (let e = el; ; ) {
      const p = e.parentNode;
      if (!p) return null;
      if (p.nodeType === 9) {
        steps.unshift(':root');
        return { tree: doc, selector: steps.join(' > ') };
      }
      let k = 1;
      for (let s = e.previousElementSibling; s; s = s.previousElementSibling) k++;
      if (p.nodeType === 11) {
        steps.unshift(':host > :nth-child(' + k + ')');
        return { tree: p, selector: steps.join(' > ') };
      }
      steps.unshift(':nth-child(' + k + ')');
      e = p;
    }
  };
  const treeOf = (node) => {
    const r = node.getRootNode();
    return r.nodeType === 11 ? r : doc;
  };
  const NO_INK =
    '-webkit-text-fill-color: transparent !important; -webkit-text-stroke-color: transparent !important;' +
    ' text-shadow: none !important; text-decoration-color: transparent !important; text-emphasis-color: transparent !important;';
  // The element whose background paints the text of el (background-clip:
  // text), if any.
  const paintedBy = (el) => {
    for (let e = el; e && e.nodeType === 1; e = flatParent(e)) {
      const s = view.getComputedStyle(e);
      if (s.backgroundClip === 'text' || s.webkitBackgroundClip === 'text') return e;
    }
    return null;
  };

  const hide = (words) => {
    const rules = new Map(); // tree -> [rule]
    const add = (tree, rule) => {
      if (!rules.has(tree)) rules.set(tree, []);
      rules.get(tree).push(rule);
    };
    const ranges = [];
    for (const w of words) {
      const node = reg.nodes[w[0]];
      if (!alive(node)) continue;
      const el = ownerOf(w);
      if (!el) continue;
      if (w[1] < 0) {
        const at = placeOf(el);
        if (at) add(at.tree, at.selector + (w[1] === -1 ? '::before' : '::after') + ' { ' + NO_INK + ' color: transparent !important; }');
      } else if (el.namespaceURI === SVG) {
        let text = el;
        while (text.parentElement && text.localName !== 'text') text = text.parentElement;
        const at = placeOf(text);
        if (at) add(at.tree, at.selector + ', ' + at.selector + ' * { fill-opacity: 0 !important; stroke-opacity: 0 !important; }');
      } else {
        const r = new Range();
        r.setStart(node, Math.min(w[1], node.data.length));
        r.setEnd(node, Math.min(w[2], node.data.length));
        ranges.push(r);
        add(treeOf(node), '::highlight(' + NAME + ') { color: transparent !important; ' + NO_INK + ' }');
      }
      const painter = paintedBy(el);
      if (painter) {
        const at = placeOf(painter);
        if (at) add(at.tree, at.selector + ' { background: none !important; }');
      }
    }
    if (ranges.length > 0) CSS.highlights.set(NAME, new Highlight(...ranges));
    adopt(rules, state.inked);
  };
  const show = () => {
    CSS.highlights.delete(NAME);
    unadopt(state.inked);
  };

  // The judge's style sheets follow a tree's own: kind (state.inked or
  // state.revealed) holds one per tree, made of rules (tree -> [rule]).
  const compose = (tree) => {
    const extra = [state.revealed.get(tree), state.inked.get(tree)].filter(Boolean);
    tree.adoptedStyleSheets = [...state.adopted.get(tree), ...extra];
    if (extra.length === 0) state.adopted.delete(tree);
  };
  const adopt = (rules, kind) => {
    for (const [tree, list] of rules) {
      const sheet = new CSSStyleSheet();
      for (const rule of new Set(list)) {
        try {
          sheet.insertRule(rule, sheet.cssRules.length);
        } catch (e) {
          // A rule the page's tree cannot hold changes nothing.
        }
      }
      // adoptedStyleSheets is a live array: keep a copy of what it held.
      if (!state.adopted.has(tree)) state.adopted.set(tree, Array.from(tree.adoptedStyleSheets));
      kind.set(tree, sheet);
      compose(tree);
    }
  };
  const unadopt = (kind) => {
    const trees = Array.from(kind.keys());
    kind.clear();
    trees.forEach(compose);
  };

  // The elements reveal renders: those watch.js records as skipped, and
  // every element with content-visibility: auto inside them (the browser
  // decides nothing about those until their container is rendered).
  const skippedIn = (roots) => {
    const out = [];
    const todo = roots.slice();
    const seen = new Set();
    while (todo.length > 0) {
      const node = todo.pop();
      if (node.nodeType !== 1 || seen.has(node)) continue;
      seen.add(node);
      if (view.getComputedStyle(node).contentVisibility === 'auto') out.push(node);
      for (const c of flatChildren(node)) todo.push(c);
    }
    return out;
  };
  const reveal = () => {
    const watch = globalThis.__contractbenchWatch;
    const roots = [...(watch?.doc === doc ? watch.skipped : []), ...(reg.skipping || [])].filter(alive);
    const els = skippedIn(roots);
    if (els.length === 0) return 0;
    // Rendering what was skipped changes the size of boxes (and the size
    // the browser remembers for them, contain-intrinsic-size: auto), and
    // scroll anchoring moves the page and the boxes around them to keep
    // what is in view in place, or fails to: conceal puts back in place
    // what was in the middle of the viewport, and the boxes' scroll
    // positions.
    const keep = (key, left, top) => {
      if (!state.anchored.has(key)) state.anchored.set(key, [left, top]);
    };
    if (!state.anchor) {
      const el = doc.elementFromPoint(view.innerWidth / 2, view.innerHeight / 2);
      if (el && el !== doc.documentElement && el !== doc.body) {
        const r = el.getBoundingClientRect();
        state.anchor = { el, at: [r.left, r.top] };
      } else {
        keep(view, view.scrollX, view.scrollY);
      }
    }
    for (const root of roots) {
      for (let e = flatParentElement(root); e; e = flatParentElement(e)) {
        if (e.scrollTop !== 0 || e.scrollLeft !== 0) keep(e, e.scrollLeft, e.scrollTop);
      }
    }
    const rules = new Map();
    for (const el of els) {
      const at = placeOf(el);
      if (!at) continue;
      if (!rules.has(at.tree)) rules.set(at.tree, []);
      rules.get(at.tree).push(at.selector + ' { content-visibility: visible !important; }');
    }
    adopt(rules, state.revealed);
    return els.length;
  };
  const conceal = () => {
    unadopt(state.revealed);
    for (const [key, [left, top]] of state.anchored) key.scrollTo({ left, top, behavior: 'instant' });
    state.anchored.clear();
    const a = state.anchor;
    state.anchor = null;
    if (a && alive(a.el)) {
      const r = a.el.getBoundingClientRect();
      view.scrollBy({ left: r.left - a.at[0], top: r.top - a.at[1], behavior: 'instant' });
    }
    return true;
  };

  switch (op) {
    case 'words':
      return arg.spans.map(([id, start, end]) => {
        const node = reg.nodes[id];
        if (!alive(node)) return [];
        if (start < 0) return [[id, start, 0]];
        const out = [];
        const data = node.data.slice(start, end);
        WORD.lastIndex = 0;
        for (let m; (m = WORD.exec(data)); ) out.push([id, start + m.index, start + m.index + m[0].length]);
        return out;
      });
    case 'locate': {
      const words = arg.words;
      const at = () => ({ scroll: [view.scrollX, view.scrollY], viewport: [view.innerWidth, view.innerHeight] });
      if (words.length === 0) return { shown: [], gone: [], ...at() };
      const inBand = band();
      bring(words[0], inBand);
      // A word is looked at where it shows whole in the band of the
      // viewport and in the boxes that scroll it; the others wait until
      // they are brought there, but for the first, which cannot be
      // brought further: it is looked at wherever it shows.
      const shown = [], gone = [];
      words.forEach((w, i) => {
        const rects = rectsOf(w);
        if (rects.length > 0 && rects.every((r) => within(r, areaOf(w, inBand)))) shown.push({ i, rects });
        else if (i === 0 && rects.some((r) => meets(r, areaOf(w)))) shown.push({ i, rects });
        else if (i === 0) gone.push(0);
      });
      return { shown, gone, ...at() };
    }
    case 'ink':
      show();
      if (arg.hide) hide(arg.words);
      return true;
    case 'reveal':
      return reveal();
    case 'conceal':
      return conceal();
    case 'restore':
      show();
      for (const [key, [left, top]] of state.scrolled) key.scrollTo({ left, top, behavior: 'instant' });
      state.scrolled.clear();
      return true;
  }
  throw new Error('paint.js: unknown operation ' + op);
}
