// Handles /ebooks/search/?query=...&start_index=N: lists the books of this
// replica whose title, author or subjects contain every word of the query
// (case-insensitive), in catalog order, two to a page from start_index
// (1-based), with links to the previous and next pages. Runs once at load.
(function () {
  "use strict";
  var PAGE = 2;
  var BOOKS = [
    {
      "no": 1342,
      "title": "Pride and Prejudice",
      "author": "Jane Austen",
      "keys": "Austen, Jane, 1775-1817 Courtship -- Fiction Sisters -- Fiction England -- Fiction"
    },
    {
      "no": 158,
      "title": "Emma",
      "author": "Jane Austen",
      "keys": "Austen, Jane, 1775-1817 Young women -- Fiction Matchmaking -- Fiction England -- Fiction"
    },
    {
      "no": 161,
      "title": "Sense and Sensibility",
      "author": "Jane Austen",
      "keys": "Austen, Jane, 1775-1817 Sisters -- Fiction England -- Fiction"
    },
    {
      "no": 84,
      "title": "Frankenstein; Or, The Modern Prometheus",
      "author": "Mary Wollstonecraft Shelley",
      "keys": "Shelley, Mary Wollstonecraft, 1797-1851 Science fiction Monsters -- Fiction"
    }
  ];
  var params = new URLSearchParams(window.location.search);
  var q = (params.get("query") || "").trim();
  var start = parseInt(params.get("start_index") || "1", 10);
  if (!(start >= 1)) { start = 1; }
  document.getElementById("search-again").value = q;
  var summary = document.getElementById("search-summary");
  if (q === "") { return; }
  document.title = q + " | Search results | Project Gutenberg";
  var words = q.toLowerCase().split(/\s+/);
  var hits = BOOKS.filter(function (b) {
    var hay = (b.title + " " + b.author + " " + b.keys).toLowerCase();
    return words.every(function (w) { return hay.indexOf(w) >= 0; });
  });
  var shown = hits.slice(start - 1, start - 1 + PAGE);
  summary.textContent = shown.length === 0 ? "No books found." :
    "Displaying results " + start + "–" + (start - 1 + shown.length) + " of " + hits.length + ".";
  var list = document.getElementById("search-results");
  shown.forEach(function (b) {
    var li = document.createElement("li");
    li.className = "booklink";
    var a = document.createElement("a");
    a.href = "/ebooks/" + b.no;
    var t = document.createElement("span");
    t.className = "title";
    t.textContent = b.title;
    var s = document.createElement("span");
    s.className = "subtitle";
    s.textContent = b.author;
    a.appendChild(t);
    a.appendChild(document.createTextNode(" "));
    a.appendChild(s);
    li.appendChild(a);
    list.appendChild(li);
  });
  var nav = document.getElementById("search-pages");
  function pageLink(label, from) {
    var a = document.createElement("a");
    a.href = "/ebooks/search/?query=" + encodeURIComponent(q).replace(/%20/g, "+") + "&start_index=" + from;
    a.textContent = label;
    nav.appendChild(a);
    nav.appendChild(document.createTextNode(" "));
  }
  if (start > 1) { pageLink("Previous", Math.max(1, start - PAGE)); }
  if (start - 1 + PAGE < hits.length) { pageLink("Next", start + PAGE); }
})();
