// install.js is evaluated once per document, in the tool server's isolated
// world (a separate JavaScript global that shares the DOM with the page but
// none of its variables, so the page can neither see nor tamper with it).
// It defines globalThis.__ts, the state the other scripts share:
//
//   - the ref registry: element <-> small integer, assigned in the order the
//     snapshot first renders elements, kept in a WeakMap so the page's DOM is
//     never written to and removed elements can be collected;
//   - a mutation clock, for "has the DOM been quiet for a while";
//   - helpers deciding visibility, roles and accessible names.
//
// The expression evaluates to true (also when __ts already exists).
(() => {
  if (globalThis.__ts) return true;

  const refOf = new WeakMap(); // Element -> ref number
  const byRef = new Map(); // ref number -> WeakRef(Element)
  let nextRef = 1;

  let lastMutation = performance.now();
  let mutations = 0;
  new MutationObserver(() => {
    lastMutation = performance.now();
    mutations++;
  }).observe(document, {
    subtree: true,
    childList: true,
    attributes: true,
    characterData: true,
  });

  // Roles that make an element a control of its own when set explicitly.
  const controlRoles = new Set([
    'button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem',
    'menuitemcheckbox', 'menuitemradio', 'option', 'combobox', 'textbox',
    'searchbox', 'slider', 'spinbutton', 'treeitem',
  ]);
  const buttonTypes = new Set(['button', 'submit', 'reset', 'image']);
  // Input types rendered as a plain textbox; others carry type=... .
  const plainTextTypes = new Set(['', 'text']);

  const collapse = (s) => s.replace(/[\s\u00a0]+/g, ' ');

  const ts = {
    // ref returns the ref of el, assigning the next number on first sight.
    ref(el) {
      let r = refOf.get(el);
      if (r === undefined) {
        r = nextRef++;
        refOf.set(el, r);
        byRef.set(r, new WeakRef(el));
      }
      return r;
    },

    // lookup returns the element of ref r, or a string saying why not.
    lookup(r) {
      if (!Number.isInteger(r) || r < 1 || r >= nextRef || !byRef.has(r)) return 'unknown';
      const el = byRef.get(r)?.deref();
      if (!el || !el.isConnected) return 'removed';
      return el;
    },

    // frames are the iframes of other origins the last snapshot met, in
    // reading order (see snapshot.js).
    frames: [],

    // frameAt returns the iframe element of frames[i], or null.
    frameAt(i) {
      return ts.frames[i] || null;
    },

    // startAt makes the refs of this document start after base: the
    // document of an iframe gets a range of its own, so one ref never
    // names two elements of the tab. Only before the first ref.
    startAt(base) {
      if (nextRef === 1) nextRef = base + 1;
      return nextRef - 1;
    },

    // issued is the highest ref handed out in this document.
    issued() {
      return nextRef - 1;
    },

    quietMs() {
      return Math.round(performance.now() - lastMutation);
    },

    mutations() {
      return mutations;
    },

    collapse,

    // hidden reports whether el (with computed style st) and therefore its
    // whole subtree is not rendered. aria-hidden does not count: it hides
    // from screen readers what a person still sees (an icon link's text, a
    // modal the page's styles never hid), and the agent reads as a person.
    hidden(el, st) {
      if (st.display === 'none') return true;
      if (st.visibility === 'hidden' || st.visibility === 'collapse') return true;
      if (st.contentVisibility === 'hidden') return true;
      if (st.display === 'contents') return false;
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) {
        // A zero-size box hides its content only when it clips it or has
        // nothing but text; an empty wrapper around positioned children
        // does not.
        if (st.overflow !== 'visible' || el.childElementCount === 0) return true;
      }
      return false;
    },

    // visible is hidden() for an element found outside a walk: it also
    // checks the ancestors.
    visible(el) {
      if (!el.isConnected) return false;
      if (!el.checkVisibility({ visibilityProperty: true, contentVisibilityAuto: false })) return false;
      const r = el.getBoundingClientRect();
      return r.width > 0 || r.height > 0;
    },

    // role returns the control role of el, or '' when it is not a control.
    role(el, st) {
      const explicit = (el.getAttribute('role') || '').trim().split(/\s+/)[0];
      if (controlRoles.has(explicit)) return explicit;
      const tag = el.localName;
      switch (tag) {
        case 'a':
        case 'area':
          return el.hasAttribute('href') ? 'link' : '';
        case 'button':
          return 'button';
        case 'summary':
          return el.parentElement?.localName === 'details' ? 'button' : '';
        case 'select':
          return 'select';
        case 'textarea':
          return 'textbox';
        case 'input': {
          const type = (el.getAttribute('type') || '').toLowerCase();
          if (type === 'hidden') return '';
          if (buttonTypes.has(type)) return 'button';
          if (type === 'checkbox' || type === 'radio') return type;
          if (type === 'range') return 'slider';
          if (type === 'file') return 'file';
          return 'textbox';
        }
      }
      // A label is handled by the snapshot through the control it names.
      if (tag === 'label') return '';
      if (el.isContentEditable && !el.parentElement?.isContentEditable) return 'textbox';
      if (el.hasAttribute('onclick')) return 'clickable';
      // A pointer cursor that starts at this element (its parent shows
      // another cursor) marks something the page made clickable by script.
      // It counts only when nothing inside is a control already.
      if (st && st.cursor === 'pointer' && el.parentElement &&
          getComputedStyle(el.parentElement).cursor !== 'pointer' &&
          !el.querySelector('a[href],button,input,select,textarea,[role],[onclick],[tabindex]')) {
        return 'clickable';
      }
      return '';
    },

    // region reports whether el is a labelled region (role=region with
    // aria-label or aria-labelledby): a landmark such as a drop zone,
    // which gets a ref although it is no control, and whose content is
    // read as usual.
    region(el) {
      const explicit = (el.getAttribute('role') || '').trim().split(/\s+/)[0];
      return explicit === 'region' && (el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby'));
    },

    // text returns the visible text of el's subtree, white space collapsed,
    // with image alt texts, as a screen reader would read it inline (but,
    // as hidden, with what aria-hidden hides from one).
    text(el) {
      const parts = [];
      const walk = (n) => {
        if (n.nodeType === Node.TEXT_NODE) {
          parts.push(n.data);
          return;
        }
        if (n.nodeType !== Node.ELEMENT_NODE) return;
        const tag = n.localName;
        if (tag === 'script' || tag === 'style' || tag === 'noscript' || tag === 'template') return;
        const st = getComputedStyle(n);
        if (st.display === 'none' || st.visibility === 'hidden') return;
        if (tag === 'img' || (tag === 'input' && n.type === 'image')) {
          parts.push(' ', n.getAttribute('alt') || '', ' ');
          return;
        }
        if (tag === 'svg') {
          const t = n.querySelector('title');
          if (t) parts.push(' ', t.textContent, ' ');
          return;
        }
        if (tag === 'br') {
          parts.push(' ');
          return;
        }
        const block = !st.display.startsWith('inline');
        if (block) parts.push(' ');
        for (const c of ts.children(n)) walk(c);
        if (block) parts.push(' ');
      };
      walk(el);
      return collapse(parts.join('')).trim();
    },

    // name returns the accessible name of control el with role role: what
    // a screen reader announces, simplified to the cases pages use.
    name(el, role) {
      const ids = el.getAttribute('aria-labelledby');
      if (ids) {
        const t = ids.trim().split(/\s+/)
          .map((id) => (el.getRootNode().getElementById ? el.getRootNode() : el.ownerDocument).getElementById(id))
          .filter(Boolean)
          .map((e) => ts.text(e))
          .join(' ')
          .trim();
        if (t) return t;
      }
      const label = collapse(el.getAttribute('aria-label') || '').trim();
      if (label) return label;
      const tag = el.localName;
      if (tag === 'input' && buttonTypes.has(el.type)) {
        if (el.type === 'image') return el.alt || el.value || 'Submit';
        return el.value || (el.type === 'reset' ? 'Reset' : el.type === 'submit' ? 'Submit' : '');
      }
      if (el.labels && el.labels.length) {
        const t = Array.from(el.labels, (l) => ts.labelText(l, el)).join(' ').trim();
        if (t) return t;
      }
      if (tag !== 'input' && tag !== 'select' && tag !== 'textarea' && role !== 'textbox') {
        const t = ts.text(el);
        if (t) return t;
      }
      const title = collapse(el.getAttribute('title') || '').trim();
      if (title) return title;
      if (role === 'link') {
        // An icon link with no text: its target is the best name left.
        const href = el.getAttribute('href') || '';
        const last = href.split(/[?#]/)[0].split('/').filter(Boolean).pop();
        return last || href;
      }
      return '';
    },

    // labelText is the text of label l without the control it names (a
    // label wrapping a select would otherwise repeat every option).
    labelText(l, control) {
      if (!l.contains(control)) return ts.text(l);
      const clone = l.cloneNode(true);
      for (const c of clone.querySelectorAll('input,select,textarea,button')) c.remove();
      return collapse(clone.textContent).trim();
    },

    // children lists the nodes a reader meets inside n: the open shadow
    // root's content instead of the light DOM, and what a slot shows.
    children(n) {
      if (n.shadowRoot) return n.shadowRoot.childNodes;
      if (n.localName === 'slot') {
        const assigned = n.assignedNodes({ flatten: true });
        return assigned.length ? assigned : n.childNodes;
      }
      return n.childNodes;
    },

    // control describes el as the snapshot reports a control; see
    // snapshot.Control in Go for the fields. The state comes from src,
    // which differs from el only for a label standing in for the hidden
    // input it controls (a custom-styled checkbox): the label gets the ref,
    // since it is what a user clicks.
    control(el, role, src = el) {
      const c = { r: ts.ref(el), role };
      const name = src === el ? ts.name(el, role) : ts.labelText(el, src);
      if (name) c.name = name;
      el = src;
      const tag = el.localName;
      // A name from aria-label or aria-labelledby can say other words than
      // the control shows as text (a button reading "menu" named "Toggle
      // Navigation"); the words a person reads are kept too. Pictures
      // (alt texts, SVG titles) do not count: the name stands for them.
      if (name && role !== 'region' && (el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby')) &&
          tag !== 'input' && tag !== 'select' && tag !== 'textarea' && role !== 'textbox') {
        const shown = collapse(el.innerText || '').trim();
        const words = (s) => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) || [];
        const named = new Set(words(name));
        if (words(shown).some((w) => !named.has(w))) c.tx = shown;
      }
      const states = [];
      if (tag === 'input' || tag === 'textarea') {
        const type = (el.getAttribute('type') || '').toLowerCase();
        if (role === 'textbox' && !plainTextTypes.has(type) && tag === 'input') c.type = type;
        if (role === 'checkbox' || role === 'radio') {
          if (el.indeterminate) states.push('mixed');
          else if (el.checked) states.push('checked');
        } else if (role !== 'button' && role !== 'file' && el.value) {
          c.v = type === 'password' ? '••••' : el.value;
        } else if (role === 'file' && el.files && el.files.length) {
          c.v = Array.from(el.files, (f) => f.name).join(', ');
        }
        const ph = collapse(el.getAttribute('placeholder') || '').trim();
        // A field with no label is named by its placeholder, as screen
        // readers do; otherwise the placeholder is a hint worth showing.
        if (ph && !name) c.name = ph;
        else if (ph && ph !== name) c.ph = ph;
        if (el.readOnly) states.push('readonly');
      } else if (tag === 'select') {
        const sel = Array.from(el.selectedOptions, (o) => collapse(o.label).trim());
        if (sel.length) c.v = sel.join(', ');
        c.opts = Array.from(el.options, (o) => collapse(o.label).trim());
        if (el.multiple) states.push('multiple');
      } else if (el.isContentEditable) {
        const t = collapse(el.innerText || '').trim();
        if (t) c.v = t;
      }
      for (const [attr, state] of [['aria-checked', 'checked'], ['aria-selected', 'selected'], ['aria-pressed', 'pressed']]) {
        const v = el.getAttribute(attr);
        if (v === 'true' && !states.includes(state)) states.push(state);
        if (v === 'mixed' && !states.includes('mixed')) states.push('mixed');
      }
      const exp = el.getAttribute('aria-expanded');
      if (exp === 'true') states.push('expanded');
      if (exp === 'false') states.push('collapsed');
      if (tag === 'summary') states.push(el.parentElement.open ? 'expanded' : 'collapsed');
      if (el.disabled || el.getAttribute('aria-disabled') === 'true') states.push('disabled');
      if (states.length) c.st = states;
      if (role === 'link' && el.href) c.href = ts.shortURL(el.href);
      return c;
    },

    // shortURL writes u relative to the document when it shares its
    // origin: the agent already knows the origin from the header.
    shortURL(u) {
      try {
        const url = new URL(u, document.baseURI);
        const here = new URL(document.URL);
        if (url.origin !== here.origin) return url.href;
        if (url.pathname === here.pathname && url.search === here.search && url.hash) return url.hash;
        return url.pathname + url.search + url.hash;
      } catch {
        return u;
      }
    },
  };

  globalThis.__ts = ts;
  return true;
})()
