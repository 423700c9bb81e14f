// Handles /3/search.html?q=...: lists the objects and pages of this replica
// whose name contains every word of the query (case-insensitive), exact
// names first, as the documentation's own search does from its index.
// Runs once at load.
(function () {
  "use strict";
  var INDEX = [
    {
      "name": "itertools",
      "url": "/3/library/itertools.html",
      "kind": "module",
      "where": "itertools \u2014 Functions creating iterators for efficient looping"
    },
    {
      "name": "functools",
      "url": "/3/library/functools.html",
      "kind": "module",
      "where": "functools \u2014 Higher-order functions and operations on callable objects"
    },
    {
      "name": "operator",
      "url": "/3/library/operator.html",
      "kind": "module",
      "where": "operator \u2014 Standard operators as functions"
    },
    {
      "name": "functools.lru_cache",
      "url": "/3/library/functools.html#functools.lru_cache",
      "kind": "function",
      "where": "functools module"
    },
    {
      "name": "functools.partial",
      "url": "/3/library/functools.html#functools.partial",
      "kind": "function",
      "where": "functools module"
    },
    {
      "name": "functools.reduce",
      "url": "/3/library/functools.html#functools.reduce",
      "kind": "function",
      "where": "functools module"
    },
    {
      "name": "itertools.accumulate",
      "url": "/3/library/itertools.html#itertools.accumulate",
      "kind": "function",
      "where": "itertools module"
    },
    {
      "name": "itertools.chain",
      "url": "/3/library/itertools.html#itertools.chain",
      "kind": "function",
      "where": "itertools module"
    },
    {
      "name": "itertools.chain.from_iterable",
      "url": "/3/library/itertools.html#itertools.chain.from_iterable",
      "kind": "class method",
      "where": "itertools module"
    },
    {
      "name": "itertools.count",
      "url": "/3/library/itertools.html#itertools.count",
      "kind": "function",
      "where": "itertools module"
    },
    {
      "name": "itertools.cycle",
      "url": "/3/library/itertools.html#itertools.cycle",
      "kind": "function",
      "where": "itertools module"
    },
    {
      "name": "itertools.islice",
      "url": "/3/library/itertools.html#itertools.islice",
      "kind": "function",
      "where": "itertools module"
    },
    {
      "name": "itertools.repeat",
      "url": "/3/library/itertools.html#itertools.repeat",
      "kind": "function",
      "where": "itertools module"
    },
    {
      "name": "operator.add",
      "url": "/3/library/operator.html#operator.add",
      "kind": "function",
      "where": "operator module"
    },
    {
      "name": "operator.itemgetter",
      "url": "/3/library/operator.html#operator.itemgetter",
      "kind": "function",
      "where": "operator module"
    },
    {
      "name": "The Python Standard Library",
      "url": "/3/library/index.html",
      "kind": "page",
      "where": "library index"
    },
    {
      "name": "Python 3.13 documentation",
      "url": "/3/",
      "kind": "page",
      "where": "documentation home"
    }
  ];
  var params = new URLSearchParams(window.location.search);
  var q = (params.get("q") || "").trim();
  var input = document.getElementById("search-again-q");
  if (input) { input.value = q; }
  var summary = document.getElementById("search-summary");
  var list = document.getElementById("search-results");
  if (!summary || !list || q === "") { return; }
  document.title = "Search — Python 3.13 documentation";
  var words = q.toLowerCase().split(/\s+/);
  var hits = INDEX.filter(function (e) {
    var hay = (e.name + " " + e.where).toLowerCase();
    return words.every(function (w) { return hay.indexOf(w) >= 0; });
  });
  hits.sort(function (a, b) {
    var ea = a.name.toLowerCase() === q.toLowerCase() ? 0 : 1;
    var eb = b.name.toLowerCase() === q.toLowerCase() ? 0 : 1;
    return ea - eb || a.name.localeCompare(b.name);
  });
  summary.textContent = hits.length === 0 ?
    "Your search did not match any documents. Please make sure that all words are spelled correctly." :
    "Search finished, found " + hits.length + " page(s) matching the search query.";
  hits.forEach(function (e) {
    var li = document.createElement("li");
    var a = document.createElement("a");
    a.href = e.url;
    a.textContent = e.name;
    li.appendChild(a);
    li.appendChild(document.createTextNode(" (" + e.kind + ", in " + e.where + ")"));
    list.appendChild(li);
  });
})();
