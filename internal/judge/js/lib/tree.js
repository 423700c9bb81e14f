// tree.js: the composed (flat) tree, as CSS renders it.

// The parent in the flat tree: the slot an element is assigned to, or
// the host of a shadow root.
const flatParent = (node) => {
  if (node.assignedSlot) return node.assignedSlot;
  const p = node.parentNode;
  if (!p) return null;
  if (p.nodeType === 11) return p.host || null;
  return p;
};

// The parent element in the flat tree, or null at the top.
const flatParentElement = (node) => {
  const p = flatParent(node);
  return p && p.nodeType === 1 ? p : null;
};

// once returns f computed at most once per argument: what a rule decides
// of an element is kept for the rest of the query.
const once = (f) => {
  const kept = new Map();
  return (x) => {
    if (kept.has(x)) return kept.get(x);
    const v = f(x);
    kept.set(x, v);
    return v;
  };
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
