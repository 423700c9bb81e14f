// Handles /TR/?filter-tr-name=...: keeps the publications of the list whose
// title or keywords contain every word of the filter (case-insensitive)
// and removes the others. Runs once at load.
(function () {
  "use strict";
  var q = (new URLSearchParams(window.location.search).get("filter-tr-name") || "").trim();
  document.getElementById("filter-tr-name").value = q;
  if (q === "") { return; }
  var words = q.toLowerCase().split(/\s+/);
  var items = Array.prototype.slice.call(document.querySelectorAll("#tr-list li"));
  var kept = 0;
  items.forEach(function (li) {
    var hay = (li.textContent + " " + li.getAttribute("data-tags")).toLowerCase();
    if (words.every(function (w) { return hay.indexOf(w) >= 0; })) {
      kept++;
    } else {
      li.remove();
    }
  });
  document.getElementById("tr-summary").textContent = kept === 0 ?
    "No publication matches \u201c" + q + "\u201d." : kept + " publication(s) match \u201c" + q + "\u201d.";
})();
