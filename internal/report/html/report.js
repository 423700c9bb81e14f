// The HTML report's only script: the outcome and tag filters of the task
// list and the filter of each task's network log. It reads the data-*
// attributes the renderer wrote and only shows or hides elements.
"use strict";
(function () {
  const tasks = Array.from(document.querySelectorAll("section.task"));
  const rows = Array.from(document.querySelectorAll("#results tbody tr"));
  const shown = document.getElementById("shown");
  const chosen = { outcome: new Set(), tag: new Set() };

  function matches(el) {
    const outcome = el.dataset.outcome;
    const tags = (el.dataset.tags || "").split(" ").filter(Boolean);
    if (chosen.outcome.size > 0 && !chosen.outcome.has(outcome)) return false;
    if (chosen.tag.size > 0 && !tags.some((t) => chosen.tag.has(t))) return false;
    return true;
  }

  function apply() {
    let n = 0;
    for (const el of tasks) {
      const ok = matches(el);
      el.classList.toggle("hidden", !ok);
      if (ok) n++;
    }
    for (const el of rows) el.classList.toggle("hidden", !matches(el));
    if (shown) shown.textContent = n + " of " + tasks.length + " shown";
  }

  for (const b of document.querySelectorAll(".filters button[data-filter]")) {
    b.addEventListener("click", () => {
      const set = chosen[b.dataset.filter];
      const v = b.dataset.value;
      if (set.has(v)) set.delete(v); else set.add(v);
      b.setAttribute("aria-pressed", set.has(v) ? "true" : "false");
      apply();
    });
  }
  const all = document.getElementById("show-all");
  if (all) {
    all.addEventListener("click", () => {
      chosen.outcome.clear();
      chosen.tag.clear();
      for (const b of document.querySelectorAll(".filters button[data-filter]")) b.setAttribute("aria-pressed", "false");
      apply();
    });
  }

  // Each network log: a text filter over the row's text, and a switch
  // that keeps only requests that failed or answered 4xx/5xx.
  for (const box of document.querySelectorAll(".netlog")) {
    const text = box.querySelector("input[type=search]");
    const bad = box.querySelector("input[type=checkbox]");
    const count = box.querySelector(".netcount");
    const lines = Array.from(box.querySelectorAll("tbody tr"));
    const filter = () => {
      const q = text.value.trim().toLowerCase();
      let n = 0;
      for (const tr of lines) {
        const ok = (!q || tr.textContent.toLowerCase().includes(q)) && (!bad.checked || tr.classList.contains("bad"));
        tr.classList.toggle("hidden", !ok);
        if (ok) n++;
      }
      count.textContent = n + " of " + lines.length;
    };
    text.addEventListener("input", filter);
    bad.addEventListener("change", filter);
    filter();
  }
  apply();
})();
