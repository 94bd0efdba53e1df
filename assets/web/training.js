// The Training view of `mnk serve`: the runs under --runs-dir, a run's
// charts drawn here as SVG from the columnar data of GET /api/runs/{name},
// live updates over server-sent events while the view is shown, and the
// check curves of several runs overlaid. Plain JS, no build step.
//
// Charts are built as SVG strings, one <path> per series (never a node per
// point), and long series are thinned to a few points per pixel column
// keeping each column's extremes, so a 2,000-round run draws at once.
"use strict";

(() => {
  const view = document.getElementById("view-training");
  // Okabe and Ito's palette without its yellow, then grey and brown, as the
  // plots use (crates/mnk/src/plot/style.rs `distinct`).
  const COLORS = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#787878", "#8c564b"];
  const color = (i) => COLORS[i % COLORS.length];
  const DASHES = ["", "8 5", "2 4", "14 4"];

  const state = {
    shown: false,      // the view is on screen
    runs: [],          // the last GET /api/runs
    selected: null,    // the run whose charts are shown
    detail: null,      // its last GET /api/runs/{name}
    compare: new Set(),// runs whose check curves are overlaid
    cache: new Map(),  // name → detail, for the overlay
    source: null,      // the EventSource of the selected run
    fetching: false,   // a detail request is in flight
    again: false,      // another was asked for meanwhile
    timer: null,       // the list's refresh timer
  };

  // ---------- page skeleton ----------

  view.innerHTML = `
    <div class="tr-head">
      <h2>Training runs</h2>
      <button type="button" id="tr-refresh">Refresh</button>
      <span id="tr-note" role="status"></span>
    </div>
    <table id="tr-runs" class="tr-table">
      <thead><tr><th title="overlay the check curves of the ticked runs">Compare</th><th>Run</th><th>State</th><th>Game</th>
        <th>Round</th><th>Games</th><th>Last check</th><th>Verdict</th></tr></thead>
      <tbody></tbody>
    </table>
    <div id="tr-compare" hidden></div>
    <div id="tr-detail" hidden></div>`;
  const $ = (sel) => view.querySelector(sel);

  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));

  const getJSON = (path) => call("GET", path);
  const note = (text, error) => showNote($("#tr-note"), text, error);

  // ---------- number formats ----------

  // A number with about 4 significant digits, no "-0".
  function short(v) {
    if (v === 0 || !isFinite(v)) return String(v);
    const a = Math.abs(v);
    if (a >= 1e6 || a < 1e-3) return v.toExponential(2);
    const d = a >= 1000 ? 0 : a >= 100 ? 1 : a >= 10 ? 2 : a >= 1 ? 3 : 4;
    return v.toFixed(d).replace(/\.?0+$/, "");
  }
  function signed(v, d) {
    const t = (v >= 0 ? "+" : "") + v.toFixed(d);
    return /^[+-]?[0.]+$/.test(t) ? "0" : t.replace("-", "−");
  }
  const ELO_LIMIT = 1000; // the server's clamp of an infinite Elo
  const eloText = (e) => Math.abs(e) >= ELO_LIMIT ? (e > 0 ? "+∞" : "−∞") : signed(e, 0);

  function checkText(c) {
    if (!c) return "—";
    if (c.kind === "exact") {
      return `r${c.round}: ${(100 * c.agreement).toFixed(1)}% agreement, ${c.lost_lines} lost`;
    }
    return `r${c.round}: ` + c.refs.map((r) => `${eloText(r.elo)} vs ${esc(r.reference)}`).join(", ");
  }
  function verdictText(v) {
    if (!v) return "—";
    const err = (v.hi - v.lo) / 2;
    return `${eloText(v.elo)} ± ${isFinite(err) && err < ELO_LIMIT ? err.toFixed(0) : "∞"}`;
  }

  // ---------- the runs list ----------

  async function loadRuns() {
    try {
      const data = await getJSON("/api/runs");
      state.runs = data.runs;
      renderRuns();
      note(state.runs.length ? "" : "No runs in the runs folder yet: start one with mnk train --runs-dir …");
    } catch (e) {
      note(e.message, true);
    }
  }

  function renderRuns() {
    const body = $("#tr-runs tbody");
    const rows = [];
    for (const r of state.runs) {
      const sel = r.name === state.selected ? " selected" : "";
      const round = r.round == null ? "—" : r.round + (r.planned_rounds != null ? " / " + r.planned_rounds : "");
      const checked = state.compare.has(r.name) ? " checked" : "";
      const disabled = r.state === "damaged" ? " disabled" : "";
      const live = r.running && r.state === "damaged" ? ' <span class="badge running">running</span>' : "";
      rows.push(`<tr class="run${sel}" data-run="${esc(r.name)}">
        <td><input type="checkbox" class="tr-cmp" aria-label="compare ${esc(r.name)}"${checked}${disabled}></td>
        <td><button type="button" class="tr-open linkish">${esc(r.name)}</button></td>
        <td><span class="badge ${r.state}">${r.state}</span>${live}</td>
        <td>${esc(r.game ?? "—")}</td><td class="num">${round}</td>
        <td class="num">${r.games ? r.games.toLocaleString("en") : "—"}</td>
        <td>${checkText(r.last_check)}</td><td>${verdictText(r.verdict)}</td></tr>`);
      if (r.error) {
        rows.push(`<tr class="tr-error" data-error-of="${esc(r.name)}"><td></td><td colspan="7">${esc(r.error)}</td></tr>`);
      }
    }
    body.innerHTML = rows.join("");
  }

  $("#tr-runs").addEventListener("click", (e) => {
    const row = e.target.closest("tr[data-run]");
    if (!row) return;
    const name = row.dataset.run;
    if (e.target.classList.contains("tr-cmp")) {
      if (e.target.checked) state.compare.add(name); else state.compare.delete(name);
      renderCompare();
      return;
    }
    if (e.target.closest(".tr-open") || e.target.tagName === "TD") select(name);
  });
  $("#tr-refresh").addEventListener("click", () => {
    loadRuns();
    if (state.selected) loadDetail();
  });

  // ---------- one run ----------

  function select(name) {
    setViewLink("training", name);
    if (state.selected !== name) {
      state.selected = name;
      state.detail = null;
      $("#tr-detail").innerHTML = `<p class="tr-loading">Loading ${esc(name)}…</p>`;
    }
    $("#tr-detail").hidden = false;
    renderRuns();
    loadDetail();
    listen();
  }

  // Fetches the selected run's data; requests asked for while one is in
  // flight are folded into one more after it.
  async function loadDetail() {
    if (state.fetching) { state.again = true; return; }
    const name = state.selected;
    if (!name) return;
    state.fetching = true;
    try {
      const d = await getJSON("/api/runs/" + encodeURIComponent(name));
      if (state.selected === name) {
        state.detail = d;
        state.cache.set(name, d);
        renderDetail();
        if (state.compare.has(name)) renderCompare();
      }
    } catch (e) {
      if (state.selected === name) $("#tr-detail").innerHTML = `<p class="error">${esc(e.message)}</p>`;
    } finally {
      state.fetching = false;
      if (state.again) { state.again = false; loadDetail(); }
    }
  }

  // Live updates of the selected run while the view is shown.
  function listen() {
    stopListening();
    if (!state.shown || !state.selected) return;
    const name = state.selected;
    const src = new EventSource("/api/runs/" + encodeURIComponent(name) + "/events");
    src.addEventListener("update", (e) => {
      const s = JSON.parse(e.data);
      const i = state.runs.findIndex((r) => r.name === s.name);
      if (i >= 0) { state.runs[i] = s; renderRuns(); }
      const d = state.detail;
      if (!d || d.round !== s.round || d.state !== s.state || d.error !== s.error ||
          JSON.stringify(d.last_check) !== JSON.stringify(s.last_check) ||
          JSON.stringify(d.verdict) !== JSON.stringify(s.verdict)) {
        loadDetail();
      }
    });
    state.source = src;
  }
  function stopListening() {
    if (state.source) { state.source.close(); state.source = null; }
  }

  function renderDetail() {
    const d = state.detail;
    const el = $("#tr-detail");
    const meta = [d.game, d.player && "player " + d.player, d.optimizer,
      d.round != null ? `round ${d.round}${d.planned_rounds != null ? " of " + d.planned_rounds : ""}` : null,
      d.games ? d.games.toLocaleString("en") + " games" : null].filter(Boolean).map(esc).join(" · ");
    let html = `<div class="tr-title"><h3>${esc(d.name)}</h3><span class="badge ${d.state}">${d.state}</span>
      <span class="tr-meta">${meta}</span></div>`;
    if (d.error) html += `<p class="tr-damaged">This run is damaged: ${esc(d.error)}</p>`;
    const c = d.charts;
    if (c && c.rounds.round.length) {
      const charts = [weightsChart(c), scoresChart(c), checksChart(c, d.verdict), sigmaChart(c), spsaChart(c)];
      html += `<div class="tr-charts">${charts.filter(Boolean).join("")}</div>`;
    } else if (c) {
      html += `<p>No completed round yet.</p>`;
    }
    el.innerHTML = html;
  }

  // ---------- SVG charts ----------

  const W = 560, H = 300;
  const M = { left: 62, right: 14, top: 44, bottom: 40 };

  // About `count` round tick values over [lo, hi]: steps of 1, 2 or 5 × 10^k.
  function ticks(lo, hi, count) {
    if (!(hi > lo)) return [lo];
    const raw = (hi - lo) / Math.max(1, count);
    const p = Math.pow(10, Math.floor(Math.log10(raw)));
    const step = [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw) || raw;
    const out = [];
    for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Math.abs(v) < step * 1e-9 ? 0 : v);
    return out;
  }

  // The range of the finite numbers in `arrays`, at least `span` wide,
  // padded by `pad` of its width.
  function range(arrays, span, pad) {
    let lo = Infinity, hi = -Infinity;
    for (const a of arrays) for (const v of a) if (v != null && isFinite(v)) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
    if (lo === Infinity) { lo = 0; hi = 0; }
    const mid = (lo + hi) / 2;
    lo = Math.min(lo, mid - span / 2); hi = Math.max(hi, mid + span / 2);
    const p = (hi - lo) * pad;
    return [lo - p, hi + p];
  }

  // A chart frame: axes, grid, ticks and labels. Returns the SVG head (to be
  // followed by series and `foot`) and the scales.
  function frame(o) {
    const pw = W - M.left - M.right - (o.legendWidth || 0), ph = H - M.top - M.bottom;
    const x = (v) => M.left + (v - o.x[0]) / (o.x[1] - o.x[0] || 1) * pw;
    const y = (v) => M.top + ph - (v - o.y[0]) / (o.y[1] - o.y[0] || 1) * ph;
    const parts = [`<svg class="chart" data-chart="${o.id}" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(o.title)}">`,
      `<text class="title" x="${M.left}" y="18">${esc(o.title)}</text>`,
      `<defs><clipPath id="clip-${o.id}"><rect x="${M.left}" y="${M.top}" width="${pw}" height="${ph}"/></clipPath></defs>`,
      `<rect class="plot" x="${M.left}" y="${M.top}" width="${pw}" height="${ph}"/>`];
    for (const t of o.yTicks || ticks(o.y[0], o.y[1], 5)) {
      const py = y(t).toFixed(1);
      parts.push(`<line class="grid" x1="${M.left}" x2="${M.left + pw}" y1="${py}" y2="${py}"/>`,
        `<text class="tick" x="${M.left - 6}" y="${py}" dy="0.32em" text-anchor="end">${esc(o.yFmt(t))}</text>`);
    }
    for (const t of ticks(o.x[0], o.x[1], 6).filter((t) => Number.isInteger(t))) {
      const px = x(t).toFixed(1);
      parts.push(`<line class="grid" x1="${px}" x2="${px}" y1="${M.top}" y2="${M.top + ph}"/>`,
        `<text class="tick" x="${px}" y="${M.top + ph + 15}" text-anchor="middle">${t}</text>`);
    }
    parts.push(`<text class="axis" x="${M.left + pw / 2}" y="${H - 6}" text-anchor="middle">${esc(o.xLabel)}</text>`,
      `<text class="axis" transform="translate(13 ${M.top + ph / 2}) rotate(-90)" text-anchor="middle">${esc(o.yLabel)}</text>`);
    if (o.zero != null && o.zero > o.y[0] && o.zero < o.y[1]) {
      const py = y(o.zero).toFixed(1);
      parts.push(`<line class="zero" x1="${M.left}" x2="${M.left + pw}" y1="${py}" y2="${py}"/>`);
    }
    parts.push(`<g clip-path="url(#clip-${o.id})">`);
    return { head: parts.join(""), x, y, pw, ph, clamp: (v) => Math.min(o.y[1], Math.max(o.y[0], v)) };
  }

  // The `d` of a polyline through (xs[i], ys[i]), skipping nulls (a gap),
  // thinned to each pixel column's first, lowest, highest and last points
  // when there are more points than columns.
  function pathD(xs, ys, f) {
    const out = [];
    let pen = false;
    const n = xs.length;
    const thin = n > f.pw * 2;
    let col = null, pts = [];
    const flush = () => {
      if (!pts.length) return;
      let lo = pts[0], hi = pts[0];
      for (const p of pts) { if (p[1] > lo[1]) lo = p; if (p[1] < hi[1]) hi = p; }
      const keep = [pts[0], lo, hi, pts[pts.length - 1]].sort((a, b) => a[2] - b[2]);
      let last = null;
      for (const p of keep) { if (p !== last) { out.push((pen ? "L" : "M") + p[0].toFixed(1) + " " + p[1].toFixed(1)); pen = true; } last = p; }
      pts = [];
    };
    for (let i = 0; i < n; i++) {
      const v = ys[i];
      if (v == null || !isFinite(v)) { flush(); pen = false; col = null; continue; }
      const px = f.x(xs[i]), py = f.y(f.clamp(v));
      if (!thin) { out.push((pen ? "L" : "M") + px.toFixed(1) + " " + py.toFixed(1)); pen = true; continue; }
      const c = Math.round(px);
      if (c !== col) { flush(); col = c; }
      pts.push([px, py, i]);
    }
    flush();
    return out.join("");
  }

  function series(d, stroke, width, dash, cls) {
    if (!d) return "";
    return `<path class="series${cls ? " " + cls : ""}" d="${d}" stroke="${stroke}" stroke-width="${width}"${dash ? ` stroke-dasharray="${dash}"` : ""}/>`;
  }

  // Dots at (xs[i], ys[i]) as one path of tiny circles.
  function dots(xs, ys, f, r, fill) {
    const parts = [];
    for (let i = 0; i < xs.length; i++) {
      if (ys[i] == null) continue;
      const px = f.x(xs[i]), py = f.y(f.clamp(ys[i]));
      parts.push(`M${(px - r).toFixed(1)} ${py.toFixed(1)}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0`);
    }
    return parts.length ? `<path class="dots" d="${parts.join("")}" fill="${fill}"/>` : "";
  }

  // Vertical error bars with caps, as one path.
  function bars(xs, los, his, f, stroke) {
    const parts = [];
    for (let i = 0; i < xs.length; i++) {
      const px = f.x(xs[i]), a = f.y(f.clamp(los[i])), b = f.y(f.clamp(his[i]));
      parts.push(`M${px.toFixed(1)} ${a.toFixed(1)}V${b.toFixed(1)}M${(px - 3).toFixed(1)} ${a.toFixed(1)}h6M${(px - 3).toFixed(1)} ${b.toFixed(1)}h6`);
    }
    return parts.length ? `<path class="bars" d="${parts.join("")}" stroke="${stroke}" stroke-width="1.5" fill="none"/>` : "";
  }

  // A legend of [label, colour, dash, kind] entries: in a row between the
  // title and the plot (so it never covers a line), or in a column right
  // of the plot when `at` (its x) is given.
  function legend(entries, at) {
    const key = (x, y, c, dash, kind) => kind === "dot" ? `<circle cx="${x + 10}" cy="${y}" r="3.5" fill="${c}"/>`
      : `<line x1="${x}" x2="${x + 20}" y1="${y}" y2="${y}" stroke="${c}" stroke-width="2.5"${dash ? ` stroke-dasharray="${dash}"` : ""}/>`;
    const rows = [];
    let x = M.left;
    entries.forEach(([label, c, dash, kind], i) => {
      if (at != null) {
        const y = M.top + 12 + 15 * i;
        rows.push(key(at, y, c, dash, kind) + `<text class="key" x="${at + 25}" y="${y}" dy="0.32em">${esc(label)}</text>`);
      } else {
        const y = M.top - 9;
        rows.push(key(x, y, c, dash, kind) + `<text class="key" x="${x + 25}" y="${y}" dy="0.32em">${esc(label)}</text>`);
        x += 25 + label.length * 5.6 + 16;
      }
    });
    return `<g class="legend${at != null ? " side" : ""}">${rows.join("")}</g>`;
  }

  const foot = "</g></svg>";

  // Weight / its start value per round, on a log axis labelled by factor;
  // own.X solid and opp.X dashed in X's colour, as the plots draw them
  // (and own_combo.X, opp_combo.X likewise).
  function weightsChart(c) {
    const names = c.weights.names, xs = c.rounds.round;
    const kind = (n) => n.replace(/^(own|opp)\./, "").replace(/^(own|opp)_combo\./, "combo.");
    const kinds = [];
    for (const n of names) if (!kinds.includes(kind(n))) kinds.push(kind(n));
    const scalars = names.filter((n) => !n.includes(".")).length;
    const look = (i) => {
      const k = kinds.indexOf(kind(names[i]));
      const col = names[i].includes(".") ? color(Math.max(0, k - scalars)) : color(7 + k);
      return [col, names[i].startsWith("opp") ? "6 3" : ""];
    };
    const lines = [];
    for (let i = 0; i < names.length; i++) {
      const v = c.weights.values[i];
      if (!(v[0] > 0)) continue; // a weight starting at 0 cannot be scaled
      lines.push([i, v.map((w) => Math.log2(w / v[0]))]);
    }
    let [lo, hi] = range(lines.map((l) => l[1]), 2, 0);
    lo = Math.floor(lo) - 0.25; hi = Math.ceil(hi) + 0.25;
    const step = Math.max(1, Math.ceil((hi - lo) / 8));
    const yTicks = [];
    for (let t = Math.ceil(lo); t <= hi; t += step) yTicks.push(t);
    const legendWidth = 150;
    const f = frame({ id: "weights", title: "Weight evolution (weight / its start value)", x: [0, Math.max(1, xs[xs.length - 1])],
      y: [lo, hi], yTicks, yFmt: (t) => "×" + short(Math.pow(2, t)), xLabel: c.x_name, yLabel: "factor (log scale)", zero: 0, legendWidth });
    const body = lines.map(([i, ys]) => { const [col, dash] = look(i); return series(pathD(xs, ys, f), col, 1.6, dash); });
    const key = lines.map(([i, ys]) => {
      const [col, dash] = look(i);
      return [`${names[i]} ×${Math.pow(2, ys[ys.length - 1]).toPrecision(3)}`, col, dash];
    });
    return f.head + body.join("") + "</g>" + legend(key, W - legendWidth - 4) + "</svg>";
  }

  // The round robin's scores: the champion's and the incumbent's, with the
  // rounds a challenger took over marked.
  function scoresChart(c) {
    const r = c.rounds;
    if (!r.champion_score.some((v) => v != null)) return "";
    const [lo, hi] = range([r.champion_score, r.incumbent_score], 2, 0.08);
    const y = [Math.max(0, lo), Math.min(100, hi)];
    const f = frame({ id: "scores", title: "Round robin scores", x: [0, Math.max(1, r.round[r.round.length - 1])], y,
      yFmt: (t) => short(t) + "%", xLabel: "round", yLabel: "score, %", zero: 50 });
    const took = r.round.map((_, i) => r.champion[i] ? r.champion_score[i] : null);
    return f.head + series(pathD(r.round, r.incumbent_score, f), color(7), 1) +
      series(pathD(r.round, r.champion_score, f), color(0), 1.8) + dots(r.round, took, f, 2.5, color(1)) + "</g>" +
      legend([["champion's score", color(0)], ["incumbent's score", color(7)], ["a challenger took over", color(1), "", "dot"]]) + "</svg>";
  }

  // The checks: Elo against each reference with 95% error bars (large
  // boards), or agreement with the exact player and lost lines (small).
  function checksChart(c) {
    const x1 = Math.max(1, c.rounds.round[c.rounds.round.length - 1]);
    const e = c.checks.exact;
    if (e && e.round.length) {
      const [lo] = range([e.agreement, e.agreement_all_ties], 2, 0.1);
      const f = frame({ id: "checks", title: "Checks against the exact player: agreement", x: [0, x1], y: [Math.max(0, Math.floor(lo / 5) * 5), 100],
        yFmt: (t) => short(t) + "%", xLabel: "round", yLabel: "% of positions" });
      const g = frameLost(e, x1);
      return f.head + series(pathD(e.round, e.agreement, f), color(0), 1.8) + series(pathD(e.round, e.agreement_all_ties, f), color(2), 1.8) +
        (e.round.length <= 60 ? dots(e.round, e.agreement, f, 2.5, color(0)) : "") + "</g>" +
        legend([["mean share of tied best moves that are optimal", color(0)], ["all tied best moves optimal", color(2)]]) + "</svg>" + g;
    }
    const refs = c.checks.elo;
    if (!refs.length) return `<div class="chart-empty">No checks yet (see --check-every).</div>`;
    const within = (v) => Math.abs(v) < ELO_LIMIT;
    const [lo, hi] = range(refs.flatMap((s) => [s.elo.filter(within), s.lo.filter(within), s.hi.filter(within)]), 40, 0.08);
    const f = frame({ id: "checks", title: "Checks: Elo against the references (95% error bars)", x: [-0.5, x1 + 0.5], y: [lo, hi],
      yFmt: (t) => signed(t, 0), xLabel: `round (${refs[0].games[0] || 0} games per check and reference)`, yLabel: "Elo (pentanomial)", zero: 0 });
    const n = refs.length;
    let body = "";
    refs.forEach((s, k) => {
      const dx = (k - (n - 1) / 2) * (x1 / 150);
      const xs = s.round.map((r) => r + dx);
      body += bars(xs, s.lo, s.hi, f, color(k)) + series(pathD(xs, s.elo, f), color(k), 1.8) + dots(xs, s.elo, f, 3, color(k));
    });
    return f.head + body + "</g>" + legend(refs.map((s, k) => ["vs " + s.reference + " weights", color(k)])) + "</svg>";
  }

  // Lines lost against the exact player, as black and as white.
  function frameLost(e, x1) {
    const [, hi] = range([e.lost_as_black, e.lost_as_white], 1, 0);
    const f = frame({ id: "lost", title: "Game lines lost against the exact player", x: [0, x1], y: [0, Math.max(1, hi) * 1.08],
      yFmt: (t) => Number.isInteger(t) ? String(t) : "", xLabel: "round", yLabel: "lost lines" });
    return f.head + series(pathD(e.round, e.lost_as_black, f), color(1), 1.8) + series(pathD(e.round, e.lost_as_white, f), color(3), 1.8, "6 3") + "</g>" +
      legend([["as black", color(1)], ["as white", color(3), "6 3"]]) + "</svg>";
  }

  // Random search's σ per round.
  function sigmaChart(c) {
    const r = c.rounds;
    if (!r.sigma.some((v) => v != null)) return "";
    const [, hi] = range([r.sigma], 0, 0);
    const f = frame({ id: "sigma", title: "σ, the perturbation's size", x: [0, Math.max(1, r.round[r.round.length - 1])], y: [0, (hi || 1) * 1.15],
      yFmt: short, xLabel: "round", yLabel: "σ" });
    return f.head + series(pathD(r.round, r.sigma, f), color(4), 1.8) + "</g></svg>";
  }

  // SPSA: θ+'s score minus θ−'s per step.
  function spsaChart(c) {
    const s = c.spsa;
    if (!s || !s.round.length) return "";
    const [lo, hi] = range([s.score_diff], 0.04, 0.1);
    const f = frame({ id: "spsa", title: "SPSA: score(θ+) − score(θ−) per step", x: [s.round[0] - 0.5, s.round[s.round.length - 1] + 0.5], y: [lo, hi],
      yFmt: (t) => signed(t, 2), xLabel: c.x_name, yLabel: "d", zero: 0 });
    return f.head + dots(s.round, s.score_diff, f, 1.8, color(0)) + foot;
  }

  // ---------- comparing runs ----------

  async function renderCompare() {
    const el = $("#tr-compare");
    const names = [...state.compare];
    if (!names.length) { el.hidden = true; el.innerHTML = ""; return; }
    el.hidden = false;
    const details = [];
    for (const name of names) {
      let d = state.cache.get(name);
      const listedRun = state.runs.find((r) => r.name === name);
      if (!d || (listedRun && listedRun.round !== d.round)) {
        try { d = await getJSON("/api/runs/" + encodeURIComponent(name)); state.cache.set(name, d); } catch (e) { continue; }
      }
      details.push(d);
    }
    if (names.join() !== [...state.compare].join()) return; // changed meanwhile
    el.innerHTML = overlayChart(details);
  }

  // The check curves of several runs on one axis: Elo per reference (a
  // colour per run, a dash per reference) or exact-player agreement, the
  // kind most runs have.
  function overlayChart(details) {
    const withCharts = details.filter((d) => d.charts);
    const elo = withCharts.filter((d) => d.charts.checks.elo.length).length;
    const exact = withCharts.filter((d) => d.charts.checks.exact).length;
    if (!elo && !exact) return `<div class="chart-empty">The ticked runs have no checks to compare.</div>`;
    const useElo = elo >= exact;
    const x1 = Math.max(1, ...withCharts.map((d) => d.round || 0));
    const key = [], body = [], missing = [];
    let y;
    if (useElo) {
      const within = (v) => Math.abs(v) < ELO_LIMIT;
      const [lo, hi] = range(withCharts.flatMap((d) => d.charts.checks.elo.map((s) => s.elo.filter(within))), 40, 0.08);
      y = [lo, hi];
    } else {
      const [lo] = range(withCharts.map((d) => (d.charts.checks.exact || { agreement: [] }).agreement), 2, 0.1);
      y = [Math.max(0, Math.floor(lo / 5) * 5), 100];
    }
    const legendWidth = 170;
    const f = frame({ id: "compare", title: useElo ? "Runs compared: Elo against the references" : "Runs compared: agreement with the exact player",
      x: [0, x1], y, yFmt: useElo ? (t) => signed(t, 0) : (t) => short(t) + "%", xLabel: "round",
      yLabel: useElo ? "Elo (pentanomial)" : "% of positions", zero: useElo ? 0 : null, legendWidth });
    withCharts.forEach((d, k) => {
      const col = color(k);
      if (useElo && d.charts.checks.elo.length) {
        d.charts.checks.elo.forEach((s, j) => {
          body.push(series(pathD(s.round, s.elo, f), col, 1.8, DASHES[j % 4]) + dots(s.round, s.elo, f, 2.5, col));
          key.push([`${d.name} vs ${s.reference}`, col, DASHES[j % 4]]);
        });
      } else if (!useElo && d.charts.checks.exact) {
        const e = d.charts.checks.exact;
        body.push(series(pathD(e.round, e.agreement, f), col, 1.8) + dots(e.round, e.agreement, f, 2.5, col));
        key.push([d.name, col, ""]);
      } else {
        missing.push(d.name);
      }
    });
    for (const d of details) if (!d.charts) missing.push(d.name);
    const side = legend(key, W - legendWidth - 4);
    const note = missing.length ? `<p class="tr-meta">No comparable checks: ${missing.map(esc).join(", ")}</p>` : "";
    return `<div class="tr-charts compare">${f.head}${body.join("")}</g>${side}</svg></div>${note}`;
  }

  // ---------- the view's life ----------

  document.addEventListener("mnk:view", (e) => {
    const shown = e.detail === "training";
    if (shown !== state.shown) {
      state.shown = shown;
      if (shown) {
        loadRuns();
        if (state.selected) { loadDetail(); listen(); }
        // Other runs' states (started, stopped elsewhere) every 10 s.
        state.timer = setInterval(loadRuns, 10000);
      } else {
        stopListening();
        clearInterval(state.timer);
        state.timer = null;
      }
    }
    if (!shown) return;
    // A link to a run (#training/NAME) opens it; the bare tab keeps the
    // run shown and names it in the URL again.
    const linked = viewLink();
    if (linked && linked !== state.selected) select(linked);
    else if (!linked && state.selected) setViewLink("training", state.selected);
  });
})();
