// The Replay view of `mnk serve`: pick a records file and a game, then step
// through it (slider, buttons, ←/→/Home/End) or play it at a chosen speed.
// The server reads the files with the library's readers; this script only
// shows what /api/records answers, and draws with common.js's renderBoard.
"use strict";

(function () {
  const view = document.getElementById("view-replay");
  view.innerHTML = `
    <form id="rp-pick">
      <label>File <select id="rp-file"><option value="">(loading…)</option></select></label>
      <button id="rp-refresh" type="button" title="Look for records files again">Refresh</button>
      <label>Game <input id="rp-number" type="number" min="1" size="5" title="A game number (from 1)"></label>
    </form>
    <p id="rp-note" role="status"></p>
    <div id="rp-main">
      <div id="rp-side">
        <div id="rp-list"><table id="rp-games">
          <thead><tr><th>#</th><th>black</th><th>white</th><th>result</th><th>moves</th></tr></thead>
          <tbody></tbody></table></div>
        <p id="rp-title"></p>
        <p id="rp-sub"></p>
        <p id="rp-status" role="status">Choose a file and a game.</p>
        <p id="rp-end"></p>
        <input id="rp-slider" type="range" min="0" max="0" value="0" aria-label="move">
        <div id="rp-controls">
          <button id="rp-first" type="button" title="Start (Home)">|&lt;</button>
          <button id="rp-prev" type="button" title="Back a move (←)">&lt;</button>
          <button id="rp-play" type="button" title="Play / pause">Play</button>
          <button id="rp-next" type="button" title="Next move (→)">&gt;</button>
          <button id="rp-last" type="button" title="End (End)">&gt;|</button>
        </div>
        <div id="rp-options">
          <label>Speed <select id="rp-speed">
            <option value="250">0.25 s</option><option value="500" selected>0.5 s</option>
            <option value="1000">1 s</option><option value="2000">2 s</option>
          </select> a move</label>
          <label><input id="rp-numbers" type="checkbox"> move numbers</label>
        </div>
      </div>
      <div id="rp-board" aria-label="replay board"></div>
    </div>`;

  let files = [];      // [{folder, path, name}] in the select's order
  let current = null;  // {folder, path, name, count}: the file shown
  let game = null;     // the game's answer from the server
  let ply = 0;         // moves shown
  let timer = null;    // the playing interval
  let shown = false;   // whether the view is on screen
  let keepKey = null;  // "folder/path" of the file opened, kept across refreshes
  let asked = 0;       // counts requests for files and games: only the last is shown

  const get = (url) => call("GET", url);

  // A file's URL: each path component encoded, as safe_join expects.
  function fileUrl(f) {
    return "/api/records/" + f.folder + "/" + f.path.split("/").map(encodeURIComponent).join("/");
  }

  const note = (text, error) => showNote($("rp-note"), text, error);

  function kib(bytes) {
    return bytes < 1024 ? bytes + " B" : (bytes / 1024).toFixed(bytes < 10240 ? 1 : 0) + " KiB";
  }

  async function loadFiles() {
    let data;
    try {
      data = await get("/api/records");
    } catch (e) {
      note(e.message, true);
      return;
    }
    const select = $("rp-file");
    select.innerHTML = "";
    files = [];
    const none = document.createElement("option");
    none.value = "";
    none.textContent = "(choose a records file)";
    select.appendChild(none);
    for (const folder of data.folders) {
      const group = document.createElement("optgroup");
      group.label = folder.name + "/" + (folder.truncated ? " (first files only)" : "");
      for (const f of folder.files) {
        const o = document.createElement("option");
        o.value = String(files.length);
        o.dataset.key = folder.index + "/" + f.path;
        o.textContent = f.path + "  (" + kib(f.bytes) + ")";
        group.appendChild(o);
        files.push({ folder: folder.index, path: f.path, name: folder.name + "/" + f.path });
      }
      if (folder.files.length) select.appendChild(group);
    }
    if (!files.length) note("No records files (.csv, .sgf) in the served folders.");
    // Keep the file chosen before a refresh, if it is still there.
    const again = [...select.options].find((o) => keepKey !== null && o.dataset.key === keepKey);
    if (again) select.value = again.value;
  }

  async function openFile(f) {
    stop();
    current = null;
    game = null;
    $("rp-games").tBodies[0].innerHTML = "";
    clearBoard();
    const token = ++asked;
    keepKey = f ? f.folder + "/" + f.path : null;
    setViewLink("replay", keepKey || "");
    if (!f) return;
    note("Reading " + f.name + "…");
    let data;
    try {
      data = await get(fileUrl(f));
    } catch (e) {
      if (token === asked) note(e.message, true);
      return;
    }
    // A later choice wins over this answer arriving late.
    if (token !== asked) return;
    current = { folder: f.folder, path: f.path, name: f.name, count: data.count };
    const body = $("rp-games").tBodies[0];
    for (const g of data.games) {
      const tr = document.createElement("tr");
      tr.dataset.number = g.number;
      for (const text of [g.number, g.black || "?", g.white || "?", g.result_text, g.moves]) {
        const td = document.createElement("td");
        td.textContent = text;
        tr.appendChild(td);
      }
      tr.title = g.rules + (g.date ? ", " + g.date : "");
      tr.addEventListener("click", () => openGame(g.number));
      body.appendChild(tr);
    }
    $("rp-number").max = data.count;
    note(f.name + ": " + data.count + " game" + (data.count === 1 ? "" : "s") +
      (data.truncated ? " (the list shows the first " + data.games.length + "; type a number for the others)" : "") +
      (data.count ? ". Choose one." : "."));
  }

  async function openGame(number) {
    if (!current) return;
    stop();
    const token = ++asked;
    let g;
    try {
      g = await get(fileUrl(current) + "?game=" + encodeURIComponent(number));
    } catch (e) {
      if (token === asked) note(e.message, true);
      return;
    }
    if (token !== asked) return;
    game = g;
    setViewLink("replay", current.folder + "/" + current.path + "/" + g.number);
    $("rp-number").value = g.number;
    for (const tr of $("rp-games").tBodies[0].rows) {
      tr.classList.toggle("chosen", tr.dataset.number === String(g.number));
    }
    const name = (s) => s || "?";
    $("rp-title").textContent = "Game " + g.number + " of " + g.count + ": " +
      name(g.black) + " (black) vs " + name(g.white) + " (white)";
    $("rp-sub").textContent = g.rules + (g.date ? " · " + g.date.replace("T", " ").replace("Z", " UTC") : "");
    $("rp-slider").max = g.moves.length;
    note("");
    go(0);
  }

  function clearBoard() {
    $("rp-board").innerHTML = "";
    $("rp-board").classList.remove("board");
    $("rp-title").textContent = "";
    $("rp-sub").textContent = "";
    $("rp-end").textContent = "";
    $("rp-slider").max = 0;
    $("rp-slider").value = 0;
    $("rp-status").textContent = "Choose a file and a game.";
  }

  // Shows the position after `n` moves (clamped to the game).
  function go(n) {
    if (!game) return;
    const total = game.moves.length;
    ply = Math.max(0, Math.min(total, n));
    const atEnd = ply === total;
    renderBoard($("rp-board"), {
      width: game.width, height: game.height, stones: game.moves.slice(0, ply),
      last: ply > 0 ? game.moves[ply - 1].cell : null,
      wins: atEnd ? game.winning_line : [], numbers: $("rp-numbers").checked,
    });
    $("rp-slider").value = ply;
    if (ply === 0) {
      $("rp-status").textContent = "start: " + total + " move" + (total === 1 ? "" : "s") + " to play";
    } else {
      const m = game.moves[ply - 1];
      $("rp-status").textContent = "move " + ply + " / " + total + ": " + m.cell + " (" + m.color + ")";
    }
    $("rp-end").textContent = atEnd ? game.end : "";
    if (atEnd) stop();
  }

  function play() {
    if (!game) return;
    if (ply >= game.moves.length) go(0);
    $("rp-play").textContent = "Pause";
    timer = setInterval(() => go(ply + 1), Number($("rp-speed").value));
  }

  function stop() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    $("rp-play").textContent = "Play";
  }

  $("rp-pick").addEventListener("submit", (e) => e.preventDefault());
  $("rp-file").addEventListener("change", () => {
    const v = $("rp-file").value;
    openFile(v === "" ? null : files[Number(v)]);
  });
  $("rp-refresh").addEventListener("click", loadFiles);
  $("rp-number").addEventListener("change", () => {
    const n = Number($("rp-number").value);
    if (Number.isInteger(n) && n >= 1) openGame(n);
  });
  $("rp-slider").addEventListener("input", () => { stop(); go(Number($("rp-slider").value)); });
  $("rp-first").addEventListener("click", () => { stop(); go(0); });
  $("rp-prev").addEventListener("click", () => { stop(); go(ply - 1); });
  $("rp-next").addEventListener("click", () => { stop(); go(ply + 1); });
  $("rp-last").addEventListener("click", () => { stop(); go(Infinity); });
  $("rp-play").addEventListener("click", () => (timer === null ? play() : stop()));
  $("rp-speed").addEventListener("change", () => { if (timer !== null) { stop(); play(); } });
  $("rp-numbers").addEventListener("change", () => go(ply));

  // Whether a key pressed on `t` is the field's own: text is being typed,
  // a select or the slider moves. Checkboxes and buttons leave the arrows
  // to the replay, so they step right after a click.
  function ownsKeys(t) {
    if (!t || !t.tagName) return false;
    if (t.isContentEditable || t.tagName === "SELECT" || t.tagName === "TEXTAREA") return true;
    return t.tagName === "INPUT" && !["checkbox", "radio", "button", "submit"].includes(t.type);
  }

  // The arrows step only while this view is shown.
  document.addEventListener("keydown", (e) => {
    if (!shown || !game || e.altKey || e.ctrlKey || e.metaKey || ownsKeys(e.target)) return;
    const step = { ArrowRight: ply + 1, ArrowLeft: ply - 1, Home: 0, End: Infinity }[e.key];
    if (step === undefined) return;
    e.preventDefault();
    stop();
    go(step);
  });

  document.addEventListener("mnk:view", (e) => {
    shown = e.detail === "replay";
    if (shown) {
      // The bare tab names what is shown at once, not once the files
      // are listed.
      nameShown();
      // Shown again: look for new files (the chosen one stays chosen).
      loadFiles().then(followLink);
    } else stop();
  });

  // On the bare tab (#replay), the URL names the file and game shown.
  function nameShown() {
    if (!viewLink() && current) {
      setViewLink("replay", current.folder + "/" + current.path + (game ? "/" + game.number : ""));
    }
  }

  // Opens what the URL names (#replay/FOLDER/PATH[/GAME]), unless it is
  // shown already.
  async function followLink() {
    // The bare tab: named already, if anything is shown.
    if (!viewLink()) return;
    const parts = viewLink().split("/");
    if (parts.length < 2) return;
    const number = /^[0-9]+$/.test(parts[parts.length - 1]) ? Number(parts.pop()) : null;
    const key = parts.join("/");
    const i = files.findIndex((f) => f.folder + "/" + f.path === key);
    if (i < 0) {
      note("No records file " + key + " here.", true);
      return;
    }
    if (!current || current.folder + "/" + current.path !== key) {
      $("rp-file").value = String(i);
      await openFile(files[i]);
    }
    if (number !== null && (!game || game.number !== number)) await openGame(number);
  }
})();
