// shapes.js: boxes {l, t, r, b} and the shapes that clip them.

export const INF = { l: -Infinity, t: -Infinity, r: Infinity, b: Infinity };
const NOTHING = { l: 0, t: 0, r: 0, b: 0 };
// boxOf is a DOMRect as a box.
export const boxOf = (r) => ({ l: r.left, t: r.top, r: r.right, b: r.bottom });
export const meet = (a, b) => ({ l: Math.max(a.l, b.l), t: Math.max(a.t, b.t), r: Math.min(a.r, b.r), b: Math.min(a.b, b.b) });

// clipPathBox bounds what a clip-path leaves of box b (a DOMRect): an
// inset() cuts its sides, a polygon() is bounded by its points, a
// circle() or ellipse() with a radius of 0 and a url() naming a clipPath
// that emptyClip(id) says has no shape leave nothing; other shapes are
// bounded by the box.
export const clipPathBox = (path, b, emptyClip) => {
  const len = (v, whole) => (v.endsWith('%') ? (parseFloat(v) / 100) * whole : parseFloat(v) || 0);
  const whole = boxOf(b);
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
  if (m && emptyClip(m[1])) return NOTHING;
  return whole;
};
