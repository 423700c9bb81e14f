// scroll.js is called in the isolated world for the scroll tool. It scrolls
// the scroller under the middle of the viewport (the document, unless the
// page scrolls an inner box) one screen in direction, or to its top or
// bottom, and returns {y, x, height, width, viewH, viewW, moved}: the new
// offsets, the scrollable size, the visible size, and whether it moved.
function (direction) {
  const vertical = direction === 'up' || direction === 'down' || direction === 'top' || direction === 'bottom';
  const canScroll = (e) => {
    const st = getComputedStyle(e);
    const o = vertical ? st.overflowY : st.overflowX;
    if (o !== 'auto' && o !== 'scroll' && o !== 'overlay') return false;
    return vertical ? e.scrollHeight > e.clientHeight : e.scrollWidth > e.clientWidth;
  };
  let box = null;
  for (let e = document.elementFromPoint(innerWidth / 2, innerHeight / 2); e; e = e.parentElement) {
    if (e === document.body || e === document.documentElement) break;
    if (canScroll(e)) {
      box = e;
      break;
    }
  }
  const s = box || document.scrollingElement || document.documentElement;
  const viewH = box ? box.clientHeight : innerHeight;
  const viewW = box ? box.clientWidth : innerWidth;
  const beforeX = s.scrollLeft;
  const beforeY = s.scrollTop;
  const step = { up: [0, -0.8 * viewH], down: [0, 0.8 * viewH], left: [-0.8 * viewW, 0], right: [0.8 * viewW, 0] }[direction];
  if (step) s.scrollBy({ left: step[0], top: step[1], behavior: 'instant' });
  else if (direction === 'top') s.scrollTo({ top: 0, behavior: 'instant' });
  else if (direction === 'bottom') s.scrollTo({ top: s.scrollHeight, behavior: 'instant' });
  return {
    y: Math.round(s.scrollTop),
    x: Math.round(s.scrollLeft),
    height: s.scrollHeight,
    width: s.scrollWidth,
    viewH: Math.round(viewH),
    viewW: Math.round(viewW),
    moved: s.scrollTop !== beforeY || s.scrollLeft !== beforeX,
  };
}
