// The "189 languages" button of an article: shows or hides the list of the
// article's other language versions. Reacts only to clicks on the button.
(function () {
  "use strict";
  var button = document.getElementById("lang-button");
  var list = document.getElementById("lang-list");
  if (!button || !list) {
    return;
  }
  button.addEventListener("click", function () {
    var open = list.hidden;
    list.hidden = !open;
    button.setAttribute("aria-expanded", open ? "true" : "false");
  });
})();
