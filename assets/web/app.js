// The Play view of `mnk serve`: plain JS over the JSON API (no build step),
// and what every view shares: `$`, `call`, `showNote`, the board and the
// views' switch and links. It is loaded first.
"use strict";

let game = null;   // the last state the server sent
let busy = false;  // a request is in flight

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

const THINKING = "The AI is thinking…";

// Sends a request that changes the game and shows the state it answers.
// `pending` is the status line meanwhile (none: it stays as it is).
async function act(method, path, body, pending) {
  if (busy) return;
  busy = true;
  if (pending) status(pending, false, true);
  try {
    show(await call(method, path, body));
  } catch (e) {
    status(e.message, true);
  } finally {
    busy = false;
  }
}

function status(text, error, thinking) {
  const s = $("status");
  s.textContent = text;
  s.className = error ? "error" : thinking ? "thinking" : "";
}

// A score in a few characters: 950, 12.3k, 4.5M.
function compact(v) {
  const a = Math.abs(v);
  if (a >= 1e9) return (v / 1e9).toFixed(1) + "G";
  if (a >= 1e6) return (v / 1e6).toFixed(1) + "M";
  if (a >= 1e4) return (v / 1e3).toFixed(1) + "k";
  return String(Math.round(v));
}

// What the AI's search found for its last move.
function describeAi(g) {
  if (!g.ai) return "";
  const a = g.ai;
  const depth = a.depth === 0 ? "proven by " + a.proof : "depth " + a.depth;
  return "AI played " + a.cell + ": " + depth + ", " + a.nodes.toLocaleString("en") +
    " nodes, eval " + a.eval + ", " + a.ms + " ms";
}

// Colours the empty cells by their score (log scale, as `mnk eval` scales
// them), outlines the best and marks each side's VCF start.
async function showValues(g) {
  const legend = $("values-legend");
  legend.textContent = "";
  if (!$("valuemap").checked || g.turn === "over") return;
  let v;
  try {
    v = await call("GET", "/api/games/" + g.id + "/values");
  } catch (e) {
    legend.textContent = "value map: " + e.message;
    return;
  }
  if (game !== g) return; // a newer state is shown
  const best = Math.max(...v.scores.flat().filter((x) => x !== null));
  const bestSet = new Set(v.best);
  const vcfs = v.vcf.filter((x) => x.result === "win");
  const small = g.width <= 10;
  for (let y = 0; y < g.height; y++) {
    for (let x = 0; x < g.width; x++) {
      const s = v.scores[y][x];
      if (s === null) continue;
      const cell = $("board").querySelector("[data-cell='" + cellName(x, y) + "']");
      const t = best > 0 && s > 0 ? Math.min(1, Math.log1p(s) / Math.log1p(best)) : 0;
      cell.style.background = "hsla(" + Math.round(220 * (1 - t)) + ", 75%, 60%, " + (0.15 + 0.6 * t) + ")";
      cell.title = cellName(x, y) + ": " + compact(s);
      if (bestSet.has(cellName(x, y))) cell.classList.add("best");
      if (vcfs.some((w) => w.first === cellName(x, y))) cell.classList.add("vcf");
      if (small) {
        const n = document.createElement("span");
        n.className = "value";
        n.textContent = compact(s);
        cell.appendChild(n);
      }
    }
  }
  const vcfText = v.vcf.map((w) => "VCF for " + w.side + ": " +
    (w.result === "win" ? "from " + w.first + " in " + w.plies + " plies" : w.result)).join("; ");
  legend.textContent = "Scores for " + v.mover + " (weights: " + v.weights + "), best outlined: " +
    v.best.join(" ") + ". " + vcfText + ".";
}

function describe(g) {
  if (g.result === "draw") return "Draw.";
  if (g.result) return (g.result === g.you ? "You win" : "The AI wins") + " (" + g.result + ").";
  if (g.turn === "you") return "Your move (" + g.you + ").";
  return "The AI is to move.";
}

// Draws a board into `el` (shared by the views): `b` has width, height,
// stones ([{x, y, color}] in move order), last (cell name), wins (cell
// names), hint (cell name), numbers (show move numbers) and onClick(name)
// for empty cells (none: not clickable).
function renderBoard(el, b) {
  el.innerHTML = "";
  el.classList.add("board");
  el.style.gridTemplateColumns = "repeat(" + b.width + ", 32px)";
  const stones = new Map();
  b.stones.forEach((m, i) => stones.set(m.x + "," + m.y, { color: m.color, n: i + 1 }));
  const wins = new Set(b.wins || []);
  for (let y = 0; y < b.height; y++) {
    for (let x = 0; x < b.width; x++) {
      const cell = document.createElement("div");
      const name = cellName(x, y);
      cell.className = "cell";
      cell.dataset.cell = name;
      cell.title = name;
      const s = stones.get(x + "," + y);
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
      el.appendChild(cell);
    }
  }
}

