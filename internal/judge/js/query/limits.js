// query/limits.js: the thresholds of what a person sees.

// Below this opacity (or colour alpha) nothing is seen.
export const minAlpha = 0.05;
// Text whose contrast ratio with its background is below this is not read.
export const minContrast = 1.2;
