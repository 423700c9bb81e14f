// snapshot.js is called (Runtime.callFunctionOn) in the isolated world that
// install.js prepared. It walks the document in reading order and returns
// the page model, decoded in Go as snapshot.Page:
//
//   {lines: [Line...], controls: [Control...], issued: <highest ref>,
//    mutations: <DOM mutations seen so far>}
//
// A Line is {k: kind, d: list depth, n: ordinal, t: spans} for kinds
// "p", "h1".."h6", "li" and "pre", or {k: "tr", c: [spans per cell]} for a
// row of a data table. Spans are strings (text, white space already
// collapsed except in "pre") or numbers (an index into controls). An
// iframe whose document this world cannot read (another origin) is a line
// {k: "frame", f: n}, n indexing ts.frames, where the tool server puts the
// frame's own lines. Hidden
// elements (display:none, visibility:hidden, zero-size boxes; not
// aria-hidden, which hides only from screen readers) and script, style and
// similar are skipped. A MathML formula is one span
// of text in a compact linear notation (see math below). Every control
// rendered gets a ref from the registry, so refs follow document order on
// first sight.
function () {
  const ts = globalThis.__ts;
  ts.frames = [];
  const lines = [];
  const controls = [];

  let line = null; // the open line
  let cells = null; // the open data-table row's cells, or null
  let listDepth = 0;
  let pre = 0; // > 0 inside preformatted text
  let mute = 0; // > 0 inside a label whose text is its control's name
  const tables = []; // "data" or "layout" for each enclosing table

  const skip = new Set([
    'script', 'style', 'noscript', 'template', 'head', 'title', 'meta', 'link',
    'base', 'svg', 'canvas', 'video', 'audio', 'object', 'embed', 'map',
    'datalist', 'option', 'optgroup',
  ]);

  // math writes a MathML formula on one line, compactly: tokens as they
  // read, x^2 and x_i for scripts, (a)/(b) for fractions, √(x) for roots;
  // annotations (a TeX source) are not shown, as a reader does not see them.
  const math = (n) => {
    if (n.nodeType === Node.TEXT_NODE) return ts.collapse(n.data).trim();
    if (n.nodeType !== Node.ELEMENT_NODE) return '';
    const tag = n.localName;
    if (tag === 'annotation' || tag === 'annotation-xml' || tag === 'none' || tag === 'mprescripts') return '';
    if (tag === 'semantics') return n.firstElementChild ? math(n.firstElementChild) : '';
    const kids = Array.from(n.children, math);
    const group = (s) => (/^[\p{L}\p{N}.]+$/u.test(s) || s.length <= 1 ? s : '(' + s + ')');
    switch (tag) {
      case 'msup':
        return kids[0] + '^' + group(kids[1] || '');
      case 'msub':
        return kids[0] + '_' + group(kids[1] || '');
      case 'munder':
        return kids[0] + '_' + group(kids[1] || '');
      case 'mover':
        return kids[0] + '^' + group(kids[1] || '');
      case 'msubsup':
      case 'munderover':
        return kids[0] + '_' + group(kids[1] || '') + '^' + group(kids[2] || '');
      case 'mfrac':
        return group(kids[0] || '') + '/' + group(kids[1] || '');
      case 'msqrt':
        return '√' + group(kids.join(''));
      case 'mroot':
        return (kids[1] || '') + '√' + group(kids[0] || '');
      case 'mspace':
        return ' ';
    }
    if (n.children.length === 0) return ts.collapse(n.textContent).trim();
    return kids.join('');
  };


  const styleOf = (el) => (el.ownerDocument.defaultView || window).getComputedStyle(el);

  const spans = () => {
    if (cells) return cells[cells.length - 1];
    if (!line) line = { k: 'p', t: [] };
    return line.t;
  };

  const addText = (s) => {
    if (mute) return;
    if (!pre) s = ts.collapse(s);
    if (!s) return;
    const t = spans();
    const last = t[t.length - 1];
    if (typeof last === 'string') {
      if (!pre && s[0] === ' ' && last.endsWith(' ')) s = s.slice(1);
      if (s) t[t.length - 1] = last + s;
      return;
    }
    if (!pre && s[0] === ' ' && t.length === 0) s = s.slice(1);
    if (s) t.push(s);
  };

  const addControl = (el, role, src) => {
    const t = spans();
    // Two controls side by side (inline-block menus) need a space to stay
    // two readable items.
    if (typeof t[t.length - 1] === 'number') t.push(' ');
    controls.push(ts.control(el, role, src));
    t.push(controls.length - 1);
  };

  // trim drops white space at both ends of a span list and reports whether
  // anything is left. Preformatted text keeps its first line's indent.
  const trim = (t, keepIndent) => {
    if (typeof t[0] === 'string') {
      t[0] = keepIndent ? t[0].replace(/^\n+/, '') : t[0].trimStart();
      if (!t[0]) t.shift();
    }
    const n = t.length - 1;
    if (typeof t[n] === 'string') {
      t[n] = t[n].trimEnd();
      if (!t[n]) t.pop();
    }
    return t.length > 0;
  };

  const flush = () => {
    if (cells || !line) return;
    if (trim(line.t, line.k === 'pre')) lines.push(line);
    line = null;
  };

  // block renders fn's content as its own line of kind k. Inside a table
  // cell a block only separates words; an empty list item absorbs the
  // first paragraph inside it, so "<li><p>x</p></li>" is one item.
  const block = (k, extra, fn) => {
    if (cells) {
      addText(' ');
      fn();
      addText(' ');
      return;
    }
    if (pre) {
      addText('\n');
      fn();
      addText('\n');
      return;
    }
    if (k === 'p' && line && line.k === 'li' && line.t.every((s) => s === ' ')) {
      fn();
      flush();
      return;
    }
    flush();
    line = Object.assign({ k, t: [] }, extra);
    fn();
    flush();
  };

  const walkChildren = (n) => {
    for (const c of ts.children(n)) walk(c);
  };

  const row = (tr) => {
    if (cells) {
      // A data table nested in a cell is flattened into it.
      addText(' ');
      walkChildren(tr);
      addText(' ');
      return;
    }
    flush();
    cells = [];
    for (const c of ts.children(tr)) {
      if (c.nodeType !== Node.ELEMENT_NODE || (c.localName !== 'td' && c.localName !== 'th')) continue;
      // An empty cell still holds its column, so only hidden ones go.
      const cst = styleOf(c);
      if (cst.display === 'none' || cst.visibility === 'hidden') continue;
      cells.push([]);
      walkChildren(c);
    }
    const kept = cells;
    cells = null;
    kept.forEach((t) => trim(t, false));
    if (kept.some((t) => t.length)) lines.push({ k: 'tr', c: kept });
  };

  const ordinal = (li) => {
    const list = li.parentElement;
    if (!list || list.localName !== 'ol') return 0;
    let n = list.start || 1;
    for (let e = list.firstElementChild; e && e !== li; e = e.nextElementSibling) {
      if (e.localName === 'li') n++;
    }
    return n;
  };

  const label = (el) => {
    const ctl = el.control;
    if (!ctl || ctl === el) return false;
    if (!ts.visible(ctl)) {
      // The input is hidden and styled through its label: the label is
      // what a user sees and clicks.
      const role = ts.role(ctl, null);
      if (!role) return false;
      addControl(el, role, ctl);
      return true;
    }
    // The label's text is its control's name: keep only the controls in it.
    mute++;
    walkChildren(el);
    mute--;
    return true;
  };

  const walk = (n) => {
    if (n.nodeType === Node.TEXT_NODE) {
      addText(n.data);
      return;
    }
    if (n.nodeType !== Node.ELEMENT_NODE) return;
    const el = n;
    const tag = el.localName;
    if (skip.has(tag)) return;
    const st = styleOf(el);
    if (ts.hidden(el, st)) return;

    const role = ts.role(el, st);
    if (role && tag === 'summary' && el.querySelector('a[href], button, input, select, textarea')) {
      // A summary that holds links of its own (rustdoc's method headers)
      // would hide them inside one button; its links are what a reader
      // follows, so they keep their own refs and the summary reads as text.
      block('p', null, () => walkChildren(el));
      return;
    }
    if (role) {
      addControl(el, role, el);
      return;
    }
    if (tag === 'label' && label(el)) return;
    if (ts.region(el)) {
      // The region's own line names it; its content follows as usual.
      block('p', null, () => addControl(el, 'region', el));
      block('p', null, () => walkChildren(el));
      return;
    }
    switch (tag) {
      case 'br':
        if (pre) addText('\n');
        else if (cells) addText(' ');
        else flush();
        return;
      case 'img': {
        const alt = ts.collapse(el.getAttribute('alt') || '').trim();
        if (alt && el.getAttribute('role') !== 'presentation') addText(' ![' + alt + '] ');
        return;
      }
      case 'math': {
        const t = math(el).trim();
        if (!t) return;
        if (el.getAttribute('display') === 'block' || st.display.startsWith('block')) block('p', null, () => addText(t));
        else addText(t);
        return;
      }
      case 'iframe': {
        let body = null;
        try {
          body = el.contentDocument && el.contentDocument.body;
        } catch {
          // Another origin: its content is not ours to read.
        }
        if (body) {
          block('p', null, () => walkChildren(body));
        } else if (ts.visible(el)) {
          // Another origin: the tool server reads it in a world of its
          // own and puts its lines here.
          flush();
          lines.push({ k: 'frame', f: ts.frames.push(el) - 1 });
        }
        return;
      }
      case 'details':
        if (!el.open) {
          const summary = Array.from(el.children).find((c) => c.localName === 'summary');
          if (summary) walk(summary);
          return;
        }
        break;
      case 'table': {
        const roleAttr = el.getAttribute('role');
        const layout = roleAttr === 'presentation' || roleAttr === 'none' || el.querySelector('table') !== null;
        tables.push(layout ? 'layout' : 'data');
        block('p', null, () => walkChildren(el));
        tables.pop();
        return;
      }
      case 'tr':
        if (tables[tables.length - 1] === 'data') {
          row(el);
          return;
        }
        block('p', null, () => walkChildren(el));
        return;
      case 'td':
      case 'th':
        addText(' ');
        walkChildren(el);
        addText(' ');
        return;
      case 'ul':
      case 'ol':
      case 'menu':
        listDepth++;
        block('p', null, () => walkChildren(el));
        listDepth--;
        return;
      case 'pre':
        block('pre', null, () => {
          pre++;
          walkChildren(el);
          pre--;
        });
        return;
    }

    const heading = /^h[1-6]$/.test(tag) ? Number(tag[1])
      : el.getAttribute('role') === 'heading' ? Number(el.getAttribute('aria-level')) || 2 : 0;
    if (heading) {
      block('h' + heading, null, () => walkChildren(el));
      return;
    }
    if (tag === 'li' || st.display === 'list-item') {
      const extra = { d: Math.max(listDepth, 1) };
      const n = ordinal(el);
      if (n) extra.n = n;
      block('li', extra, () => walkChildren(el));
      return;
    }
    const preformatted = st.whiteSpace.startsWith('pre') || st.whiteSpace === 'break-spaces';
    if (st.display.startsWith('inline') || st.display === 'contents') {
      // inline-block and friends are boxes of their own: keep words apart.
      const boxed = st.display !== 'inline' && st.display !== 'contents';
      if (boxed) addText(' ');
      if (preformatted) pre++;
      walkChildren(el);
      if (preformatted) pre--;
      if (boxed) addText(' ');
      return;
    }
    if (preformatted && !pre) {
      block('pre', null, () => {
        pre++;
        walkChildren(el);
        pre--;
      });
      return;
    }
    block('p', null, () => walkChildren(el));
  };

  const root = document.body || document.documentElement;
  if (root) walk(root);
  flush();
  return { lines, controls, issued: ts.issued(), mutations: ts.mutations() };
}
