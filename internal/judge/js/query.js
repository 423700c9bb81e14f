// query.js exports query, a function of (queries, maxTexts, maxChars,
// minTextPx, rejected) that returns, for each query {selector, contains} in order,
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
//   skips   true when text of a match was not seen whole inside an
//           element with content-visibility: auto, which the browser may
//           be skipping because it is far from the viewport: such
//           elements are kept for paint.js's reveal, and the judge reads
//           again once they are rendered;
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
import { cutText, excerpt, fold, foldText, spansOf } from './lib/text.js';
import { composedOrder, once, openRoots } from './lib/tree.js';
import { clipping } from './query/clip.js';
import { covering } from './query/cover.js';
import { drawing } from './query/draw.js';
import { inking } from './query/ink.js';
import { reading } from './query/words.js';

export function query(queries, maxTexts, maxChars, minTextPx, rejected) {
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
  const doc = document;
  const view = doc.defaultView;
  const designMode = doc.designMode === 'on';
  // Every open shadow root, and the composed tree order of elements for
  // sorting matches across roots, made when first asked for.
  const roots = openRoots(doc);
  const orderOf = once(() => composedOrder(doc));

  // The rules, each part given what it reads.
  const draw = drawing({ view, designMode });
  const clip = clipping({ doc, view, minTextPx }, draw);
  const cover = covering({ doc, view, roots, orderOf }, draw, clip);
  const ink = inking(draw, cover);
  const { collect, skipping } = reading({ doc, view, minTextPx, refused }, draw, clip, ink, cover);

  const results = queries.map(({ selector, contains }) => {
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
    return { count, hidden, texts, cut: wasCut, found: hits, skips: skipping.size > 0 };
  });
  reg.skipping = skipping;
  return results;
}
