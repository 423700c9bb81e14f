// Fernhollow Mail: the page behaviour, hand-written, no libraries. The
// site keeps all state on the server; this script stores nothing.
(function () {
  "use strict";

  // The consent banner: post the choice, then take the banner away.
  var consent = document.getElementById("consent-form");
  if (consent) {
    consent.addEventListener("submit", function (e) {
      e.preventDefault();
      var choice = e.submitter ? e.submitter.value : "reject";
      fetch("/consent", { method: "POST", body: new URLSearchParams({ choice: choice }) }).then(function (r) {
        if (r.ok) document.getElementById("consent").remove();
      });
    });
  }

  // The Undo notice disappears after a few seconds.
  document.querySelectorAll(".toast").forEach(function (t) {
    setTimeout(function () { t.remove(); }, Number(t.dataset.timeout) || 6000);
  });

  // Buttons that open a confirmation dialog.
  document.querySelectorAll("[data-dialog]").forEach(function (b) {
    b.addEventListener("click", function () {
      document.getElementById(b.dataset.dialog).showModal();
    });
  });

  // The message list loads its next page when its end comes into view,
  // or at once when End is pressed (the request starts with the key, so
  // the page is busy until the rows are in).
  var list = document.getElementById("message-list");
  var loading = false;
  var again = false;
  var seen = null;
  function load() {
    var more = document.getElementById("more");
    if (!more || !list) return;
    if (loading) { again = true; return; }
    loading = true;
    if (seen) seen.disconnect();
    fetch(more.dataset.next).then(function (r) { return r.text(); }).then(function (html) {
      var t = document.createElement("template");
      t.innerHTML = html;
      // The end marker is swapped for one of the same height, so the page
      // never gets shorter and nothing on it moves.
      var next = t.content.getElementById("more") || t.content.getElementById("list-end");
      if (next) next.remove();
      list.append(t.content);
      if (next) more.replaceWith(next); else more.remove();
      var shown = document.getElementById("shown");
      if (shown) shown.textContent = list.querySelectorAll("li.row").length;
      loading = false;
      if (again) { again = false; load(); } else watch();
    });
  }
  function watch() {
    var more = document.getElementById("more");
    if (!more || !list) return;
    seen = new IntersectionObserver(function (entries) {
      if (!loading && entries.some(function (e) { return e.isIntersecting; })) load();
    });
    seen.observe(more);
  }
  watch();
  // End jumps to the end of the page at once (no smooth scrolling, so
  // nothing moves under the pointer afterwards) and loads the next page.
  document.addEventListener("keydown", function (e) {
    var tag = e.target && e.target.tagName;
    if (e.key !== "End" || tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || !document.getElementById("more")) return;
    e.preventDefault();
    window.scrollTo({ top: document.documentElement.scrollHeight, behavior: "instant" });
    load();
  });

  // The recipient field: a combobox over the contacts.
  document.querySelectorAll("input[role=combobox]").forEach(function (input) {
    var box = document.getElementById(input.getAttribute("aria-controls"));
    var options = Array.prototype.slice.call(box.querySelectorAll("[role=option]"));
    var active = -1;
    function shown() { return options.filter(function (o) { return !o.hidden; }); }
    function close() { box.hidden = true; input.setAttribute("aria-expanded", "false"); setActive(-1); }
    function setActive(i) {
      var s = shown();
      options.forEach(function (o) { o.setAttribute("aria-selected", "false"); });
      active = i;
      if (i >= 0 && s[i]) { s[i].setAttribute("aria-selected", "true"); input.setAttribute("aria-activedescendant", s[i].id); }
      else input.removeAttribute("aria-activedescendant");
    }
    function choose(o) { input.value = o.dataset.value; close(); input.focus(); }
    options.forEach(function (o, i) {
      o.id = box.id + "-" + i;
      o.addEventListener("mousedown", function (e) { e.preventDefault(); });
      o.addEventListener("click", function () { choose(o); });
    });
    input.addEventListener("input", function () {
      var q = input.value.trim().toLowerCase();
      options.forEach(function (o) { o.hidden = q === "" || o.dataset.value.toLowerCase().indexOf(q) < 0; });
      var any = shown().length > 0;
      box.hidden = !any;
      input.setAttribute("aria-expanded", any ? "true" : "false");
      setActive(-1);
    });
    input.addEventListener("keydown", function (e) {
      var s = shown();
      if (box.hidden || s.length === 0) return;
      if (e.key === "ArrowDown") { e.preventDefault(); setActive(Math.min(active + 1, s.length - 1)); }
      else if (e.key === "ArrowUp") { e.preventDefault(); setActive(Math.max(active - 1, 0)); }
      else if (e.key === "Enter" && active >= 0) { e.preventDefault(); choose(s[active]); }
      else if (e.key === "Escape") { close(); }
    });
    document.addEventListener("click", function (e) {
      if (e.target !== input && !box.contains(e.target)) close();
    });
  });

  // Attachments: each chosen file is uploaded at once; the form then names
  // it in a hidden field, so sending is an ordinary form post.
  document.querySelectorAll("input[type=file][data-upload]").forEach(function (input) {
    var status = document.getElementById("upload-status");
    var listEl = document.getElementById("attached");
    input.addEventListener("change", function () {
      var files = Array.prototype.slice.call(input.files);
      status.textContent = "Uploading " + files.length + " file(s)…";
      Promise.all(files.map(function (f) {
        var body = new FormData();
        body.append("file", f);
        return fetch(input.dataset.upload, { method: "POST", body: body }).then(function (r) {
          if (!r.ok) throw new Error(f.name + " was not uploaded");
          return r.json();
        }).then(function (a) {
          var li = document.createElement("li");
          var hidden = document.createElement("input");
          hidden.type = "hidden"; hidden.name = "attachment"; hidden.value = a.name;
          var remove = document.createElement("button");
          remove.type = "button"; remove.textContent = "Remove"; remove.setAttribute("aria-label", "Remove " + a.name);
          remove.addEventListener("click", function () { li.remove(); });
          li.append(hidden, document.createTextNode(a.name + " (" + a.size + " bytes) "), remove);
          listEl.append(li);
          return a.name;
        });
      })).then(function (names) {
        status.textContent = "Attached: " + names.join(", ");
      }, function (err) {
        status.textContent = err.message;
      });
      input.value = "";
    });
  });
})();
