// text.js: text as the contract compares it.

// White space as the contract folds it: a run of it is one space, none at
// either end. A no-break space is a space.
const isWS = (c) =>
  c === 32 || (c >= 9 && c <= 13) || c === 0x85 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) ||
  c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000;

// foldText is fold's text alone, quicker: a run of white space is one
// space, none at either end.
const WS_RUN = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/g;
export const foldText = (segs) => {
  let t = segs.map((g) => g.s).join('').replace(WS_RUN, ' ');
  if (t.startsWith(' ')) t = t.slice(1);
  if (t.endsWith(' ')) t = t.slice(0, -1);
  return t;
};

// fold joins segments {s, ...} and folds their white space, keeping for
// each character of the text the segment (seg, or -1 for a space that
// stands for a run) and the place in it (off) it came from.
export const fold = (segs) => {
  const parts = [], seg = [], off = [];
  let space = false, n = 0;
  segs.forEach((g, i) => {
    const t = g.s;
    let from = 0;
    for (let k = 0; k <= t.length; k++) {
      if (k < t.length && !isWS(t.charCodeAt(k))) continue;
      if (k > from) {
        if (space && n > 0) {
          parts.push(' ');
          seg.push(-1);
          off.push(0);
          n++;
        }
        parts.push(t.slice(from, k));
        for (let c = from; c < k; c++) {
          seg.push(i);
          off.push(c);
        }
        n += k - from;
        space = false;
      }
      if (k < t.length) space = true;
      from = k + 1;
    }
  });
  return { text: parts.join(''), seg, off };
};

// spansOf names the pieces of the page that make up characters [at, at+n)
// of a folded text, segments being {s, node, at, pseudo}: [id, start, end)
// of a text node's data, or [id, -1 | -2, 0] for the text of an
// element's ::before or ::after (at is -1 or -2), id the node's number.
export const spansOf = (segs, folded, at, n, idOf) => {
  const spans = new Map();
  for (let k = at; k < at + n; k++) {
    const i = folded.seg[k];
    if (i < 0 || !segs[i].node) continue;
    const sp = spans.get(i);
    const o = segs[i].at + folded.off[k];
    if (sp === undefined) spans.set(i, [o, o]);
    else sp[1] = o;
  }
  return Array.from(spans, ([i, [a, b]]) => {
    const g = segs[i];
    return g.pseudo ? [idOf(g.node), g.at, 0] : [idOf(g.node), a, b + 1];
  });
};

// contentText is the text a computed `content` value generates: its
// strings, attr() values (attr(name) gives the attribute's value) and
// quotes, up to the alternative text after a '/'. Counters, images and
// other functions generate nothing here.
export const contentText = (content, attr) => {
  if (!content || content === 'none' || content === 'normal') return '';
  const unescape = (s) => s.replace(/\\([0-9a-fA-F]{1,6})\s?|\\(.)/g, (_, hex, ch) => (hex ? String.fromCodePoint(parseInt(hex, 16)) : ch));
  const TOKEN = /"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|attr\(\s*([^)\s]+)\s*\)|(open|close)-quote|\/|[a-z-]+\([^)]*\)|\S+/g;
  let out = '';
  for (let m; (m = TOKEN.exec(content)); ) {
    if (m[0] === '/') break;
    if (m[1] !== undefined || m[2] !== undefined) out += unescape(m[1] !== undefined ? m[1] : m[2]);
    else if (m[3] !== undefined) out += attr(m[3]) || '';
    else if (m[4] !== undefined) out += '"';
  }
  return out;
};

// cutText cuts s to at most max UTF-16 units, never splitting a surrogate
// pair.
export const cutText = (s, max) => {
  if (s.length <= max) return s;
  let end = max;
  const last = s.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return s.slice(0, end);
};

// excerpt is the text around characters [at, at+n), 60 on each side.
export const excerpt = (text, at, n) => {
  const start = Math.max(0, at - 60), end = Math.min(text.length, at + n + 60);
  return (start > 0 ? '…' : '') + text.slice(start, end) + (end < text.length ? '…' : '');
};
