// Handles /std/index.html?search=...: shows the items of a fixed search index
// in place of the crate docs, under two tabs as rustdoc does: "In Names",
// the items whose path contains every word of the query, and "In Return
// Types", the functions whose return type contains it. Runs once at load,
// then reacts only to clicks on the tabs; without a query the page is left
// unchanged.
(function () {
  "use strict";

  var ITEMS = [
    { path: "std", kind: "crate", url: "/std/index.html", desc: "The Rust Standard Library" },
    { path: "std::string", kind: "mod", url: "/std/string/index.html", desc: "A growable, UTF-8 encoded string type." },
    { path: "std::string::String", kind: "struct", url: "/std/string/struct.String.html", desc: "A growable string, stored as UTF-8." },
    { path: "std::string::String::new", kind: "method", ret: "String", url: "/std/string/struct.String.html#method.new", desc: "Creates a new, empty String." },
    { path: "std::string::String::with_capacity", kind: "method", ret: "String", url: "/std/string/struct.String.html#method.with_capacity", desc: "Creates a new, empty String with room for at least the given number of bytes." },
    { path: "std::string::String::push_str", kind: "method", url: "/std/string/struct.String.html#method.push_str", desc: "Appends a string slice to the end of this String." },
    { path: "std::string::String::push", kind: "method", url: "/std/string/struct.String.html#method.push", desc: "Appends one character to the end of the string." },
    { path: "std::string::String::len", kind: "method", ret: "usize", url: "/std/string/struct.String.html#method.len", desc: "Returns the length of the string in bytes." },
    { path: "std::string::String::trim", kind: "method", ret: "&str", url: "/std/string/struct.String.html#method.trim", desc: "Returns a string slice with leading and trailing whitespace removed." },
    { path: "str", kind: "primitive", url: "/std/primitive.str.html", desc: "String slices." },
    { path: "str::trim", kind: "method", ret: "&str", url: "/std/primitive.str.html#method.trim", desc: "Returns a string slice with leading and trailing whitespace removed." },
    { path: "str::trim_start", kind: "method", ret: "&str", url: "/std/primitive.str.html#method.trim_start", desc: "Returns a string slice with leading whitespace removed." },
    { path: "str::trim_end", kind: "method", ret: "&str", url: "/std/primitive.str.html#method.trim_end", desc: "Returns a string slice with trailing whitespace removed." },
    { path: "str::trim_matches", kind: "method", ret: "&str", url: "/std/primitive.str.html#method.trim_matches", desc: "Removes every matching prefix and suffix." },
    { path: "str::len", kind: "method", ret: "usize", url: "/std/primitive.str.html#method.len", desc: "Returns the length of self in bytes." },
    { path: "str::contains", kind: "method", ret: "bool", url: "/std/primitive.str.html#method.contains", desc: "Returns true if the pattern occurs in the slice." },
    { path: "str::find", kind: "method", ret: "Option<usize>", url: "/std/primitive.str.html#method.find", desc: "Returns the byte index of the first match of a pattern." },
    { path: "str::split", kind: "method", url: "/std/primitive.str.html#method.split", desc: "An iterator over substrings separated by a pattern." },
    { path: "str::split_whitespace", kind: "method", url: "/std/primitive.str.html#method.split_whitespace", desc: "Splits a slice on whitespace." },
    { path: "str::parse", kind: "method", url: "/std/primitive.str.html#method.parse", desc: "Parses the slice into another type." },
    { path: "str::replace", kind: "method", ret: "String", url: "/std/primitive.str.html#method.replace", desc: "Replaces all matches of a pattern with another string." },
    { path: "str::to_uppercase", kind: "method", ret: "String", url: "/std/primitive.str.html#method.to_uppercase", desc: "Returns the uppercase equivalent as a new String." },
    { path: "str::to_lowercase", kind: "method", ret: "String", url: "/std/primitive.str.html#method.to_lowercase", desc: "Returns the lowercase equivalent as a new String." },
    { path: "str::repeat", kind: "method", ret: "String", url: "/std/primitive.str.html#method.repeat", desc: "Creates a new String by repeating a string n times." },
    { path: "std::vec::Vec", kind: "struct", url: null, desc: "A contiguous growable array type." },
    { path: "std::option::Option", kind: "enum", url: null, desc: "The Option type." }
  ];

  var params = new URLSearchParams(window.location.search);
  var q = (params.get("search") || "").trim();
  var input = document.querySelector(".search-input");
  if (input) {
    input.value = q;
  }
  if (!q) {
    return;
  }

  var words = q.toLowerCase().split(/\s+/);
  var hits = ITEMS.filter(function (item) {
    var p = item.path.toLowerCase();
    return words.every(function (w) { return p.indexOf(w) >= 0; });
  });
  // Shorter paths first, as an exact item name is usually what is wanted.
  hits.sort(function (a, b) { return a.path.length - b.path.length || (a.path < b.path ? -1 : 1); });

  document.title = "Results for " + q + " - Rust";
  document.getElementById("crate-docs").hidden = true;
  document.getElementById("search-results-area").hidden = false;
  document.getElementById("search-title").textContent = hits.length === 0 ?
    "No results for \u201c" + q + "\u201d" : "Results for \u201c" + q + "\u201d";

  var returning = ITEMS.filter(function (item) {
    var r = (item.ret || "").toLowerCase();
    return r !== "" && words.every(function (w) { return r.indexOf(w) >= 0; });
  });
  returning.sort(function (a, b) { return a.path < b.path ? -1 : 1; });

  function fill(list, items) {
    if (items.length === 0) {
      var none = document.createElement("li");
      none.textContent = "No results.";
      list.appendChild(none);
    }
    items.forEach(function (item) {
      var li = document.createElement("li");
      var name;
      if (item.url) {
        name = document.createElement("a");
        name.href = item.url;
      } else {
        name = document.createElement("span");
      }
      name.className = "result-name " + item.kind;
      name.textContent = item.path;
      li.appendChild(name);
      var kind = document.createElement("span");
      kind.className = "result-kind";
      kind.textContent = " " + item.kind + (item.ret ? " \u2192 " + item.ret : "");
      li.appendChild(kind);
      var desc = document.createElement("div");
      desc.className = "desc";
      desc.textContent = item.desc;
      li.appendChild(desc);
      list.appendChild(li);
    });
  }

  var area = document.getElementById("search-results-area");
  var names = document.getElementById("search-results");
  var returns = document.createElement("ul");
  returns.className = "search-results";
  returns.id = "search-results-returns";
  area.appendChild(returns);
  fill(names, hits);
  fill(returns, returning);

  var tablist = document.createElement("div");
  tablist.className = "search-tabs";
  tablist.setAttribute("role", "tablist");
  area.insertBefore(tablist, names);
  var panels = [["In Names", names], ["In Return Types", returns]];
  var tabs = panels.map(function (pair, i) {
    var tab = document.createElement("button");
    tab.type = "button";
    tab.id = "search-tab-" + i;
    tab.setAttribute("role", "tab");
    tab.setAttribute("aria-controls", pair[1].id);
    tab.textContent = pair[0];
    pair[1].setAttribute("role", "tabpanel");
    pair[1].setAttribute("aria-labelledby", tab.id);
    tablist.appendChild(tab);
    return tab;
  });
  function select(n) {
    tabs.forEach(function (tab, i) {
      tab.setAttribute("aria-selected", i === n ? "true" : "false");
      panels[i][1].hidden = i !== n;
    });
  }
  tabs.forEach(function (tab, i) {
    tab.addEventListener("click", function () { select(i); });
  });
  select(0);
})();
