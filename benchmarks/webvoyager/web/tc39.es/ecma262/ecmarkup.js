// Filters the table-of-contents sidebar as the reader types in its search box:
// entries whose title does not contain the typed text are hidden, together
// with their parents when no child matches. It only reacts to typing.
(function () {
  "use strict";

  var box = document.getElementById("menu-search-box");
  var toc = document.getElementById("menu-toc");
  if (!box || !toc) {
    return;
  }

  function filter(li, q) {
    var link = li.querySelector(":scope > a");
    var own = link !== null && link.textContent.toLowerCase().indexOf(q) >= 0;
    var anyChild = false;
    li.querySelectorAll(":scope > ol > li").forEach(function (child) {
      if (filter(child, q)) {
        anyChild = true;
      }
    });
    var visible = q === "" || own || anyChild;
    li.classList.toggle("filtered-out", !visible);
    return visible;
  }

  box.addEventListener("input", function () {
    var q = box.value.trim().toLowerCase();
    toc.querySelectorAll(":scope > ol > li").forEach(function (li) {
      filter(li, q);
    });
  });
})();
