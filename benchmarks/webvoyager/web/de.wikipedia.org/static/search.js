// Handles /w/index.php?search=...: with the "Artikel" button (no "fulltext"
// parameter) a query naming a page exactly, ignoring case and treating
// underscores as spaces, goes straight to that page, as the real site does;
// anything else lists the pages of this replica whose title, aliases or
// summary contain every word of the query. Runs once at load.
(function () {
  "use strict";

  var PAGES = [
    {
      "title": "Eiffelturm",
      "slug": "Eiffelturm",
      "aliases": [
        "Tour Eiffel",
        "Eiffel-Turm"
      ],
      "snippet": "Aussichtsturm aus Schmiedeeisen auf dem Marsfeld in Paris, errichtet 1887–1889 zur Weltausstellung."
    },
    {
      "title": "Gustave Eiffel",
      "slug": "Gustave_Eiffel",
      "aliases": [
        "Alexandre Gustave Eiffel",
        "Eiffel"
      ],
      "snippet": "Französischer Ingenieur und Unternehmer (1832–1923), geboren in Dijon; sein Unternehmen baute den Eiffelturm."
    },
    {
      "title": "Paris",
      "slug": "Paris",
      "aliases": [
        "Paris (Frankreich)"
      ],
      "snippet": "Hauptstadt Frankreichs an der Seine."
    },
    {
      "title": "Wikipedia:Hauptseite",
      "slug": "Wikipedia:Hauptseite",
      "aliases": [
        "Hauptseite"
      ],
      "snippet": "Die Hauptseite der deutschsprachigen Wikipedia."
    }
  ];

  function norm(s) {
    return s.replace(/_/g, " ").replace(/\s+/g, " ").trim().toLowerCase();
  }

  function exact(q) {
    var n = norm(q);
    for (var i = 0; i < PAGES.length; i++) {
      var names = [PAGES[i].title].concat(PAGES[i].aliases);
      for (var j = 0; j < names.length; j++) {
        if (norm(names[j]) === n) {
          return PAGES[i];
        }
      }
    }
    return null;
  }

  var params = new URLSearchParams(window.location.search);
  var q = params.get("search") || "";
  document.getElementById("search-again-input").value = q;
  if (norm(q) === "") {
    return;
  }
  var match = exact(q);
  if (match && !params.has("fulltext")) {
    window.location.replace("/wiki/" + match.slug);
    return;
  }
  document.title = q + " – Suchergebnisse – Wikipedia";
  var words = norm(q).split(" ");
  var hits = PAGES.filter(function (p) {
    var hay = norm(p.title + " " + p.aliases.join(" ") + " " + p.snippet);
    return words.every(function (w) { return hay.indexOf(w) >= 0; });
  });
  var create = document.getElementById("search-create");
  create.hidden = false;
  create.textContent = match ? "" : "Die Seite „" + q + "“ existiert nicht.";
  if (match) {
    var a = document.createElement("a");
    a.href = "/wiki/" + match.slug;
    a.textContent = match.title;
    create.appendChild(document.createTextNode("Es gibt eine Seite mit dem Namen "));
    create.appendChild(a);
  }
  document.getElementById("search-status").textContent = hits.length === 0 ?
    "Für die Suchanfrage wurden keine Ergebnisse gefunden." : "Ergebnisse 1 – N von N".replace("N", String(hits.length));
  var list = document.getElementById("search-results");
  hits.forEach(function (hit) {
    var li = document.createElement("li");
    li.className = "mw-search-result";
    var head = document.createElement("div");
    head.className = "mw-search-result-heading";
    var link = document.createElement("a");
    link.href = "/wiki/" + hit.slug;
    link.textContent = hit.title;
    head.appendChild(link);
    li.appendChild(head);
    var snip = document.createElement("div");
    snip.className = "searchresult";
    snip.textContent = hit.snippet;
    li.appendChild(snip);
    list.appendChild(li);
  });
})();
