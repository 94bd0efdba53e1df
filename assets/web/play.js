// The Play view of `mnk serve`: a game against any player spec, over
// /api/games. It opens with a game ready (the last settings, or black
// against the default opponent), marks the last move, draws the winning
// line, lists the moves (a click looks back; play resumes at the end),
// shows the AI's evaluation as a bar, plays from the keyboard (arrows
// move the cursor, Enter or Space plays, Escape stops a think), and while
// the AI thinks says so with a Stop button. Draws with common.js's
// renderBoard.
"use strict";

(function () {
  const view = document.getElementById("view-play");
  view.innerHTML = `
    <form id="setup">
      <label>Game <input id="game" value="gomoku" size="12" title="tictactoe, gomoku, or WxHxK such as 7x6x4 (add -exact for the exact rule)"></label>
      <label>You play <select id="you"><option value="black">black (first)</option><option value="white">white</option></select></label>
      <label>Opponent <input id="opponent" value="hard" size="18" list="opponents" title="easy, hard, perfect, or a player spec such as search:depth=4"></label>
      <datalist id="opponents"><option value="easy"><option value="hard"><option value="perfect"><option value="greedy"><option value="search:depth=4"><option value="search:depth=6"></datalist>
      <label>Weights <select id="weights" title="the weights of a greedy or search opponent (and of the value map)"><option value="">built-in</option></select></label>
      <button type="submit">New game</button>
    </form>
    <div id="controls">
      <button id="undo" type="button">Undo</button>
      <button id="hint" type="button">Hint</button>
      <button id="resign" type="button">Resign</button>
      <button id="swap" type="button" title="a new game with the colours swapped">Swap colours</button>
      <label><input id="numbers" type="checkbox"> move numbers</label>
      <label><input id="valuemap" type="checkbox"> value map</label>
    </div>
    <p id="status" role="status" aria-live="polite">Starting a game…</p>
    <div id="play-main">
      <div id="board-wrap">
        <div id="board" tabindex="0" aria-label="board: arrows move, Enter plays, Escape stops the AI"></div>
      </div>
      <div id="play-side">
        <button id="stop" type="button" hidden title="Play the best move found so far (Escape)">Stop</button>
        <div id="eval" hidden title="The AI's evaluation after its last move">
          <div id="eval-bar"><div id="eval-black"></div></div>
          <p id="eval-text"></p>
        </div>
        <p id="ai-info"></p>
        <ol id="moves" aria-label="moves"></ol>
        <p id="review"></p>
        <p id="values-legend"></p>
        <ul id="messages"></ul>
      </div>
    </div>`;

  let game = null; // the last state the server sent
  let busy = false; // a request that changes the game is in flight
  let gen = 0; // bumped by a new game: older answers are dropped
  let review = null; // the ply looked back at, or null: the game itself
  let cursor = null; // the keyboard's cell
  let pending = null; // the person's move, shown while the AI answers
  let thinkingSince = null;
  let ticker = null;
  const SETTINGS = "mnk-play";

  const THINKING = "The AI is thinking…";

  function status(text, error, thinking) {
    const s = $("status");
    s.textContent = text;
    s.className = error ? "error" : thinking ? "thinking" : "";
  }

  // The thinking state: the status line counts the seconds, the Stop
  // button shows, and the board waits.
  function thinking(text) {
    thinkingSince = Date.now();
    status(text, false, true);
    $("stop").hidden = false;
    $("board").classList.add("waiting");
    clearInterval(ticker);
    ticker = setInterval(() => {
      const s = Math.floor((Date.now() - thinkingSince) / 1000);
      if (s >= 1) status(text + " " + s + " s", false, true);
    }, 500);
  }

  function doneThinking() {
    clearInterval(ticker);
    ticker = null;
    $("stop").hidden = true;
    $("board").classList.remove("waiting");
  }

  // Sends a request that changes the game and shows the state it answers.
  // `pending`: the status line meanwhile; `think`: the AI thinks meanwhile.
  async function act(method, path, body, pending, think) {
    if (busy) return;
    busy = true;
    const mine = gen;
    if (think) thinking(pending);
    else if (pending) status(pending);
    try {
      const g = await call(method, path, body);
      if (mine === gen) show(g);
    } catch (e) {
      if (mine === gen) status(e.message, true);
    } finally {
      if (mine === gen) {
        busy = false;
        doneThinking();
      }
    }
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

  // The AI's evaluation as black's share of a bar (a win fills it), and in
  // words for the person.
  function showEval(g) {
    const box = $("eval");
    if (!g.ai) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    const ai = g.you === "black" ? "white" : "black";
    let share; // the AI's, 0 to 1
    if (/^win/.test(g.ai.eval)) share = 1;
    else if (/^loss/.test(g.ai.eval)) share = 0;
    else if (/^likely win/.test(g.ai.eval)) share = 0.95;
    else if (/^likely loss/.test(g.ai.eval)) share = 0.05;
    else share = 0.5 + 0.5 * Math.tanh(g.ai.score / 3000);
    const black = ai === "black" ? share : 1 - share;
    $("eval-black").style.width = (100 * black).toFixed(1) + "%";
    const who = share > 0.55 ? "the AI (" + ai + ") is better" : share < 0.45 ? "you (" + g.you + ") are better" : "even";
    $("eval-text").textContent = "Evaluation: " + who + " (AI's eval " + g.ai.eval + ")";
  }

  // Colours the empty cells by their score (log scale, as `mnk eval`
  // scales them), outlines the best and marks each side's VCF start.
  async function showValues(g) {
    const legend = $("values-legend");
    legend.textContent = "";
    if (!$("valuemap").checked || g.turn === "over" || review !== null) return;
    let v;
    try {
      v = await call("GET", "/api/games/" + g.id + "/values");
    } catch (e) {
      legend.textContent = "value map: " + e.message;
      return;
    }
    if (game !== g || review !== null) return; // a newer state is shown
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

  // The board: the game, or the position after `review` plies.
  function drawBoard() {
    const g = game;
    const looking = review !== null;
    let stones = looking ? g.moves.slice(0, review) : g.moves;
    const p = !looking && cellAt(pending);
    if (p) stones = stones.concat([{ x: p.x, y: p.y, color: g.you, cell: pending }]);
    const last = stones.length ? stones[stones.length - 1].cell : null;
    renderBoard($("board"), {
      width: g.width, height: g.height, stones, last,
      wins: looking ? [] : g.winning_line, hint: looking ? null : g.hint,
      numbers: $("numbers").checked || looking, cursor,
      onClick: looking || g.turn !== "you" ? null : move,
    });
  }

  // The move list: one button a ply; the one shown is marked.
  function drawMoves() {
    const list = $("moves");
    list.innerHTML = "";
    const shown = review === null ? game.moves.length : review;
    game.moves.forEach((m, i) => {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.type = "button";
      b.className = "ply " + m.color + (i + 1 === shown ? " shown" : "");
      b.textContent = m.cell;
      b.title = "move " + (i + 1) + ", " + m.color + ": look back at it";
      b.addEventListener("click", () => lookBack(i + 1));
      li.appendChild(b);
      list.appendChild(li);
    });
    $("review").textContent = review === null ? "" :
      "Looking back at move " + review + " of " + game.moves.length +
      ": click the last move (or press End) to play on.";
  }

  // Shows the position after `ply` plies; the last ply is the game again.
  function lookBack(ply) {
    if (!game) return;
    review = ply >= game.moves.length ? null : Math.max(0, ply);
    drawBoard();
    drawMoves();
    showValues(game);
  }

  function show(g) {
    game = g;
    review = null;
    pending = null;
    // The game's id in the URL: a reload shows the same game.
    if (location.hash.startsWith("#play") || !location.hash) setViewLink("play", String(g.id));
    drawBoard();
    drawMoves();
    status(describe(g));
    $("ai-info").textContent = describeAi(g);
    showEval(g);
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
    if (!game || game.turn !== "you" || review !== null) return;
    cursor = cell;
    pending = cell;
    drawBoard();
    act("POST", "/api/games/" + game.id + "/move", { cell }, THINKING, true).then(() => {
      // Refused (the status says why): the stone goes.
      if (pending === cell) {
        pending = null;
        drawBoard();
      }
    });
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

  // Starts a game from the form (remembered for the next visit). A game
  // being started or a think in progress is left behind: its answer is
  // dropped.
  function newGame() {
    const body = { game: $("game").value, you: $("you").value, opponent: opponentSpec() };
    try {
      localStorage.setItem(SETTINGS, JSON.stringify({ game: body.game, you: body.you, opponent: $("opponent").value }));
    } catch (e) { /* no storage: nothing remembered */ }
    const old = game;
    gen++;
    busy = false;
    doneThinking();
    cursor = null;
    // Until the new game is shown, the status line must not still read as
    // the old game's.
    const white = body.you === "white";
    act("POST", "/api/games", body, white ? THINKING : "Starting a new game…", white).then(() => {
      // The previous game is ended on the server (saved if unfinished).
      if (old && game && old.id !== game.id) call("DELETE", "/api/games/" + old.id).catch(() => {});
    });
  }

  // Keyboard play on the board: arrows move the cursor, Enter or Space
  // plays there, Home/End and PageUp/PageDown look back through the moves,
  // Escape stops the AI's think.
  function onKey(e) {
    if (!game) return;
    const c = cellAt(cursor) || cellAt(game.last_move) ||
      { x: Math.floor(game.width / 2), y: Math.floor(game.height / 2) };
    const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const shown = review === null ? game.moves.length : review;
    if (steps[e.key]) {
      const [dx, dy] = steps[e.key];
      const x = Math.min(game.width - 1, Math.max(0, c.x + dx));
      const y = Math.min(game.height - 1, Math.max(0, c.y + dy));
      cursor = cellName(x, y);
      drawBoard();
    } else if (e.key === "Enter" || e.key === " ") {
      cursor = cellName(c.x, c.y);
      move(cursor);
    } else if (e.key === "Escape") {
      stopThinking();
    } else if (e.key === "PageUp") {
      lookBack(shown - 1);
    } else if (e.key === "PageDown") {
      lookBack(shown + 1);
    } else if (e.key === "Home") {
      lookBack(0);
    } else if (e.key === "End") {
      lookBack(game.moves.length);
    } else {
      return;
    }
    e.preventDefault();
    $("board").focus();
  }

  // Asks the server to stop the think: the AI plays the best move found.
  // A stop that reaches the server before the move finds no think: it is
  // asked again while the move is awaited.
  async function stopThinking() {
    if (!game || $("stop").hidden) return;
    status("Stopping: the AI plays the best move it has found…", false, true);
    const id = game.id;
    for (let i = 0; i < 40 && busy && game && game.id === id; i++) {
      try {
        if ((await call("POST", "/api/games/" + id + "/stop")).stopped) return;
      } catch (e) {
        status(e.message, true);
        return;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
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
  $("undo").addEventListener("click", () => game && act("POST", "/api/games/" + game.id + "/undo"));
  $("hint").addEventListener("click", () => game && act("POST", "/api/games/" + game.id + "/hint", undefined, "Looking for a hint…", true));
  $("resign").addEventListener("click", () => game && act("POST", "/api/games/" + game.id + "/resign"));
  $("numbers").addEventListener("change", () => game && drawBoard());
  $("stop").addEventListener("click", stopThinking);
  $("board").addEventListener("keydown", onKey);
  // The board follows the window's size; the winning line is drawn again.
  window.addEventListener("resize", () => game && drawBoard());

  // The last settings, if this browser has any.
  try {
    const last = JSON.parse(localStorage.getItem(SETTINGS) || "null");
    if (last) {
      $("game").value = last.game;
      $("you").value = last.you;
      $("opponent").value = last.opponent;
    }
  } catch (e) { /* no storage, or not ours */ }
  loadWeights();

  // On showing the view: the game the link names (#play/ID), the game
  // shown already, or a new game.
  document.addEventListener("mnk:view", async (e) => {
    if (e.detail !== "play") return;
    const id = viewLink();
    if (!id && game) setViewLink("play", String(game.id));
    if (!/^[0-9a-f]{32}$/.test(id)) {
      if (!game && !busy) newGame();
      return;
    }
    if (game && String(game.id) === id) return;
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
})();
