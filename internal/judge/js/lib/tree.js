// tree.js: the composed (flat) tree, as CSS renders it.

// The parent in the flat tree: the slot an element is assigned to, or
// the host of a shadow root.
export const flatParent = (node) => {
  if (node.assignedSlot) return node.assignedSlot;
  const p = node.parentNode;
  if (!p) return null;
  if (p.nodeType === 11) return p.host || null;
  return p;
};

// The parent element in the flat tree, or null at the top.
export const flatParentElement = (node) => {
  const p = flatParent(node);
  return p && p.nodeType === 1 ? p : null;
};

// once returns f computed at most once per argument: what a rule decides
// of an element is kept for the rest of the query.
export const once = (f) => {
  const kept = new Map();
  return (x) => {
    if (kept.has(x)) return kept.get(x);
    const v = f(x);
    kept.set(x, v);
    return v;
  };
};

// The children in the flat tree.
export const flatChildren = (node) => {
  if (node.nodeType === 1) {
    if (node.shadowRoot) return node.shadowRoot.childNodes;
    if (node.localName === 'slot' && typeof node.assignedNodes === 'function') {
      const assigned = node.assignedNodes();
      if (assigned.length > 0) return assigned;
    }
  }
  return node.childNodes;
};

// flatContains tells whether a is el or one of its ancestors in the flat
// tree.
export const flatContains = (a, el) => {
  for (let e = el; e && e.nodeType === 1; e = flatParent(e)) if (e === a) return true;
  return false;
};

// openRoots is the document and every open shadow root in it, in
// composed tree order.
export const openRoots = (doc) => {
  const roots = [doc];
  const find = (node) => {
    const walker = doc.createTreeWalker(node, NodeFilter.SHOW_ELEMENT);
    for (let el = walker.currentNode; el; el = walker.nextNode()) {
      if (el.nodeType === 1 && el.shadowRoot) {
        roots.push(el.shadowRoot);
        find(el.shadowRoot);
      }
    }
  };
  find(doc);
  return roots;
};

// composedOrder numbers the elements of the document in composed tree
// order, for sorting matches across roots.
export const composedOrder = (doc) => {
  const order = new Map();
  let i = 0;
  const visit = (node) => {
    if (node.nodeType === 1) order.set(node, i++);
    if (node.nodeType === 1 && node.shadowRoot) for (const c of node.shadowRoot.childNodes) visit(c);
    for (const c of node.childNodes) visit(c);
  };
  visit(doc.documentElement);
  return order;
};
