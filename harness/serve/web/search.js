// The search, step by step (docs/traces.md#in-navbenchs-viewer). With "show the search" ticked, every
// query asks /api/query with "trace": true and each representation's answer carries its search:
// the expanded vertices in order, each with its parent's point, and the frontier at the end
// (harness/run/traces.hpp, TraceRecorder). The slider steps through the expansions (one step: the
// k-th expansion of every shown search), Play runs them; a vertex is coloured by its expansion
// order (early light, late dark: one representation on the viridis ramp, several in their own
// colours); the frontier is drawn, hollow, once its search has run to the end; Theta*'s and Lazy
// Theta*'s shortcuts (an expanded vertex whose parent is not the vertex it was reached from, the
// recorder's "shortcut") are drawn over them as links to those parents. A trace file written by
// `navbench run --trace` (the posthoc format) opens as one more search over the current map.
'use strict';

const search = { on: false, step: 0, playing: false, timer: 0, file: null, only: '' };

// Viridis (Smith & van der Walt), five stops, interpolated: t = 0 early, 1 late.
const VIRIDIS = [[253, 231, 37], [94, 201, 98], [33, 145, 140], [59, 82, 139], [68, 1, 84]];
function viridis(t) {
  const x = Math.max(0, Math.min(1, t)) * (VIRIDIS.length - 1), i = Math.min(VIRIDIS.length - 2, Math.floor(x)), f = x - i;
  return `rgb(${VIRIDIS[i].map((c, k) => Math.round(c + f * (VIRIDIS[i + 1][k] - c))).join(',')})`;
}

// The searches to draw: {label, colour, trace, path, structure} for each shown row with a trace, and
// the opened trace file.
function searchLayers() {
  const out = [];
  if (search.on && state.results) {
    for (const r of state.results.results) {
      if (!r.trace || !isShown(r.representation)) continue;
      if (search.only && search.only !== r.representation) continue;
      out.push({ label: r.representation, colour: colourOf(r.representation), trace: r.trace });
    }
  }
  if (search.file && (!search.only || search.only === search.file.label)) out.push(search.file);
  return out;
}

function searchMax(layers) { return layers.reduce((m, l) => Math.max(m, l.trace.expanded.length / 4), 0); }

// Called by render() (app.js) between the structure layers and the paths.
function drawSearch() {
  const layers = searchLayers();
  syncSearchControls(layers);
  if (!layers.length) return;
  const { s } = state.view;
  const size = Math.max(3, 0.7 * s);
  const single = layers.length === 1;
  for (const l of layers) {
    if (l.structure && l.structure.length) {  // an opened file's structure layer, faint, beneath its search
      ctx.beginPath();
      const g = l.structure;
      for (let i = 0; i + 3 < g.length; i += 4) {
        const [ax, ay] = toScreen(g[i], g[i + 1]), [bx, by] = toScreen(g[i + 2], g[i + 3]);
        ctx.moveTo(ax, ay);
        ctx.lineTo(bx, by);
      }
      ctx.strokeStyle = '#6b7280';
      ctx.globalAlpha = 0.3;
      ctx.lineWidth = 0.75;
      ctx.stroke();
      ctx.globalAlpha = 1;
    }
    const e = l.trace.expanded, n = e.length / 4, k = Math.min(n, search.step);
    for (let i = 0; i < k; ++i) {
      const [x, y] = toScreen(e[4 * i], e[4 * i + 1]);
      const t = n > 1 ? i / (n - 1) : 1;
      if (single) ctx.fillStyle = viridis(t);
      else { ctx.fillStyle = l.colour; ctx.globalAlpha = 0.25 + 0.65 * t; }
      ctx.fillRect(x - size / 2, y - size / 2, size, size);
    }
    ctx.globalAlpha = 1;
    const sc = l.trace.shortcut;
    if (sc && sc.length) {  // Theta*'s parent changes: each shortcut expanded so far, over the vertices
      ctx.beginPath();
      for (let i = 0; i < k; ++i) {
        if (!sc[i]) continue;
        const [ax, ay] = toScreen(e[4 * i], e[4 * i + 1]), [bx, by] = toScreen(e[4 * i + 2], e[4 * i + 3]);
        ctx.moveTo(ax, ay);
        ctx.lineTo(bx, by);
      }
      ctx.strokeStyle = single ? 'rgba(20,20,20,0.16)' : l.colour;
      ctx.globalAlpha = single ? 1 : 0.2;
      ctx.lineWidth = 0.75;
      ctx.stroke();
      ctx.globalAlpha = 1;
    }
    if (k > 0) {  // the vertex expanded at this step
      const [x, y] = toScreen(e[4 * k - 4], e[4 * k - 3]);
      ctx.beginPath();
      ctx.arc(x, y, Math.max(4, size), 0, 2 * Math.PI);
      ctx.lineWidth = 2;
      ctx.strokeStyle = '#111';
      ctx.stroke();
    }
    if (k >= n) {  // the frontier at the end
      const f = l.trace.frontier;
      ctx.strokeStyle = single ? '#d62728' : l.colour;
      ctx.lineWidth = 1.5;
      for (let i = 0; i < f.length; i += 2) {
        const [x, y] = toScreen(f[i], f[i + 1]);
        ctx.strokeRect(x - size / 2, y - size / 2, size, size);
      }
    }
    if (l.path && l.path.length > 1) {  // an opened file's path
      ctx.beginPath();
      l.path.forEach(([x, y], j) => { const [px, py] = toScreen(x, y); if (j) ctx.lineTo(px, py); else ctx.moveTo(px, py); });
      ctx.strokeStyle = l.colour;
      ctx.lineWidth = 3;
      ctx.stroke();
    }
  }
}

