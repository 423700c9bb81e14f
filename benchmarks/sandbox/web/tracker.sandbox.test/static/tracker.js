// Keystone's widgets: the due-date calendar, the assignee picker (a custom
// element with an open shadow root), confirm dialogs, "more actions" menus
// and dragging cards between board columns with pointer events.
"use strict";

const MONTHS = ["January", "February", "March", "April", "May", "June", "July",
  "August", "September", "October", "November", "December"];
const pad = (n) => String(n).padStart(2, "0");

// The due-date calendar: a popup with month navigation and one button per
// day; the chosen day goes into the form's hidden "due" field.
function setUpDatePicker(root) {
  const form = root.closest("form");
  const field = form.elements.due;
  const open = root.querySelector(".open-calendar");
  const chosen = root.querySelector(".chosen");
  const cal = root.querySelector(".calendar");
  let [y, m] = root.dataset.start.split("-").map(Number);
  function draw() {
    cal.textContent = "";
    const head = document.createElement("div");
    head.className = "cal-head";
    const prev = document.createElement("button");
    prev.type = "button";
    prev.textContent = "‹";
    prev.setAttribute("aria-label", "Previous month");
    const title = document.createElement("strong");
    title.textContent = MONTHS[m - 1] + " " + y;
    title.className = "cal-month";
    const next = document.createElement("button");
    next.type = "button";
    next.textContent = "›";
    next.setAttribute("aria-label", "Next month");
    prev.onclick = () => { m--; if (m < 1) { m = 12; y--; } draw(); };
    next.onclick = () => { m++; if (m > 12) { m = 1; y++; } draw(); };
    head.append(prev, title, next);
    const grid = document.createElement("div");
    grid.className = "grid";
    for (const d of ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"]) {
      const s = document.createElement("span");
      s.textContent = d;
      s.setAttribute("aria-hidden", "true");
      grid.append(s);
    }
    const first = (new Date(Date.UTC(y, m - 1, 1)).getUTCDay() + 6) % 7;
    for (let i = 0; i < first; i++) grid.append(document.createElement("span"));
    const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
    for (let d = 1; d <= days; d++) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = d;
      const iso = y + "-" + pad(m) + "-" + pad(d);
      const human = d + " " + MONTHS[m - 1] + " " + y;
      b.setAttribute("aria-label", human);
      b.setAttribute("aria-pressed", field.value === iso ? "true" : "false");
      b.onclick = () => {
        field.value = iso;
        chosen.textContent = "Chosen: " + human;
        cal.hidden = true;
        open.setAttribute("aria-expanded", "false");
        open.focus();
      };
      grid.append(b);
    }
    cal.append(head, grid);
  }
  open.addEventListener("click", () => {
    cal.hidden = !cal.hidden;
    open.setAttribute("aria-expanded", String(!cal.hidden));
    if (!cal.hidden) draw();
  });
}

// <assignee-picker people="user:Name|..." current="user">: one button per
// team member inside an open shadow root; a choice submits the enclosing
// form with the member's user name in its "assignee" field.
class AssigneePicker extends HTMLElement {
  connectedCallback() {
    if (this.shadowRoot) return;
    const root = this.attachShadow({ mode: "open" });
    const style = document.createElement("style");
    style.textContent = ":host{display:block;background:#fff;border-radius:5px;padding:.5rem}" +
      "h3{margin:0 0 .4rem;font-size:.95rem}div{display:flex;flex-wrap:wrap;gap:.3rem}" +
      "button{font:inherit;font-size:.85rem;border:1px solid #9aa7bf;background:#eef2f9;border-radius:4px;padding:.15rem .45rem;cursor:pointer}" +
      "button[aria-pressed=true]{background:#2f4b7c;color:#fff}";
    const h = document.createElement("h3");
    h.textContent = "Assignee";
    const list = document.createElement("div");
    const current = this.getAttribute("current") || "";
    const people = (this.getAttribute("people") || "").split("|").filter(Boolean)
      .map((p) => p.split(":"));
    people.push(["", "Nobody"]);
    for (const [user, name] of people) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = user ? "Assign to " + name : "Unassign";
      b.setAttribute("aria-pressed", String(user === current));
      b.addEventListener("click", () => {
        const form = this.closest("form");
        form.elements.assignee.value = user;
        form.requestSubmit();
      });
      list.append(b);
    }
    root.append(style, h, list);
  }
}
customElements.define("assignee-picker", AssigneePicker);

