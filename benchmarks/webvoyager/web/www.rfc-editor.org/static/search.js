// Handles /search/rfc_search_detail.php?title=...: lists the RFCs from a fixed
// index whose number or title matches the query. Only documents with an HTML
// rendering on this site are linked. Runs once at load.
(function () {
  "use strict";

  var INDEX = [
    { n: 9110, title: "HTTP Semantics", date: "June 2022", status: "Internet Standard", url: "/rfc/rfc9110.html" },
    { n: 9111, title: "HTTP Caching", date: "June 2022", status: "Internet Standard", url: null },
    { n: 9112, title: "HTTP/1.1", date: "June 2022", status: "Internet Standard", url: null },
    { n: 9113, title: "HTTP/2", date: "June 2022", status: "Proposed Standard", url: null },
    { n: 9114, title: "HTTP/3", date: "June 2022", status: "Proposed Standard", url: null },
    { n: 7231, title: "Hypertext Transfer Protocol (HTTP/1.1): Semantics and Content", date: "June 2014", status: "Obsoleted by RFC 9110", url: null },
    { n: 3986, title: "Uniform Resource Identifier (URI): Generic Syntax", date: "January 2005", status: "Internet Standard", url: null },
    { n: 8446, title: "The Transport Layer Security (TLS) Protocol Version 1.3", date: "August 2018", status: "Proposed Standard", url: null },
    { n: 9000, title: "QUIC: A UDP-Based Multiplexed and Secure Transport", date: "May 2021", status: "Proposed Standard", url: null },
    { n: 2119, title: "Key words for use in RFCs to Indicate Requirement Levels", date: "March 1997", status: "Best Current Practice", url: null },
    { n: 8174, title: "Ambiguity of Uppercase vs Lowercase in RFC 2119 Key Words", date: "May 2017", status: "Best Current Practice", url: null },
    { n: 6749, title: "The OAuth 2.0 Authorization Framework", date: "October 2012", status: "Proposed Standard", url: null }
  ];

  var params = new URLSearchParams(window.location.search);
  var q = (params.get("title") || params.get("rfc") || "").trim();
  document.getElementById("rfc-q").value = q;
  if (!q) {
    return;
  }

  var words = q.toLowerCase().replace(/^rfc\s*/, "").split(/\s+/).filter(Boolean);
  var hits = INDEX.filter(function (d) {
    var hay = ("rfc " + d.n + " " + d.title).toLowerCase();
    return words.every(function (w) { return hay.indexOf(w) >= 0; });
  });

  document.getElementById("rfc-status").textContent = hits.length === 0 ?
    "No RFCs match \u201c" + q + "\u201d." :
    hits.length + (hits.length === 1 ? " RFC matches" : " RFCs match") + " \u201c" + q + "\u201d.";
  if (hits.length === 0) {
    return;
  }

  var table = document.getElementById("rfc-results");
  var body = table.querySelector("tbody");
  hits.forEach(function (d) {
    var tr = document.createElement("tr");
    var num = document.createElement("td");
    var title = document.createElement("td");
    if (d.url) {
      var a = document.createElement("a");
      a.href = d.url;
      a.textContent = "RFC " + d.n;
      num.appendChild(a);
      var t = document.createElement("a");
      t.href = d.url;
      t.textContent = d.title;
      title.appendChild(t);
    } else {
      num.textContent = "RFC " + d.n;
      title.textContent = d.title;
    }
    var date = document.createElement("td");
    date.textContent = d.date;
    var status = document.createElement("td");
    status.className = "status";
    status.textContent = d.status;
    tr.appendChild(num);
    tr.appendChild(title);
    tr.appendChild(date);
    tr.appendChild(status);
    body.appendChild(tr);
  });
  table.hidden = false;
})();
