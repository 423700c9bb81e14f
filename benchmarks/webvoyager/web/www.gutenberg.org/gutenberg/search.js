// Handles /ebooks/search/?query=...: lists the books of this replica whose
// title, author or subjects contain every word of the query
// (case-insensitive). Runs once at load.
(function () {
  "use strict";
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
  var q = (new URLSearchParams(window.location.search).get("query") || "").trim();
  document.getElementById("search-again").value = q;
  var summary = document.getElementById("search-summary");
  if (q === "") { return; }
  document.title = q + " | Search results | Project Gutenberg";
  var words = q.toLowerCase().split(/\s+/);
  var hits = BOOKS.filter(function (b) {
    var hay = (b.title + " " + b.author + " " + b.keys).toLowerCase();
    return words.every(function (w) { return hay.indexOf(w) >= 0; });
  });
  summary.textContent = hits.length === 0 ? "No books found." : "Displaying results 1–" + hits.length + ".";
  var list = document.getElementById("search-results");
  hits.forEach(function (b) {
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
})();