// Confirm dialogs: a button with data-opens shows the modal dialog of that
// id; its Cancel button closes it.
function setUpDialogs() {
  for (const b of document.querySelectorAll("[data-opens]")) {
    b.addEventListener("click", () => document.getElementById(b.dataset.opens).showModal());
  }
  for (const c of document.querySelectorAll("dialog .cancel")) {
    c.addEventListener("click", () => c.closest("dialog").close());
  }
}

// "More actions" menus show on hover and focus (CSS); a click on the
// button also keeps the menu open until a click elsewhere.
function setUpMenus() {
  for (const b of document.querySelectorAll(".more-button")) {
    b.addEventListener("click", (e) => {
      e.stopPropagation();
      const more = b.closest(".more");
      for (const o of document.querySelectorAll(".more.open")) if (o !== more) o.classList.remove("open");
      more.classList.toggle("open");
    });
  }
  document.addEventListener("click", (e) => {
    if (!e.target.closest(".more")) for (const o of document.querySelectorAll(".more.open")) o.classList.remove("open");
  });
}

// Board: press on a card's link, move past a few pixels and release over
// another column to move the issue there (a form post). A press without
// movement is an ordinary click on the link.
function setUpBoard() {
  const form = document.getElementById("move-form");
  if (!form) return;
  let drag = null;
  let suppressClick = false;
  const columnAt = (x, y) => {
    const el = document.elementFromPoint(x, y);
    return el && el.closest(".column");
  };
  document.addEventListener("pointerdown", (e) => {
    const link = e.target.closest(".card-link");
    if (!link || e.button !== 0) return;
    drag = { link, card: link.closest(".card"), x: e.clientX, y: e.clientY, moving: false, ghost: null, over: null };
  });
  document.addEventListener("pointermove", (e) => {
    if (!drag) return;
    if (!drag.moving) {
      if (Math.abs(e.clientX - drag.x) + Math.abs(e.clientY - drag.y) < 6) return;
      drag.moving = true;
      drag.card.classList.add("dragging");
      drag.ghost = document.createElement("div");
      drag.ghost.className = "drag-ghost";
      drag.ghost.textContent = drag.link.textContent;
      document.body.append(drag.ghost);
    }
    e.preventDefault();
    drag.ghost.style.left = e.clientX + 8 + "px";
    drag.ghost.style.top = e.clientY + 8 + "px";
    const col = columnAt(e.clientX, e.clientY);
    if (col !== drag.over) {
      if (drag.over) drag.over.classList.remove("drop-target");
      if (col) col.classList.add("drop-target");
      drag.over = col;
    }
  });
  document.addEventListener("pointerup", (e) => {
    if (!drag) return;
    const d = drag;
    drag = null;
    if (!d.moving) return;
    suppressClick = true;
    d.ghost.remove();
    d.card.classList.remove("dragging");
    if (d.over) d.over.classList.remove("drop-target");
    const col = columnAt(e.clientX, e.clientY);
    const from = d.card.closest(".column");
    if (!col || col === from) return;
    form.action = "/issues/" + d.card.dataset.key + "/move";
    form.elements.status.value = col.dataset.status;
    form.submit();
  });
  document.addEventListener("click", (e) => {
    if (suppressClick && e.target.closest(".card-link")) e.preventDefault();
    suppressClick = false;
  }, true);
  // A native link drag would swallow the pointer events.
  document.addEventListener("dragstart", (e) => { if (e.target.closest && e.target.closest(".card")) e.preventDefault(); });
}

document.querySelectorAll(".date-picker").forEach(setUpDatePicker);
setUpDialogs();
setUpMenus();
setUpBoard();
