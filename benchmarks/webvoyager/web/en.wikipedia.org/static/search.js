// Handles /w/index.php?search=...: with the "Go" button (no "fulltext"
// parameter) a query naming an article exactly, ignoring case and treating
// underscores as spaces, goes straight to that article, as the real site does;
// anything else shows a list of matching articles. Runs once at load.
(function () {
  "use strict";

  var ARTICLES = [
    { title: "Eiffel Tower", aliases: ["Tour Eiffel", "La Tour Eiffel", "Eiffel tower Paris"],
      snippet: "Wrought-iron lattice tower on the Champ de Mars in Paris, built 1887–1889 for the World's Fair; 330 m tall to the tip of its antennas.",
      size: "27 KB (4,100 words)" },
    { title: "Speed of light", aliases: ["Lightspeed", "Light speed", "C (speed of light)"],
      snippet: "The speed of light in vacuum, written c, is exactly 299,792,458 metres per second; the upper limit for the speed of any signal.",
      size: "23 KB (3,300 words)" },
    { title: "Paris", aliases: ["Paris, France", "City of Paris"],
      snippet: "Capital and most populous city of France, on the Seine; home of the Eiffel Tower, the Louvre and Notre-Dame.",
      size: "7 KB (450 words)" },
    { title: "Gustave Eiffel", aliases: ["Alexandre Gustave Eiffel", "Eiffel"],
      snippet: "French civil engineer (1832–1923) whose company built the Eiffel Tower and the frame of the Statue of Liberty.",
      size: "6 KB (400 words)" },
    { title: "Metre", aliases: ["Meter", "Metres", "Meters"],
      snippet: "SI base unit of length, defined since 1983 by the distance light travels in vacuum in 1/299,792,458 of a second.",
      size: "6 KB (380 words)" },
    { title: "Main Page", aliases: [],
      snippet: "Welcome to Wikipedia, the free encyclopedia that anyone can edit.",
      size: "5 KB" }
  ];

  function norm(s) {
    return s.replace(/_/g, " ").replace(/\s+/g, " ").trim().toLowerCase();
  }

  function slug(title) {
    return title.replace(/ /g, "_");
  }

  function exact(q) {
    var n = norm(q);
    for (var i = 0; i < ARTICLES.length; i++) {
      var names = [ARTICLES[i].title].concat(ARTICLES[i].aliases);
      for (var j = 0; j < names.length; j++) {
        if (norm(names[j]) === n) {
          return ARTICLES[i];
        }
      }
    }
    return null;
  }

  var params = new URLSearchParams(window.location.search);
  var q = params.get("search") || "";
  var input = document.getElementById("search-again-input");
  input.value = q;
  if (norm(q) === "") {
    return;
  }

  var match = exact(q);
  if (match && !params.has("fulltext")) {
    window.location.replace("/wiki/" + slug(match.title));
    return;
  }

  document.title = q + " - Search results - Wikipedia";
  var words = norm(q).split(" ");
  var hits = ARTICLES.filter(function (a) {
    var hay = norm(a.title + " " + a.aliases.join(" ") + " " + a.snippet);
    return words.every(function (w) { return hay.indexOf(w) >= 0; });
  });

  var create = document.getElementById("search-create");
  create.hidden = false;
  if (match) {
    create.textContent = "There is a page named \u201c";
    var a = document.createElement("a");
    a.href = "/wiki/" + slug(match.title);
    a.textContent = match.title;
    create.appendChild(a);
    create.appendChild(document.createTextNode("\u201d on Wikipedia."));
  } else {
    create.textContent = "The page \u201c" + q + "\u201d does not exist. You can ask for it to be created.";
  }

  var status = document.getElementById("search-status");
  status.textContent = hits.length === 0 ? "There were no results matching the query." :
    "Showing results 1 \u2013 " + hits.length + " of " + hits.length + ".";

  var list = document.getElementById("search-results");
  hits.forEach(function (hit) {
    var li = document.createElement("li");
    li.className = "mw-search-result";
    var head = document.createElement("div");
    head.className = "mw-search-result-heading";
    var link = document.createElement("a");
    link.href = "/wiki/" + slug(hit.title);
    link.textContent = hit.title;
    head.appendChild(link);
    li.appendChild(head);
    var snip = document.createElement("div");
    snip.className = "searchresult";
    snip.textContent = hit.snippet;
    li.appendChild(snip);
    var data = document.createElement("div");
    data.className = "mw-search-result-data";
    data.textContent = hit.size;
    li.appendChild(data);
    list.appendChild(li);
  });
})();
