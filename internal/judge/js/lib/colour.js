// colour.js: computed colours and their contrast.

// rgba parses a computed colour as [r, g, b, a], or null for a form it
// does not know.
export const rgba = (color) => {
  if (!color) return null;
  if (color === 'transparent') return [0, 0, 0, 0];
  const m = /^rgba?\(([^)]*)\)$/.exec(color);
  if (!m) return null;
  const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(parseFloat);
  return p.length >= 3 ? [p[0], p[1], p[2], p.length > 3 ? p[3] : 1] : null;
};

// The relative luminance of [r, g, b], by WCAG's formula.
const luminance = (c) => {
  const lin = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4));
  return 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2]);
};

// The contrast ratio of two colours, by WCAG's formula: 1 to 21.
export const contrast = (f, c) => {
  const a = luminance(f), b = luminance(c);
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
};

// transparent tells a colour (nearly) transparent: its alpha under below.
export const transparent = (color, below) => {
  const c = rgba(color);
  return c !== null && c[3] < below;
};