// A cell's name as mnk writes it: column letter, row from 1 (b2).
function cellName(x, y) {
  return String.fromCharCode(97 + x) + (y + 1);
}

function show(g) {
  game = g;
  // The game's id in the URL: a reload shows the same game.
  if (location.hash.startsWith("#play") || !location.hash) setViewLink("play", String(g.id));
  renderBoard($("board"), {
    width: g.width, height: g.height, stones: g.moves, last: g.last_move,
    wins: g.winning_line, hint: g.hint, numbers: $("numbers").checked, onClick: move,
  });
  status(describe(g));
  $("ai-info").textContent = describeAi(g);
  showValues(g);
  const list = $("messages");
  list.innerHTML = "";
  for (const m of g.messages) {
    const li = document.createElement("li");
    li.textContent = m;
    list.appendChild(li);
  }
}

function move(cell) {
  if (!game || game.turn !== "you") return;
  act("POST", "/api/games/" + game.id + "/move", { cell }, THINKING);
}

// The opponent spec with the chosen weights file, if any: `greedy` and
// `search:depth=6` become `greedy:weights=F` and `search:depth=6,weights=F`.
function opponentSpec() {
  const spec = $("opponent").value.trim();
  const w = $("weights").value;
  if (!w) return spec;
  const [kind, opts] = spec.split(/:(.*)/s);
  const kept = (opts || "").split(",").filter((o) => o && !o.startsWith("weights="));
  kept.push("weights=" + w);
  return kind + ":" + kept.join(",");
}

// Fills the weights choice with the files for the game typed (once per
// game name; the choice stays while the list is fetched).
let weightsFor = null;
async function loadWeights() {
  const name = $("game").value.trim();
  if (name === weightsFor) return;
  weightsFor = name;
  let list;
  try {
    list = await call("GET", "/api/weights?game=" + encodeURIComponent(name));
  } catch (e) {
    // Not a game name (yet): the list stays as it is, and the server
    // refuses weights for another game when the game starts. (Unless
    // another name was typed meanwhile: its answer is awaited.)
    if (weightsFor === name) weightsFor = null;
    return;
  }
  if (name !== weightsFor) return; // another game was typed meanwhile
  const select = $("weights");
  const chosen = select.value;
  select.length = 1;
  for (const w of list.weights) select.add(new Option(w.path, w.path));
  select.value = [...select.options].some((o) => o.value === chosen) ? chosen : "";
}

function newGame() {
  const body = { game: $("game").value, you: $("you").value, opponent: opponentSpec() };
  const old = game;
  // Until the new game is shown, the status line must not still read as
  // the old game's.
  const pending = body.you === "white" ? THINKING : "Starting a new game…";
  act("POST", "/api/games", body, pending).then(() => {
    // The previous game is ended on the server (saved if unfinished).
    if (old && game && old.id !== game.id) call("DELETE", "/api/games/" + old.id).catch(() => {});
  });
}

$("setup").addEventListener("submit", (e) => {
  e.preventDefault();
  newGame();
});
$("swap").addEventListener("click", () => {
  $("you").value = $("you").value === "black" ? "white" : "black";
  newGame();
});
$("game").addEventListener("change", loadWeights);
$("valuemap").addEventListener("change", () => game && show(game));
loadWeights();
$("undo").addEventListener("click", () => game && act("POST", "/api/games/" + game.id + "/undo"));
$("hint").addEventListener("click", () => game && act("POST", "/api/games/" + game.id + "/hint", undefined, THINKING));
$("resign").addEventListener("click", () => game && act("POST", "/api/games/" + game.id + "/resign"));
$("numbers").addEventListener("change", () => game && show(game));

// Views: the URL's hash (#play, #training, #replay) picks the section shown.
// Each view's script may listen for the `mnk:view` event to start or stop
// its work (the Training view's live updates, say). What follows a `/`
// names something in the view (#training/RUN, #replay/0/games.csv/3), a
// link each view reads with `viewLink()` and keeps up to date with
// `setViewLink()`.
function showView() {
  const name = (location.hash || "#play").slice(1).split("/")[0];
  const known = ["play", "training", "replay"].includes(name) ? name : "play";
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

// A link to a game (#play/ID), on loading the page: that game again.
document.addEventListener("mnk:view", async (e) => {
  const id = e.detail === "play" ? viewLink() : "";
  if (e.detail === "play" && !id && game) setViewLink("play", String(game.id));
  if (!/^[0-9a-f]{32}$/.test(id) || (game && String(game.id) === id)) return;
  try {
    const g = await call("GET", "/api/games/" + id);
    // The form describes the game shown, so New game and Swap colours
    // start one like it.
    $("game").value = g.game;
    $("you").value = g.you;
    $("opponent").value = g.opponent;
    $("weights").value = "";
    loadWeights();
    show(g);
  } catch (err) {
    status("Game " + id + ": " + err.message + ". Start a new game.", true);
  }
});
