// Site search for /en-US/search?q=...: matches the query against a fixed list
// of documentation pages and renders the hits. Pages without a URL are listed
// as text only. Runs once, synchronously, when the page loads.
(function () {
  "use strict";

  var PAGES = [
    { title: "Window: fetch() method", url: "/en-US/docs/Web/API/Window/fetch", area: "Web APIs",
      summary: "Starts fetching a resource from the network and returns a promise that settles with a Response." },
    { title: "Fetch API", url: "/en-US/docs/Web/API/Fetch_API", area: "Web APIs",
      summary: "Interfaces for fetching resources across the network, built on promises." },
    { title: "Response", url: "/en-US/docs/Web/API/Response", area: "Web APIs",
      summary: "The response to a request made with fetch(): status, headers and body readers." },
    { title: "Window", url: "/en-US/docs/Web/API/Window", area: "Web APIs",
      summary: "A browser window or tab holding a DOM document; home of global functions such as fetch()." },
    { title: "Web APIs", url: "/en-US/docs/Web/API", area: "Web APIs",
      summary: "Index of the interfaces browsers expose to JavaScript." },
    { title: "Array.prototype.map()", url: "/en-US/docs/Web/JavaScript/Reference/Global_Objects/Array/map", area: "JavaScript",
      summary: "Builds a new array from the values a function returns for each element." },
    { title: "Array.prototype.filter()", url: "/en-US/docs/Web/JavaScript/Reference/Global_Objects/Array/filter", area: "JavaScript",
      summary: "Returns a shallow copy holding only the elements that pass a test." },
    { title: "Array.prototype.forEach()", url: "/en-US/docs/Web/JavaScript/Reference/Global_Objects/Array/forEach", area: "JavaScript",
      summary: "Calls a function once for each array element." },
    { title: "Array", url: "/en-US/docs/Web/JavaScript/Reference/Global_Objects/Array", area: "JavaScript",
      summary: "Ordered lists of values, with methods to search, transform and copy them." },
    { title: "JavaScript", url: "/en-US/docs/Web/JavaScript", area: "JavaScript",
      summary: "The JavaScript language: tutorials and the complete reference." },
    { title: "WorkerGlobalScope: fetch() method", url: null, area: "Web APIs",
      summary: "The fetch() method as available inside web workers." },
    { title: "Using the Fetch API", url: null, area: "Web APIs",
      summary: "A guide to making requests, reading responses and handling errors with fetch()." },
    { title: "Request", url: null, area: "Web APIs",
      summary: "A resource request: URL, method, headers, body and options." },
    { title: "Headers", url: null, area: "Web APIs",
      summary: "The header list of a request or response." },
    { title: "Response: json() method", url: null, area: "Web APIs",
      summary: "Reads a response body to completion and parses it as JSON." },
    { title: "AbortController", url: null, area: "Web APIs",
      summary: "Lets you cancel one or more requests made with fetch()." },
    { title: "XMLHttpRequest", url: null, area: "Web APIs",
      summary: "The older callback-based interface for HTTP requests." },
    { title: "Array.prototype.flatMap()", url: null, area: "JavaScript",
      summary: "Maps each element with a function, then flattens the result by one level." },
    { title: "Array.from()", url: null, area: "JavaScript",
      summary: "Creates an array from an iterable or array-like object, with an optional map function." },
    { title: "Array.prototype.reduce()", url: null, area: "JavaScript",
      summary: "Folds an array into a single value with an accumulator function." },
    { title: "Map", url: null, area: "JavaScript",
      summary: "A collection of key and value pairs that remembers insertion order." },
    { title: "TypedArray.prototype.map()", url: null, area: "JavaScript",
      summary: "The map() method of typed arrays, which returns a typed array of the same kind." },
    { title: "Promise", url: null, area: "JavaScript",
      summary: "The eventual completion or failure of an asynchronous operation." },
    { title: "async function", url: null, area: "JavaScript",
      summary: "Declares a function whose body can await promises." }
  ];

  function terms(q) {
    return q.toLowerCase().replace(/[^a-z0-9.()_\s-]/g, " ").split(/\s+/).filter(Boolean);
  }

  function score(page, words) {
    var title = page.title.toLowerCase();
    var hay = title + " " + page.summary.toLowerCase() + " " + (page.url || "").toLowerCase();
    var total = 0;
    for (var i = 0; i < words.length; i++) {
      if (hay.indexOf(words[i]) < 0) {
        return 0;
      }
      total += title.indexOf(words[i]) >= 0 ? 10 : 1;
    }
    return total;
  }

  var params = new URLSearchParams(window.location.search);
  var q = (params.get("q") || "").trim();
  document.getElementById("search-q").value = q;
  if (!q) {
    return;
  }
  document.title = q + " | Search | MDN";
  document.getElementById("search-heading").textContent = "Search results for \u201c" + q + "\u201d";

  var words = terms(q);
  var hits = [];
  for (var i = 0; i < PAGES.length; i++) {
    var s = score(PAGES[i], words);
    if (s > 0) {
      hits.push({ page: PAGES[i], score: s, order: i });
    }
  }
  // Stable order: best score first, then the list's own order.
  hits.sort(function (a, b) { return b.score - a.score || a.order - b.order; });

  document.getElementById("search-summary").textContent =
    hits.length === 0 ? "No documents found for \u201c" + q + "\u201d." :
    hits.length + (hits.length === 1 ? " document found." : " documents found.");

  var list = document.getElementById("search-results");
  hits.forEach(function (hit) {
    var li = document.createElement("li");
    var h = document.createElement("h2");
    if (hit.page.url) {
      var a = document.createElement("a");
      a.href = hit.page.url;
      a.textContent = hit.page.title;
      h.appendChild(a);
    } else {
      h.textContent = hit.page.title;
    }
    li.appendChild(h);
    var where = document.createElement("p");
    where.className = "result-area";
    where.textContent = hit.page.area + (hit.page.url ? " \u203a " + hit.page.url : "");
    li.appendChild(where);
    var p = document.createElement("p");
    p.textContent = hit.page.summary;
    li.appendChild(p);
    list.appendChild(li);
  });
})();