// The slider's range, the step's text and the per-search counts, kept in line with what is drawn.
function syncSearchControls(layers) {
  const max = searchMax(layers);
  const slider = $('searchstep');
  if (+slider.max !== max) slider.max = max;
  if (search.step > max) search.step = max;
  slider.value = search.step;
  $('searchstepval').textContent = `${search.step} / ${max}`;
  const info = layers.map((l) => {
    const t = l.trace;
    const what = t.answered === 'table' ? `answered from its table (${t.table_steps} steps), no search`
      : t.answered === 'none' ? 'no search ran'
      : `${t.expansions} expanded, ${t.generated} generated, ${t.frontier.length / 2} on the frontier${t.truncated ? ' (first expansions kept)' : ''}`;
    return `${l.label}: ${what}`;
  });
  $('searchinfo').textContent = info.join(' · ');
  const sel = $('searchonly');
  const names = [''].concat((state.results ? state.results.results.filter((r) => r.trace && isShown(r.representation)).map((r) => r.representation) : [])
    .filter((v, i, a) => a.indexOf(v) === i), search.file ? [search.file.label] : []);
  if (sel.options.length !== names.length || names.some((v, i) => sel.options[i].value !== v)) {
    sel.replaceChildren(...names.map((v) => el('option', { value: v }, v || 'every representation')));
    if (!names.includes(search.only)) { search.only = ''; search.step = Number.MAX_SAFE_INTEGER; render(); }
    sel.value = search.only;
  }
}

function playSearch() {
  if (search.playing) { stopSearch(); return; }
  const max = searchMax(searchLayers());
  if (!max) return;
  if (search.step >= max) search.step = 0;
  search.playing = true;
  $('searchplay').textContent = 'Pause';
  const tick = () => {
    // about eight seconds for a whole search, at least one expansion a frame
    search.step = Math.min(max, search.step + Math.max(1, Math.ceil(max / 480)));
    render();
    if (search.step >= max) { stopSearch(); return; }
    search.timer = requestAnimationFrame(tick);
  };
  search.timer = requestAnimationFrame(tick);
}
function stopSearch() {
  cancelAnimationFrame(search.timer);
  search.playing = false;
  $('searchplay').textContent = 'Play';
}

// A posthoc trace written by `navbench run --trace` (docs/traces.md#the-format): its structure
// layer (the structure event's segments), its expand events in order (parent points by id, and
// whether the parent is a shortcut, as TraceRecorder decides it), the vertices generated and never
// expanded (the frontier), the end event's path.
function readTraceFile(text, name) {
  const doc = JSON.parse(text);
  if (!doc || !Array.isArray(doc.events)) throw new Error(`${name}: not a search trace (no events list)`);
  const pos = new Map(), open = new Set(), reached = new Map(), expanded = [], shortcut = [];
  let path = null, answered = 'search', expansions = 0, generated = 0, structure = null, current = null;
  for (const ev of doc.events) {
    if (ev.type === 'structure') { if (Array.isArray(ev.segments)) structure = ev.segments; continue; }
    if (ev.id !== undefined && ev.x !== undefined) pos.set(ev.id, [ev.x, ev.y]);
    const hasParent = ev.pId !== null && ev.pId !== undefined;
    if (ev.type === 'source') current = ev.id;
    else if (ev.type === 'generate' || ev.type === 'update') {
      open.add(ev.id);
      reached.set(ev.id, [current, hasParent ? ev.pId : ev.id]);
      if (ev.type === 'generate') ++generated;
    } else if (ev.type === 'expand') {
      open.delete(ev.id);
      ++expansions;
      const p = hasParent && pos.has(ev.pId) ? pos.get(ev.pId) : [ev.x, ev.y], r = reached.get(ev.id);
      expanded.push(ev.x, ev.y, p[0], p[1]);
      shortcut.push(hasParent && r && ev.pId === r[1] && ev.pId !== r[0] ? 1 : 0);
      current = ev.id;
    } else if (ev.type === 'end') {
      if (ev.path) path = ev.path.map((q) => [q.x, q.y]);
      if (ev.answered) answered = ev.answered;
    }
  }
  const frontier = [];
  for (const id of open) frontier.push(...pos.get(id));
  const nb = doc.navbench || {};
  const label = `${name}${nb.map ? ` (${nb.map} ${nb.representation} ${nb.search})` : ''}`;
  return { label, colour: '#7c3aed', path, structure, map: nb.map, start: nb.start, goal: nb.goal,
           trace: { answered, expanded, shortcut, frontier, expansions, generated, truncated: !!nb.truncated, table_steps: 0 } };
}

function setupSearch() {
  $('searchon').addEventListener('change', (ev) => {
    search.on = ev.target.checked;
    search.step = Number.MAX_SAFE_INTEGER;  // a new search shows whole; the slider steps back from there
    if (search.on) query(); else render();
  });
  $('searchstep').addEventListener('input', (ev) => { stopSearch(); search.step = +ev.target.value; render(); });
  $('searchplay').addEventListener('click', playSearch);
  $('searchonly').addEventListener('change', (ev) => { search.only = ev.target.value; search.step = Number.MAX_SAFE_INTEGER; render(); });
  $('tracefile').addEventListener('change', async (ev) => {
    const f = ev.target.files[0];
    if (!f) return;
    try {
      search.file = readTraceFile(await f.text(), f.name);
      search.step = Number.MAX_SAFE_INTEGER;
      const m = search.file.map;
      $('traceerror').textContent = m && state.map && m !== state.map.name ? `this trace is of map ${m}; the map shown is ${state.map.name}` : '';
    } catch (e) {
      search.file = null;
      $('traceerror').textContent = e.message;
    }
    render();
  });
}
