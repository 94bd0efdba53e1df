// What every view of `mnk serve`'s page shares: `$`, `call`, `showNote`,
// the board (`renderBoard`, `cellName`) and the views' switch and links.
// Plain JS over the JSON API (no build step); loaded first. The views are
// the page's nav links (the server writes them from its one list of
// views), each a script of its own building its section.
"use strict";

const $ = (id) => document.getElementById(id);

// A request to the API: its JSON answer, or an Error with the server's
// message. Never cached: a run or a records file changes under the page.
// Every request says it comes from a script (X-Requested-With), which a
// plain form of another site cannot send: the server refuses a POST
// without it or a JSON body.
async function call(method, path, body) {
  const init = { method, headers: { "X-Requested-With": "mnk" }, cache: "no-store" };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  const data = res.status === 204 ? null : await res.json().catch(() => null);
  if (!res.ok) throw new Error(data && data.error ? data.error : res.status + " " + res.statusText);
  return data;
}

// Shows a view's note line: `text`, in red if `error`.
function showNote(el, text, error) {
  el.textContent = text || "";
  el.className = error ? "error" : "";
}

// A cell's name as mnk writes it: column letter, row from 1 (b2).
function cellName(x, y) {
  return String.fromCharCode(97 + x) + (y + 1);
}

// The cell a name stands for ({x, y}), or null.
function cellAt(name) {
  const m = /^([a-z])([0-9]+)$/.exec(name || "");
  return m ? { x: m[1].charCodeAt(0) - 97, y: Number(m[2]) - 1 } : null;
}

// Draws a board into `el` (shared by the views), sized to the window,
// with column letters and row numbers as the terminal board has them
// (letters above and numbers on the left; below and on the right too
// from 10 columns or rows). `b` has width, height, stones ([{x, y,
// color}] in move order), last (cell name), wins (cell names), hint
// (cell name), numbers (show move numbers), cursor (cell name, for
// keyboard play) and onClick(name) for empty cells (none: not
// clickable).
function renderBoard(el, b) {
  el.innerHTML = "";
  el.classList.add("board");
  const framed = b.width >= 10 || b.height >= 10;
  const cols = b.width + (framed ? 2 : 1);
  const rows = b.height + (framed ? 2 : 1);
  el.style.setProperty("--cols", cols);
  el.style.setProperty("--rows", rows);
  el.style.gridTemplateColumns = "repeat(" + cols + ", var(--cell))";
  const stones = new Map();
  b.stones.forEach((m, i) => stones.set(m.x + "," + m.y, { color: m.color, n: i + 1 }));
  const wins = new Set(b.wins || []);
  const label = (text) => {
    const d = document.createElement("div");
    d.className = "coord";
    d.textContent = text;
    el.appendChild(d);
  };
  const letters = () => {
    label("");
    for (let x = 0; x < b.width; x++) label(String.fromCharCode(97 + x));
    if (framed) label("");
  };
  letters();
  for (let y = 0; y < b.height; y++) {
    label(String(y + 1));
    for (let x = 0; x < b.width; x++) {
      const cell = document.createElement("div");
      const name = cellName(x, y);
      cell.className = "cell";
      cell.dataset.cell = name;
      const s = stones.get(x + "," + y);
      cell.title = name;
      cell.setAttribute("aria-label", name + (s ? " " + s.color : " empty"));
      if (s) {
        cell.classList.add("taken");
        const stone = document.createElement("div");
        stone.className = "stone " + s.color;
        if (b.numbers) stone.textContent = s.n;
        cell.appendChild(stone);
      } else if (b.onClick) {
        cell.addEventListener("click", () => b.onClick(name));
      } else {
        cell.classList.add("taken");
      }
      if (name === b.last) cell.classList.add("last");
      if (wins.has(name)) cell.classList.add("win");
      if (name === b.hint) cell.classList.add("hint");
      if (name === b.cursor) cell.classList.add("cursor");
      el.appendChild(cell);
    }
    if (framed) label(String(y + 1));
  }
  if (framed) letters();
  if (wins.size >= 2) drawLine(el, [...wins]);
}

// Draws the winning line over the board: from one end of the line's
// cells to the other.
function drawLine(el, names) {
  const cells = names.map(cellAt).filter(Boolean);
  // The ends: the cells first and last along the line's direction.
  cells.sort((a, b) => a.x - b.x || a.y - b.y);
  const ends = [cells[0], cells[cells.length - 1]];
  const centre = (c) => {
    const d = el.querySelector("[data-cell='" + cellName(c.x, c.y) + "']");
    return [d.offsetLeft + d.offsetWidth / 2, d.offsetTop + d.offsetHeight / 2];
  };
  const [[x1, y1], [x2, y2]] = ends.map(centre);
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("class", "win-line");
  svg.setAttribute("width", el.scrollWidth);
  svg.setAttribute("height", el.scrollHeight);
  const line = document.createElementNS(ns, "line");
  for (const [k, v] of [["x1", x1], ["y1", y1], ["x2", x2], ["y2", y2]]) line.setAttribute(k, v);
  svg.appendChild(line);
  el.appendChild(svg);
}

// Views: the URL's hash (#play, #training, #replay) picks the section
// shown; the views are the nav links. Each view's script may listen for
// the `mnk:view` event to start or stop its work (the Training view's
// live updates, say). What follows a `/` names something in the view
// (#training/RUN, #replay/0/games.csv/3), a link each view reads with
// `viewLink()` and keeps up to date with `setViewLink()`.
function views() {
  return [...document.querySelectorAll("#tabs a[data-view]")].map((a) => a.dataset.view);
}

function showView() {
  const all = views();
  const name = (location.hash || "#" + all[0]).slice(1).split("/")[0];
  const known = all.includes(name) ? name : all[0];
  for (const s of document.querySelectorAll("section.view")) s.hidden = s.id !== "view-" + known;
  for (const a of document.querySelectorAll("#tabs a")) a.classList.toggle("current", a.dataset.view === known);
  document.dispatchEvent(new CustomEvent("mnk:view", { detail: known }));
}
window.addEventListener("hashchange", showView);

// The part of the hash after the view's name, decoded ("" if none).
function viewLink() {
  const parts = location.hash.slice(1).split("/");
  return parts.slice(1).map(decodeURIComponent).join("/");
}

// Names what the view shows in the URL, without a new history entry.
function setViewLink(view, link) {
  const tail = link ? "/" + link.split("/").map(encodeURIComponent).join("/") : "";
  history.replaceState(null, "", "#" + view + tail);
}
// After every view's script has loaded, so each hears the first event.
document.addEventListener("DOMContentLoaded", showView);
