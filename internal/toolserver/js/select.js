// select.js is called on an element (this) for the select_option tool. It
// picks the option of a <select> whose value or label is want (exact
// first, then ignoring case, then a unique label containing want), and
// fires the input and change events a user's choice would. It returns
// {label: the chosen option's label} or {error: "why not", options: [...]}.
function (want) {
  const el = this;
  if (el.localName !== 'select') {
    return { error: 'it is a ' + (el.getAttribute('role') || el.localName) + ', not a select; click it and pick from what opens instead' };
  }
  if (el.disabled) return { error: 'the select is disabled' };
  const opts = Array.from(el.options);
  const label = (o) => o.label.replace(/\s+/g, ' ').trim();
  const lower = want.toLowerCase();
  const pick =
    opts.find((o) => o.value === want) ||
    opts.find((o) => label(o) === want) ||
    opts.find((o) => label(o).toLowerCase() === lower) ||
    (() => {
      const some = opts.filter((o) => label(o).toLowerCase().includes(lower));
      return some.length === 1 ? some[0] : null;
    })();
  if (!pick) return { error: 'no option matches', options: opts.map(label) };
  if (pick.disabled) return { error: 'option "' + label(pick) + '" is disabled' };
  for (const o of opts) o.selected = o === pick;
  el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
  return { label: label(pick) };
}
