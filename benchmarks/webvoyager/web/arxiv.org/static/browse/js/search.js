// Handles /search/?query=...&searchtype=all|title|author|abstract: matches the
// query's words against the papers in window.ARXIV_PAPERS (papers.js) and
// renders the results list. Every word must match a whole word of the chosen
// field. Runs once at load.
(function () {
  "use strict";

  var FIELDS = {
    all: function (p) { return [p.id, p.title, p.authors.join(" "), p.abstract, p.subjects.join(" ")].join(" "); },
    title: function (p) { return p.title; },
    author: function (p) { return p.authors.join(" "); },
    abstract: function (p) { return p.abstract; }
  };
  var LABELS = { all: "all", title: "title", author: "author", abstract: "abstract" };

  function words(s) {
    return s.toLowerCase().split(/[^a-z0-9.\-]+/).map(function (w) {
      return w.replace(/^[.\-]+|[.\-]+$/g, "");
    }).filter(Boolean);
  }

  function authorQuery(name) {
    var parts = name.split(" ");
    return parts[parts.length - 1] + ", " + parts.slice(0, -1).join(" ");
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text) { e.textContent = text; }
    return e;
  }

  var params = new URLSearchParams(window.location.search);
  var q = (params.get("query") || "").trim();
  var type = params.get("searchtype") || "all";
  if (!FIELDS.hasOwnProperty(type)) {
    type = "all";
  }
  document.getElementById("search-query").value = q;
  document.getElementById("search-type").value = type;
  if (!q) {
    return;
  }

  var want = words(q);
  var hits = window.ARXIV_PAPERS.filter(function (p) {
    var have = words(FIELDS[type](p));
    return want.every(function (w) { return have.indexOf(w) >= 0; });
  });

  document.title = "Search results for " + LABELS[type] + ": " + q + " | arXiv";
  document.getElementById("search-title").textContent = "Search results";
  document.getElementById("search-count").textContent = hits.length === 0 ?
    "Sorry, your query for " + LABELS[type] + ": " + q + " produced no results." :
    "Showing 1\u2013" + hits.length + " of " + hits.length + " results for " + LABELS[type] + ": " + q;

  var list = document.getElementById("search-results");
  hits.forEach(function (p) {
    var li = el("li", "arxiv-result");
    var head = el("p", "list-title");
    var link = el("a", "", "arXiv:" + p.id);
    link.href = "/abs/" + p.id;
    head.appendChild(link);
    head.appendChild(document.createTextNode(" [pdf, other]"));
    li.appendChild(head);
    li.appendChild(el("div", "tags", p.subjects.join(" ")));
    var title = el("p", "title");
    var tlink = el("a", "", p.title);
    tlink.href = "/abs/" + p.id;
    title.appendChild(tlink);
    li.appendChild(title);
    var authors = el("p", "authors");
    authors.appendChild(el("span", "search-hit", "Authors: "));
    p.authors.forEach(function (name, i) {
      if (i > 0) { authors.appendChild(document.createTextNode(", ")); }
      var a = el("a", "", name);
      a.href = "/search/?query=" + encodeURIComponent(authorQuery(name)).replace(/%20/g, "+") + "&searchtype=author";
      authors.appendChild(a);
    });
    li.appendChild(authors);
    li.appendChild(el("p", "abstract", "Abstract: " + p.abstract));
    li.appendChild(el("p", "submitted", "Submitted " + p.submitted + "; originally announced " + p.announced + "."));
    list.appendChild(li);
  });
})();
