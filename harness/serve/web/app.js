// navbench viewer: the page of `navbench serve` (plain JS + canvas, no libraries).
// The map is drawn to scale in map units (y down, as in Moving AI files); every query goes to
// POST /api/query, which runs the pipeline of `navbench run` on each selected representation.
// Grid maps can be edited (E): toggled cells go to POST /api/cells, and the server brings every
// representation up to date before the next query. The radius slider makes the agent a disc
// (docs/radius.md): the query asks with "radius", the disc is drawn at start and goal, and paths
// with arcs are drawn with their arcs. Terrain costs (docs/terrain.md): a terrain table or a cost
// layer loaded (POST /api/terrain) makes a grid map weighted; the brush (B) paints weights
// (POST /api/paint); cells are shaded by weight under the paths, and each row shows the path's cost.
'use strict';

// Okabe & Ito's colour-blind-safe palette, then a few more distinct hues. The representations
// selected at start take the first colours (the most distinct), the other registered ones the
// next, in the registry's order; specs added later the first colour left.
const PALETTE = ['#E69F00', '#009E73', '#0072B2', '#D55E00', '#CC79A7', '#56B4E9', '#7c3aed', '#0f766e', '#b45309', '#be123c'];
const COLOURS = { free: [246, 244, 238], blocked: [59, 65, 75], outside: '#1b1e23', heavy: [138, 90, 43] };
// A passable cell's colour by its weight: the free colour at 1, towards `heavy` on a log scale, reached at 10.
function shade(w) {
  const t = Math.min(1, Math.log(Math.max(1, w)) / Math.log(10));
  return COLOURS.free.map((c, i) => Math.round(c + t * (COLOURS.heavy[i] - c)));
}

const $ = (id) => document.getElementById(id);
const canvas = $('canvas');
const ctx = canvas.getContext('2d');

const state = {
  info: null,
  map: null,            // /api/map answer
  mapImage: null,       // grid maps: an offscreen canvas, one pixel per cell
  freePath: null,       // polygon maps: Path2D of the free space (non-zero rule)
  reps: [],             // {spec, colour, selected, layer, segments, loading, builtin, description}
  start: null, goal: null,
  results: null,        // last /api/query answer
  shownQuery: null,     // [sx, sy, gx, gy] of the results in the table
  highlight: null,      // representation text whose path is emphasised
  recorded: null,       // the CSV row being replayed
  view: { s: 1, ox: 0, oy: 0 },
  csv: null,
  updates: null,        // last /api/cells or /api/reset answer (the update time of each representation)
  radius: 0,            // the agent's radius (map units); 0: a point
};

// ---------- small helpers ----------
function fmt(v, digits = 4) {
  if (v === null || v === undefined) return '–';
  if (Math.abs(v) >= 1000) return v.toFixed(1);
  return Number(v.toPrecision(digits + 2)).toString();
}
function fmtPoint(p) { return p ? `(${+p[0].toFixed(3)}, ${+p[1].toFixed(3)})` : '–'; }
function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else if (k === 'style') e.style.cssText = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(e.dataset, v);
    else e.setAttribute(k, v);
  }
  for (const k of kids) if (k !== null && k !== undefined) e.append(k.nodeType ? k : String(k));
  return e;
}
async function api(path, opts) {
  const res = await fetch(path, opts);
  const type = res.headers.get('Content-Type') || '';
  if (!res.ok) {
    let msg = `${res.status} ${res.statusText}`;
    if (type.includes('json')) { try { msg = (await res.json()).error || msg; } catch (e) { /* keep status */ } }
    const err = new Error(msg);
    err.status = res.status;
    throw err;
  }
  return type.includes('json') ? res.json() : res.arrayBuffer();
}
function setStatus(text) { $('status').textContent = text; }

// ---------- view transform: screen = map * s + o (CSS pixels) ----------
function toScreen(x, y) { return [x * state.view.s + state.view.ox, y * state.view.s + state.view.oy]; }
function toMap(px, py) { return [(px - state.view.ox) / state.view.s, (py - state.view.oy) / state.view.s]; }
function cssSize() { const r = canvas.getBoundingClientRect(); return [r.width, r.height]; }

function fit() {
  if (!state.map) return;
  const [w, h] = cssSize();
  const [mx0, my0] = state.map.min, [mx1, my1] = state.map.max;
  const s = Math.min((w - 40) / (mx1 - mx0), (h - 40) / (my1 - my0));
  state.view = { s, ox: (w - s * (mx1 + mx0)) / 2, oy: (h - s * (my1 + my0)) / 2 };
  invalidateLayers(true);
}

function resize() {
  const dpr = window.devicePixelRatio || 1;
  const [w, h] = cssSize();
  canvas.width = Math.max(1, Math.round(w * dpr));
  canvas.height = Math.max(1, Math.round(h * dpr));
  layerCanvas.width = canvas.width;
  layerCanvas.height = canvas.height;
  invalidateLayers(true);
}

// ---------- drawing ----------
// The structure layers are costly (an 8-connected grid's layer of a 512x512 map has ~10^6 segments), so they are
// drawn into an offscreen canvas at one view and reused, transformed, while the view moves; they
// are redrawn when it rests.
const layerCanvas = document.createElement('canvas');
const layerCtx = layerCanvas.getContext('2d');
let layerView = null;
let layerTimer = 0;

function invalidateLayers(now = false) {
  clearTimeout(layerTimer);
  if (now) { drawLayers(); render(); return; }
  render();
  layerTimer = setTimeout(() => { drawLayers(); render(); }, 120);
}

function drawLayers() {
  const dpr = window.devicePixelRatio || 1;
  const { s, ox, oy } = state.view;
  layerCtx.setTransform(1, 0, 0, 1, 0, 0);
  layerCtx.clearRect(0, 0, layerCanvas.width, layerCanvas.height);
  layerView = { s, ox, oy };
  const [w, h] = cssSize();
  const [x0, y0] = toMap(0, 0), [x1, y1] = toMap(w, h);
  layerCtx.setTransform(dpr, 0, 0, dpr, 0, 0);
  for (const r of state.reps) {
    if (!r.layer || !r.segments) continue;
    const seg = r.segments;
    layerCtx.beginPath();
    for (let i = 0; i < seg.length; i += 4) {
      const ax = seg[i], ay = seg[i + 1], bx = seg[i + 2], by = seg[i + 3];
      if ((ax < x0 && bx < x0) || (ax > x1 && bx > x1) || (ay < y0 && by < y0) || (ay > y1 && by > y1)) continue;
      layerCtx.moveTo(ax * s + ox, ay * s + oy);
      layerCtx.lineTo(bx * s + ox, by * s + oy);
    }
    layerCtx.strokeStyle = r.colour;
    layerCtx.globalAlpha = 0.55;
    layerCtx.lineWidth = Math.min(1.2, Math.max(0.5, s / 8));
    layerCtx.stroke();
  }
  layerCtx.globalAlpha = 1;
}

function render() {
  const dpr = window.devicePixelRatio || 1;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.fillStyle = COLOURS.outside;
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  if (!state.map) return;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  const { s, ox, oy } = state.view;
  // the map
  ctx.save();
  ctx.setTransform(dpr * s, 0, 0, dpr * s, dpr * ox, dpr * oy);
  if (state.mapImage) {
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(state.mapImage, state.map.min[0], state.map.min[1]);
  } else if (state.freePath) {
    const [x0, y0] = state.map.min, [x1, y1] = state.map.max;
    ctx.fillStyle = `rgb(${COLOURS.blocked})`;
    ctx.fillRect(x0, y0, x1 - x0, y1 - y0);
    ctx.fillStyle = `rgb(${COLOURS.free})`;
    ctx.fill(state.freePath, 'nonzero');
  }
  ctx.restore();
  // the structure layers, from their cache
  if (layerView) {
    const k = s / layerView.s;
    ctx.save();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.drawImage(layerCanvas, dpr * (ox - layerView.ox * k), dpr * (oy - layerView.oy * k), layerCanvas.width * k, layerCanvas.height * k);
    ctx.restore();
  }
  // the paths, widest first and each narrower one on top, so paths that coincide show as stripes
  // instead of hiding each other; a light halo under each; the highlighted one last and widest
  if (state.results) {
    const rows = shownRows(state.results).filter((r) => r.path && r.path.length > 1);
    rows.sort((a, b) => (a.representation === state.highlight) - (b.representation === state.highlight));
    ctx.lineJoin = 'round';
    ctx.lineCap = 'round';
    const n = rows.length;
    rows.forEach((r, i) => {
      const hl = r.representation === state.highlight;
      const w = hl ? 5.5 : n > 1 ? 7 - 4.5 * i / (n - 1) : 3.5;
      const trace = () => {
        ctx.beginPath();
        tracePath(r);
      };
      if (i === 0 || hl) {
        trace();
        ctx.strokeStyle = 'rgba(255,255,255,0.85)';
        ctx.lineWidth = w + 2.5;
        ctx.stroke();
      }
      trace();
      ctx.strokeStyle = colourOf(r.representation);
      ctx.lineWidth = w;
      ctx.setLineDash(r.valid === false ? [6, 4] : []);
      ctx.stroke();
      ctx.setLineDash([]);
    });
  }
  drawPathDiscs();
  drawDisc(state.start, '#16a34a', true);
  drawDisc(state.goal, '#dc2626', true);
  drawMarker(state.start, '#16a34a', 'S');
  drawMarker(state.goal, '#dc2626', 'G');
  drawDisc(state.start, '#16a34a', false);  // the outline again over the marker: a disc smaller than it still shows
  drawDisc(state.goal, '#dc2626', false);
}

// A result's path: its segments, and its arcs (docs/radius.md: [k, cx, cy], from path[k] to
// path[k + 1] round the centre, the shorter way) as arcs of circles.
function tracePath(r) {
  const arcs = new Map((r.arcs || []).map(([k, cx, cy]) => [k, [cx, cy]]));
  r.path.forEach(([x, y], j) => {
    const [px, py] = toScreen(x, y);
    if (!j) { ctx.moveTo(px, py); return; }
    const c = arcs.get(j - 1);
    if (!c) { ctx.lineTo(px, py); return; }
    const [cx, cy] = toScreen(c[0], c[1]);
    const [ax, ay] = toScreen(r.path[j - 1][0], r.path[j - 1][1]);
    const a0 = Math.atan2(ay - cy, ax - cx);
    let turn = Math.atan2(py - cy, px - cx) - a0;
    while (turn > Math.PI) turn -= 2 * Math.PI;
    while (turn <= -Math.PI) turn += 2 * Math.PI;
    ctx.arc(cx, cy, Math.hypot(ax - cx, ay - cy), a0, a0 + turn, turn < 0);
  });
}

// The agent's disc at p (radius state.radius, to scale): `fill` the disc, else its outline only.
function drawDisc(p, colour, fill) {
  if (!p || !(state.radius > 0)) return;
  const [x, y] = toScreen(p[0], p[1]);
  ctx.beginPath();
  ctx.arc(x, y, state.radius * state.view.s, 0, 2 * Math.PI);
  if (fill) {
    ctx.fillStyle = colour + '38';
    ctx.fill();
    return;
  }
  ctx.lineWidth = 3.5;
  ctx.strokeStyle = 'rgba(255,255,255,0.9)';
  ctx.stroke();
  ctx.lineWidth = 2;
  ctx.strokeStyle = colour;
  ctx.stroke();
}

// The highlighted path with the disc drawn at points along it (a dozen, evenly by length), as
// scripts/pathviz.py draws it: where the disc runs close to an obstacle shows.
function drawPathDiscs() {
  if (!(state.radius > 0) || !state.highlight || !state.results) return;
  const r = shownRows(state.results).find((x) => x.representation === state.highlight);
  if (!r || !r.path || r.path.length < 2) return;
  const d = [0];
  for (let j = 1; j < r.path.length; ++j) d.push(d[j - 1] + Math.hypot(r.path[j][0] - r.path[j - 1][0], r.path[j][1] - r.path[j - 1][1]));
  const total = d[d.length - 1];
  ctx.fillStyle = colourOf(r.representation) + '30';
  ctx.strokeStyle = colourOf(r.representation);
  ctx.lineWidth = 1;
  for (let i = 1, j = 1; i < 12; ++i) {
    const at = total * i / 12;
    while (j < d.length - 1 && d[j] < at) ++j;
    const t = d[j] > d[j - 1] ? (at - d[j - 1]) / (d[j] - d[j - 1]) : 0;
    const [x, y] = toScreen(r.path[j - 1][0] + t * (r.path[j][0] - r.path[j - 1][0]), r.path[j - 1][1] + t * (r.path[j][1] - r.path[j - 1][1]));
    ctx.beginPath();
    ctx.arc(x, y, state.radius * state.view.s, 0, 2 * Math.PI);
    ctx.fill();
    ctx.stroke();
  }
}

function drawMarker(p, colour, label) {
  if (!p) return;
  const [x, y] = toScreen(p[0], p[1]);
  ctx.beginPath();
  ctx.arc(x, y, 10, 0, 2 * Math.PI);
  ctx.fillStyle = colour;
  ctx.shadowColor = 'rgba(0,0,0,0.35)';
  ctx.shadowBlur = 4;
  ctx.fill();
  ctx.shadowBlur = 0;
  ctx.lineWidth = 2;
  ctx.strokeStyle = '#fff';
  ctx.stroke();
  ctx.fillStyle = '#fff';
  ctx.font = 'bold 11px system-ui, sans-serif';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(label, x, y + 0.5);
}

function colourOf(spec) { const r = state.reps.find((x) => x.spec === spec); return r ? r.colour : '#111'; }
function isShown(spec) { const r = state.reps.find((x) => x.spec === spec); return r && r.selected; }
// The capabilities /api/info gives for a spec ('name' or 'name:k=v,...').
function capsOf(spec) { const e = state.info.representations.find((x) => x.name === spec.split(':')[0]); return e ? e.caps : {}; }
// Whether spec at radius R answers with taut paths with arcs, which no smoother shortens (docs/radius.md: the
// tangent graph; its rows of other smoothings are not_applicable).
function tautAtRadius(spec, R) { return R > 0 && capsOf(spec).radius === 'tangent_graph'; }

// The row shown for each selected representation: the one of the chosen smoothing; at R > 0 a
// representation answering with the tangent graph shows its unsmoothed row (its paths are taut).
function shownRows(res) {
  if (!res) return [];
  const out = [];
  for (const r of res.results) {
    if (!isShown(r.representation)) continue;
    const want = tautAtRadius(r.representation, res.radius) ? 'none' : res.shownSmoothing;
    if (r.smoothing === want) out.push(r);
  }
  return out;
}

// ---------- maps ----------
async function loadMap(id) {
  setStatus('loading map…');
  const m = await api(`/api/map?map=${id}`);
  state.map = m;
  state.mapImage = null;
  state.freePath = null;
  state.results = null;
  state.shownQuery = null;
  state.updates = null;
  edit.queue = [];
  for (const r of state.reps) { r.segments = null; r.layer = false; r.loading = false; }
  if (m.kind === 'grid') {
    state.mapImage = gridImage(m);
  } else {
    const p = new Path2D();
    for (const ring of m.rings) {
      ring.forEach(([x, y], i) => (i ? p.lineTo(x, y) : p.moveTo(x, y)));
      p.closePath();
    }
    state.freePath = p;
  }
  $('map').value = String(id);
  setRadiusRange(m);
  $('edit').disabled = $('resetmap').disabled = m.kind !== 'grid';
  setEditMode(edit.on);
  terrainState();
  renderUpdates();
  const url = new URL(location.href);
  url.searchParams.set('map', id);
  history.replaceState(null, '', url);
  renderReps();
  fit();
  const [w, h] = [m.max[0] - m.min[0], m.max[1] - m.min[1]];
  state.start = nearestFree([m.min[0] + 0.15 * w, m.min[1] + 0.2 * h]);
  state.goal = nearestFree([m.min[0] + 0.85 * w, m.min[1] + 0.8 * h]);
  setStatus(`${m.collection}/${m.name} · ${m.kind === 'grid' ? `${m.width}×${m.height} cells` : 'polygon map'}`);
  updatePoints();
  query();
}

// A grid map as an offscreen canvas, one pixel per cell.
function gridImage(m) {
  const img = document.createElement('canvas');
  img.width = m.width;
  img.height = m.height;
  const c = img.getContext('2d');
  const data = c.createImageData(m.width, m.height);
  for (let y = 0; y < m.height; ++y) {
    const row = m.rows[y];
    for (let x = 0; x < m.width; ++x) {
      const free = row.charCodeAt(x) === 46;  // '.'
      const col = !free ? COLOURS.blocked : m.weights ? shade(m.weights[y * m.width + x]) : COLOURS.free;
      const o = 4 * (y * m.width + x);
      data.data[o] = col[0]; data.data[o + 1] = col[1]; data.data[o + 2] = col[2]; data.data[o + 3] = 255;
    }
  }
  c.putImageData(data, 0, 0);
  return img;
}

// Grid maps: is (x, y) in a passable cell.
function isFree(x, y) {
  const m = state.map;
  if (x < m.min[0] || y < m.min[1] || x > m.max[0] || y > m.max[1]) return false;
  const cx = Math.min(m.width - 1, Math.floor(x)), cy = Math.min(m.height - 1, Math.floor(y));
  return m.rows[cy].charCodeAt(cx) === 46;  // '.'
}

// A free point near p (rings of growing radius), snapped like a dragged marker.
function nearestFree(p) {
  const m = state.map;
  const step = m.kind === 'grid' ? 1 : Math.max(m.max[0] - m.min[0], m.max[1] - m.min[1]) / 200;
  for (let r = 0; r < 400; ++r)
    for (let dy = -r; dy <= r; ++dy)
      for (let dx = -r; dx <= r; ++dx) {
        if (Math.max(Math.abs(dx), Math.abs(dy)) !== r) continue;
        const q = snap([p[0] + dx * step, p[1] + dy * step]);
        if (freeForQuery(q)) return q;
      }
  return snap(p);
}
function freeForQuery(q) {
  if (state.map.kind === 'grid') return isFree(q[0], q[1]);
  ctx.save();
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  const ok = ctx.isPointInPath(state.freePath, q[0], q[1], 'nonzero');
  ctx.restore();
  return ok;
}

function snap(p) {
  const m = state.map;
  let [x, y] = [Math.min(Math.max(p[0], m.min[0]), m.max[0]), Math.min(Math.max(p[1], m.min[1]), m.max[1])];
  if (m.kind === 'grid' && ($('snap').checked || m.weights)) {  // a weighted map's queries are its cells' centres
    x = Math.min(Math.floor(x), m.width - 1) + 0.5;
    y = Math.min(Math.floor(y), m.height - 1) + 0.5;
  }
  return [x, y];
}

// ---------- representations ----------
function addRep(spec, description = '', builtin = false, selected = true, colour = null) {
  let r = state.reps.find((x) => x.spec === spec);
  if (r) { r.selected = true; return r; }
  const used = new Set(state.reps.map((x) => x.colour));
  colour = colour || PALETTE.find((c) => !used.has(c)) || '#333';
  r = { spec, colour, selected, layer: false, segments: null, loading: false, builtin, description };
  state.reps.push(r);
  return r;
}

// The page starts with one representation of each kind of answer, chosen by what the registry
// says each can do (/api/info `caps`): the first whose raw paths are shortest 8-connected grid
// paths, the corridor meshes that take any map, and the exact one (the optimum's).
function startsSelected(reps) {
  const grid = reps.find((r) => r.caps.grid8_optimal);
  return new Set(reps.filter((r) => r === grid || (r.caps.corridor && !r.caps.grid_only) || r.caps.exact).map((r) => r.name));
}

// Every registered representation, in the registry's order (see PALETTE for the colours).
function addRegistered(reps) {
  const selected = startsSelected(reps);
  const order = [...reps.filter((r) => selected.has(r.name)), ...reps.filter((r) => !selected.has(r.name))];
  const colour = new Map(order.map((r, i) => [r.name, PALETTE[i] || '#333']));
  for (const r of reps) addRep(r.name, r.description, true, selected.has(r.name), colour.get(r.name));
}

function renderReps() {
  const ul = $('reps');
  ul.replaceChildren();
  for (const r of state.reps) {
    const box = el('input', { type: 'checkbox' });
    box.checked = r.selected;
    box.addEventListener('change', () => { r.selected = box.checked; renderLegend(); renderResults(); render(); query(); });
    const layer = el('button', {
      class: 'layer' + (r.layer ? ' on' : '') + (r.loading ? ' busy' : ''), type: 'button',
      title: r.segments ? `structure: ${r.segments.length / 4} segments` : 'draw the structure',
      style: r.layer ? `background:${r.colour}` : '', dataset: { rep: r.spec },
    }, '▦');
    layer.addEventListener('click', () => toggleLayer(r));
    const li = el('li', { dataset: { rep: r.spec } },
      el('label', { title: r.description }, box, el('span', { class: 'swatch', style: `background:${r.colour}` }),
        el('span', { style: 'min-width:0;display:flex;flex-direction:column' },
          el('span', { class: 'name' }, r.spec), r.description ? el('span', { class: 'desc' }, r.description) : null)),
      layer);
    if (!r.builtin) {
      const rm = el('button', { class: 'remove', type: 'button', title: 'remove' }, '×');
      rm.addEventListener('click', () => { state.reps = state.reps.filter((x) => x !== r); renderReps(); invalidateLayers(true); renderResults(); });
      li.append(rm);
    }
    ul.append(li);
  }
  renderLegend();
}

async function toggleLayer(r) {
  if (r.loading) return;
  r.layer = !r.layer;
  if (r.layer && !r.segments) {
    r.loading = true;
    renderReps();
    const mapId = state.map.id, R = state.radius;
    try {
      const buf = await api(`/api/structure?map=${mapId}&rep=${encodeURIComponent(r.spec)}` + (R > 0 ? `&radius=${R}` : ''));
      if (state.map.id === mapId) { r.segments = new Float32Array(buf); r.segmentsRadius = R; }
    } catch (e) {
      r.layer = false;
      $('reperror').textContent = `${r.spec}: ${e.message}`;
    }
    r.loading = false;
    // The radius moved while this layer was on its way (a change skips layers still loading):
    // fetch it again at the radius shown now.
    if (r.layer && r.segments && state.map.id === mapId && r.segmentsRadius !== state.radius) {
      r.segments = null;
      r.layer = false;
      return toggleLayer(r);
    }
  }
  renderReps();
  invalidateLayers(true);
}

function renderLegend() {
  const lg = $('legend');
  lg.replaceChildren();
  for (const r of state.reps.filter((x) => x.selected))
    lg.append(el('div', {}, el('span', { class: 'ln', style: `background:${r.colour}` }), r.spec));
}

// ---------- queries ----------
function heuristicText() {
  const w = Number($('weight').value);
  const h = $('heuristic').value;
  return Number.isFinite(w) && w > 0 && w !== 1 ? `${h}*${w}` : h;
}

let inflight = false, pending = false, retryTimer = 0;
function query() {
  if (!state.map || !state.start || !state.goal) return;
  if (inflight) { pending = true; return; }
  sendQuery();
}

async function sendQuery() {
  const reps = state.reps.filter((r) => r.selected).map((r) => r.spec);
  if (!reps.length) { state.results = null; renderResults(); render(); return; }
  inflight = true;
  pending = false;
  clearTimeout(retryTimer);
  const R = state.radius;
  const chosen = $('smoothing').value;
  // At R > 0 the tangent graph's rows are those of smoothing none (shownRows): asked for too.
  const smoothing = chosen !== 'none' && reps.some((x) => tautAtRadius(x, R)) ? [chosen, 'none'] : chosen;
  const body = { map: state.map.id, reps, start: state.start, goal: state.goal,
                 smoothing, search: $('search').value, heuristic: heuristicText() };
  if (R > 0 && !state.map.weights) body.radius = R;
  const t0 = performance.now();
  const slow = setTimeout(() => setStatus(R > 0 ? `building for radius ${R}…` : 'building representations…'), 300);
  // Builds at a radius answer "still building" after a few seconds (docs/viewer.md): ask again.
  const retry = () => { clearTimeout(retryTimer); retryTimer = setTimeout(query, 400); };
  try {
    const res = await api('/api/query', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    res.shownSmoothing = chosen;
    if (res.results.some((r) => r.building)) retry();
    if (res.map === state.map.id) {
      // Another tab edited this map: fetch its cells. An edit of ours landed meanwhile: ask again.
      if (res.version > state.map.version && !edit.sending && !edit.queue.length) refreshMap();
      else if (res.version < state.map.version) pending = true;
      state.results = res;
      state.shownQuery = [...body.start, ...body.goal];
      state.roundTrip = performance.now() - t0;
      $('queryerror').textContent = '';
    }
  } catch (e) {
    $('queryerror').textContent = e.message;
    if (e.status === 503) retry();
  } finally {
    clearTimeout(slow);
    setStatus(`${state.map.collection}/${state.map.name} · ${state.map.kind === 'grid' ? `${state.map.width}×${state.map.height} cells` : 'polygon map'}`);
    inflight = false;
    renderResults();
    render();
    if (pending) sendQuery();
  }
}

function renderResults() {
  const tb = $('results').tBodies[0];
  tb.replaceChildren();
  const res = state.results;
  $('optimal').textContent = res && res.optimal !== null ? fmt(res.optimal, 6) : '–';
  const disc = res && res.radius > 0;
  $('disc').textContent = disc ? `for a disc of radius ${fmt(res.radius, 4)}` : '';
  $('disc').title = disc && res.tangent ? `tangent graph: ${res.tangent.circles} circles, ${res.tangent.vertices} vertices, ${res.tangent.edges} edges, ` +
    `built in ${res.tangent.build_ms.toFixed(0)} ms (clearance, shrunk maps and tangent graph: ${res.radius_build_ms.toFixed(0)} ms)` : '';
  $('timing').textContent = res ? `round trip ${state.roundTrip.toFixed(0)} ms · server ${(res.server_us / 1000).toFixed(1)} ms` : '';
  $('results').dataset.query = state.shownQuery ? JSON.stringify(state.shownQuery) : '';
  $('results').dataset.version = res ? res.version : '';
  $('results').dataset.radius = res && res.radius !== null && res.radius !== undefined ? res.radius : '';
  const weighted = !!(res && res.terrain !== null && res.terrain !== undefined);
  $('costhead').hidden = !weighted;
  $('results').classList.toggle('weighted', weighted);  // one column more: tighter cells
  $('octcost').textContent = weighted && res.octile_optimal_cost !== null
    ? ` · octile cost ${fmt(res.octile_optimal_cost, 6)}` + (res.optimal_cost !== null && res.optimal_cost !== undefined ? ` · reference cost ${fmt(res.optimal_cost, 6)}` : '')
    : '';
  $('octcost').title = weighted ? `the least cost of an 8-connected path (octile_optimal_cost) and the reference optimum ` +
                                  `(optimal_cost, docs/terrain.md); weights: ${res.terrain}` : '';
  $('results').dataset.terrain = weighted ? res.terrain : '';
  if (!res) return;
  for (const r of shownRows(res)) {
    const ok = r.status === 'ok';
    const t = ok ? (r.locate_us + r.search_us + r.smooth_us) / 1000 : null;
    const gap = r.gap === null || r.gap === undefined ? '–' : r.gap < 5e-10 ? '0' : `+${(100 * r.gap).toFixed(2)} %`;
    const lengthCell = ok
      ? el('td', { class: 'num' + (r.valid === false ? ' invalid' : ''), title: r.valid === false ? 'INVALID path (crosses an obstacle or a pinch point)' : `raw ${fmt(r.raw_length, 8)} · ${r.path_points} points · ${r.expansions} expanded${r.los_checks ? ` · ${r.los_checks} segment tests` : ''}` },
        fmt(r.length, weighted ? 4 : 5) + (r.valid === false ? ' ✗' : ''))
      : el('td', { class: 'num', colspan: weighted ? 5 : 4, title: r.message || '' },
        r.building ? el('span', { class: 'st building' }, 'building…')
          : el('span', { class: 'st' + (r.status === 'no_path' || r.status === 'not_applicable' ? ' np' : '') }, r.status.replace('_', ' ')));
    const tr = el('tr', {
      dataset: { rep: r.representation, status: r.status, length: r.length ?? '', expansions: r.expansions ?? '', valid: r.valid ?? '',
                 search: r.search ?? '', clearance: r.clearance ?? '', turn: r.turn ?? '', smoothing: r.smoothing,
                 radius: r.radius ?? '', arcs: r.arcs ? r.arcs.length : 0, building: r.building ? 1 : '',
                 cost: r.cost ?? '', rawCost: r.raw_cost ?? '' },
      class: r.representation === state.highlight ? 'hl' : '',
    },
    el('td', {}, el('span', { class: 'sw', style: `background:${colourOf(r.representation)}` })),
    el('td', { class: 'rep', title: r.message || (r.vertices !== undefined
      ? `${r.representation}: built in ${r.build_ms.toFixed(0)} ms · ${r.vertices} vertices · ${r.edges} edges · ${(r.memory_bytes / 1048576).toFixed(1)} MiB`
      : r.representation) }, r.representation,
      r.smoothing !== res.shownSmoothing ? el('span', { class: 'taut', title: `at radius ${res.radius} ${r.representation} gives taut paths with arcs, which no smoother shortens: its row without smoothing` }, ' · taut') : null),
    lengthCell,
    ok && weighted ? el('td', { class: 'num cost', title: `cost ${fmt(r.cost, 8)} · raw path's cost ${fmt(r.raw_cost, 8)} · octile reference ${fmt(r.octile_optimal_cost, 8)} · above the reference optimum ${r.cost_gap === null || r.cost_gap === undefined ? '–' : fmt(100 * r.cost_gap, 3) + ' %'}` }, fmt(r.cost, 4),
      // the raw path's cost under it when smoothing changed it
      r.raw_cost !== null && Math.abs(r.raw_cost - r.cost) > 1e-9 * Math.max(1, r.cost) ? el('span', { class: 'rawcost' }, `raw ${fmt(r.raw_cost, 4)}`) : null) : null,
    ok ? el('td', { class: 'num' }, gap) : null,
    ok ? el('td', { class: 'num clearance', title: 'least distance from the path to an obstacle' }, r.clearance === null || r.clearance === undefined ? '–' : r.clearance.toFixed(2)) : null,
    ok ? el('td', { class: 'num turn' }, r.turn === null || r.turn === undefined ? '–' : r.turn.toFixed(0)) : null,
    el('td', { class: 'num', title: ok ? `locate ${r.locate_us.toFixed(0)} µs · search ${r.search_us.toFixed(0)} µs · smooth ${r.smooth_us.toFixed(0)} µs` : '' }, t === null ? '' : t.toFixed(t < 10 ? 2 : 1)));
    tr.addEventListener('mouseenter', () => { state.highlight = r.representation; tr.classList.add('hl'); render(); });
    tr.addEventListener('mouseleave', () => { state.highlight = null; tr.classList.remove('hl'); render(); });
    tb.append(tr);
  }
  renderReplayNote();
}

function updatePoints() {
  $('startpt').textContent = fmtPoint(state.start);
  $('goalpt').textContent = fmtPoint(state.goal);
}

// ---------- pointer: drag markers, pan, click, zoom ----------
let drag = null;  // {kind: 'start'|'goal'|'pan', x, y, moved}
function markerAt(px, py) {
  for (const kind of ['goal', 'start']) {
    const p = state[kind];
    if (!p) continue;
    const [x, y] = toScreen(p[0], p[1]);
    if (Math.hypot(px - x, py - y) <= 13) return kind;
  }
  return null;
}
function localXY(ev) { const r = canvas.getBoundingClientRect(); return [ev.clientX - r.left, ev.clientY - r.top]; }

canvas.addEventListener('pointerdown', (ev) => {
  if (!state.map || ev.button !== 0) return;
  const [px, py] = localXY(ev);
  if (brush.on) {  // the brush: the press and every cell the drag crosses take its weight
    drag = { kind: 'paint', x: px, y: py, moved: false };
    canvas.setPointerCapture(ev.pointerId);
    brush.seen = new Set();
    paintCell(cellAt(px, py));
    return;
  }
  if (edit.on) {  // edit mode: the press and every cell the drag crosses toggle (markers stay put)
    drag = { kind: 'edit', x: px, y: py, moved: false };
    canvas.setPointerCapture(ev.pointerId);
    edit.blocked = null;
    edit.seen = new Set();
    editCell(cellAt(px, py));
    return;
  }
  const kind = markerAt(px, py);
  drag = { kind: kind || 'pan', x: px, y: py, moved: false, shift: ev.shiftKey };
  canvas.setPointerCapture(ev.pointerId);
  if (!kind) canvas.classList.add('panning');
});
canvas.addEventListener('pointermove', (ev) => {
  if (!state.map) return;
  const [px, py] = localXY(ev);
  const [mx, my] = toMap(px, py);
  $('coords').textContent = `x ${mx.toFixed(2)}  y ${my.toFixed(2)}`;
  if (!drag) { canvas.classList.toggle('over-marker', !edit.on && !brush.on && !!markerAt(px, py)); return; }
  if (drag.kind === 'edit' || drag.kind === 'paint') {  // every cell along the move, not only the ones the events land in
    const n = Math.ceil(2 * Math.hypot(px - drag.x, py - drag.y) / state.view.s) + 1;
    const visit = drag.kind === 'edit' ? editCell : paintCell;
    for (let i = 1; i <= n; ++i) visit(cellAt(drag.x + (px - drag.x) * i / n, drag.y + (py - drag.y) * i / n));
    drag.x = px; drag.y = py;
    return;
  }
  if (Math.hypot(px - drag.x, py - drag.y) > 3) drag.moved = true;
  if (drag.kind === 'pan') {
    if (!drag.moved) return;
    state.view.ox += px - drag.x;
    state.view.oy += py - drag.y;
    drag.x = px; drag.y = py;
    invalidateLayers();
  } else {
    const p = snap([mx, my]);
    const cur = state[drag.kind];
    if (cur[0] === p[0] && cur[1] === p[1]) return;
    state[drag.kind] = p;
    state.recorded = null;
    state.highlight = null;
    updatePoints();
    render();
    query();
  }
});
function endDrag(ev) {
  if (!drag) return;
  const d = drag;
  drag = null;
  canvas.classList.remove('panning');
  if (d.kind === 'edit') { editDone(); return; }
  if (d.kind === 'paint') { paintDone(); return; }
  if (d.kind === 'pan' && !d.moved && ev.type === 'pointerup') {  // a click: the goal (shift: the start)
    const [px, py] = localXY(ev);
    const p = snap(toMap(px, py));
    state[ev.shiftKey || d.shift ? 'start' : 'goal'] = p;
    state.recorded = null;
    state.highlight = null;
    updatePoints();
    render();
    query();
  }
}
canvas.addEventListener('pointerup', endDrag);
canvas.addEventListener('pointercancel', endDrag);
canvas.addEventListener('pointerleave', () => { $('coords').textContent = ''; });
canvas.addEventListener('wheel', (ev) => {
  if (!state.map) return;
  ev.preventDefault();
  const [px, py] = localXY(ev);
  const k = Math.exp(-ev.deltaY * (ev.deltaMode === 1 ? 0.05 : 0.0015));
  const s = Math.min(Math.max(state.view.s * k, 0.02), 400);
  const [mx, my] = toMap(px, py);
  state.view = { s, ox: px - mx * s, oy: py - my * s };
  invalidateLayers();
}, { passive: false });
window.addEventListener('keydown', (ev) => {
  if (ev.target.tagName === 'INPUT' || ev.target.tagName === 'SELECT') return;
  if (ev.key === 'f' || ev.key === 'F') fit();
  if ((ev.key === 'e' || ev.key === 'E') && !ev.ctrlKey && !ev.metaKey && !ev.altKey) setEditMode(!edit.on);
  if ((ev.key === 'b' || ev.key === 'B') && !ev.ctrlKey && !ev.metaKey && !ev.altKey) setBrush(!brush.on);
});
new ResizeObserver(() => { resize(); }).observe(canvas);

// ---------- edit obstacles (grid maps) ----------
// The page changes its own copy of a cell at once and sends the cells in batches, one request at
// a time; after each answer the query runs again, and when the drag is over the structure layers
// are fetched again (they changed with the map).
const edit = {
  on: false,
  blocked: null,  // what this press makes the cells: decided by the first cell (free -> blocked)
  seen: null,     // cells this press visited (each toggles once)
  queue: [],      // [x, y, blocked] not sent yet
  sending: false,
  dirty: false,   // cells changed since the structure layers were last fetched
};

function setEditMode(on) {
  edit.on = !!on && !!state.map && state.map.kind === 'grid';
  if (edit.on && brush.on) setBrush(false);
  $('edit').setAttribute('aria-pressed', String(edit.on));
  canvas.classList.toggle('editing', edit.on);
}

function cellAt(px, py) {
  const [x, y] = toMap(px, py);
  const cx = Math.floor(x), cy = Math.floor(y);
  return cx >= 0 && cy >= 0 && cx < state.map.width && cy < state.map.height ? [cx, cy] : null;
}

function setCell(x, y, blocked) {
  const row = state.map.rows[y];
  state.map.rows[y] = row.slice(0, x) + (blocked ? '@' : '.') + row.slice(x + 1);
  if (blocked && state.map.weights) state.map.weights[y * state.map.width + x] = 1;  // as the server: a blocked cell weighs 1
  paintPixel(x, y);
}

// Redraws one cell of the map image: blocked, or shaded by its weight.
function paintPixel(x, y) {
  const m = state.map;
  const free = m.rows[y].charCodeAt(x) === 46;
  const c = state.mapImage.getContext('2d');
  c.fillStyle = `rgb(${!free ? COLOURS.blocked : m.weights ? shade(m.weights[y * m.width + x]) : COLOURS.free})`;
  c.fillRect(x, y, 1, 1);
}

function editCell(cell) {
  if (!cell || !edit.seen) return;
  const [x, y] = cell;
  const key = y * state.map.width + x;
  if (edit.seen.has(key)) return;
  edit.seen.add(key);
  const free = state.map.rows[y].charCodeAt(x) === 46;  // '.'
  if (edit.blocked === null) edit.blocked = free;
  if (free !== edit.blocked) return;  // already what this drag makes cells
  setCell(x, y, edit.blocked);
  edit.queue.push([x, y, edit.blocked]);
  render();
  flushEdits();
}

async function flushEdits() {
  if (edit.sending || !edit.queue.length) return;
  edit.sending = true;
  const blocked = edit.queue[0][2];
  let n = 0;
  while (n < edit.queue.length && n < 4096 && edit.queue[n][2] === blocked) ++n;
  const cells = edit.queue.splice(0, n).map(([x, y]) => [x, y]);
  const mapId = state.map.id;
  try {
    const res = await api('/api/cells', { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ map: mapId, cells, blocked }) });
    if (state.map.id === mapId) {
      state.map.version = res.version;
      state.updates = res;
      edit.dirty = true;
      renderUpdates();
      query();
    }
  } catch (e) {
    $('queryerror').textContent = `edit: ${e.message}`;
    edit.queue = [];
    await refreshMap();  // the server's cells, whatever this page believed
  }
  edit.sending = false;
  editDone();
}

// After the last batch of a press: the structures changed with the map.
function editDone() {
  if (edit.queue.length) { flushEdits(); return; }
  if (edit.sending || drag || !edit.dirty) return;
  edit.dirty = false;
  refetchLayers();
}

async function resetMap() {
  if (!state.map || state.map.kind !== 'grid') return;
  const mapId = state.map.id;
  try {
    const res = await api('/api/reset', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ map: mapId }) });
    if (state.map.id !== mapId) return;
    state.updates = res;
    await refreshMap();
    refetchLayers();
    query();
  } catch (e) {
    $('queryerror').textContent = `reset: ${e.message}`;
  }
}

// The server's cells of the current map, keeping the view, the points and the results.
async function refreshMap() {
  const mapId = state.map.id;
  const m = await api(`/api/map?map=${mapId}`);
  if (state.map.id !== mapId || m.kind !== 'grid') return;
  state.map = m;
  state.mapImage = gridImage(m);
  terrainState();
  renderUpdates();
  render();
}

// Structures drawn or fetched before an edit: fetched again (drawn ones at once).
function refetchLayers() {
  for (const r of state.reps) {
    if (r.loading || (!r.segments && !r.layer)) continue;
    r.segments = null;
    if (r.layer) { r.layer = false; toggleLayer(r); }
  }
  invalidateLayers(true);
}

// One small line under the table: how long each representation took to follow the last edit.
function renderUpdates() {
  const u = state.updates;
  if (!u || !state.map || u.map !== state.map.id) { $('updates').textContent = ''; return; }
  const t = (us) => (us < 1000 ? `${us.toFixed(0)} µs` : `${(us / 1000).toFixed(1)} ms`);
  const parts = u.updates.map((x) => `${x.representation} ${t(x.update_us)}${x.in_place ? '' : ' (rebuilt)'}`);
  $('updates').textContent = `map version ${u.version}, ${u.changed} cell${u.changed === 1 ? '' : 's'} changed` +
    (parts.length ? ` · update: ${parts.join(' · ')}` : '');
}

// ---------- terrain costs (grid maps; docs/terrain.md) ----------
// A terrain table or a cost layer makes the map weighted (POST /api/terrain: the same map as
// `navbench run --terrain` / `--costs`); the brush paints a weight on cells (POST /api/paint, in
// batches, one request at a time, as edits are sent). The page shades its own copy at once.
const brush = {
  on: false,
  seen: null,     // cells this press visited
  queue: [],      // [x, y, weight] not sent yet
  sending: false,
  dirty: false,   // weights changed since the structure layers were last fetched
};

// The terrain section, the snap and the radius slider follow whether the map is weighted.
function terrainState() {
  const m = state.map;
  const grid = !!m && m.kind === 'grid';
  $('terrainsec').classList.toggle('off', !grid);
  if (!grid) { setBrush(false); return; }
  const w = m.weights;
  let lo = Infinity, hi = -Infinity;
  if (w) for (let i = 0; i < w.length; ++i) if (m.rows[(i / m.width) | 0].charCodeAt(i % m.width) === 46) { lo = Math.min(lo, w[i]); hi = Math.max(hi, w[i]); }
  $('terraininfo').textContent = w ? `${m.terrain} · weights ${fmt(lo, 3)}–${fmt(hi, 3)}` : 'unweighted';
  $('terrainsec').dataset.terrain = w ? m.terrain : '';
  $('savecosts').href = `/api/costs?map=${m.id}`;
  $('savecosts').setAttribute('aria-disabled', String(!w));
  // docs/terrain.md: no agent radius on terrain costs, and the points are cells' centres.
  $('radius').disabled = !!w;
  if (w && state.radius > 0) setRadius(0, false, false);
  if (w && state.start) { state.start = snap(state.start); state.goal = snap(state.goal); updatePoints(); }
}

function setBrush(on) {
  brush.on = !!on && !!state.map && state.map.kind === 'grid';
  if (brush.on && edit.on) setEditMode(false);
  $('brush').setAttribute('aria-pressed', String(brush.on));
  canvas.classList.toggle('painting', brush.on);
}

function brushWeight() {
  const w = Number($('brushweight').value);
  return Number.isFinite(w) && w >= 1 ? w : null;
}

// The brush at a cell: the cells of a disc of the brush's size (1: the cell itself) round it.
function paintCell(cell) {
  if (!cell || !brush.seen) return;
  const w = brushWeight();
  if (w === null) { $('terrainerror').textContent = 'the brush weight must be a number >= 1'; return; }
  const r = (Number($('brushsize').value) - 1) / 2;
  const m = state.map;
  for (let dy = -r; dy <= r; ++dy)
    for (let dx = -r; dx <= r; ++dx) {
      const x = cell[0] + dx, y = cell[1] + dy;
      if (dx * dx + dy * dy <= r * r + r && x >= 0 && y >= 0 && x < m.width && y < m.height) paintOne(x, y, w);
    }
}

function paintOne(x, y, w) {
  const m = state.map;
  const key = y * m.width + x;
  if (brush.seen.has(key)) return;
  brush.seen.add(key);
  if (m.rows[y].charCodeAt(x) !== 46) return;  // blocked cells stay blocked (the server skips them too)
  if (!m.weights) m.weights = new Array(m.width * m.height).fill(1);
  if (m.weights[key] === w) return;
  m.weights[key] = w;
  paintPixel(x, y);
  brush.queue.push([x, y, w]);
  render();
  flushPaint();
}

async function flushPaint() {
  if (brush.sending || !brush.queue.length) return;
  brush.sending = true;
  const weight = brush.queue[0][2];
  let n = 0;
  while (n < brush.queue.length && n < 4096 && brush.queue[n][2] === weight) ++n;
  const cells = brush.queue.splice(0, n).map(([x, y]) => [x, y]);
  const mapId = state.map.id;
  try {
    const res = await api('/api/paint', { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ map: mapId, cells, weight }) });
    if (state.map.id === mapId) {
      state.map.version = res.version;
      state.map.terrain = res.terrain;
      state.updates = res;
      brush.dirty = true;
      $('terrainerror').textContent = '';
      terrainState();
      renderUpdates();
      query();
    }
  } catch (e) {
    $('terrainerror').textContent = `paint: ${e.message}`;
    brush.queue = [];
    await refreshMap();  // the server's weights, whatever this page believed
  }
  brush.sending = false;
  paintDone();
}

// After the last batch of a press: the structures that take weights changed with them.
function paintDone() {
  if (brush.queue.length) { flushPaint(); return; }
  if (brush.sending || drag || !brush.dirty) return;
  brush.dirty = false;
  refetchLayers();
}

// A terrain table (`text`) or a cost layer's text (`costs`, its file `name`) onto the current map.
async function loadTerrain(body) {
  if (!state.map || state.map.kind !== 'grid') return;
  const mapId = state.map.id;
  try {
    const res = await api('/api/terrain', { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ map: mapId, ...body }) });
    if (state.map.id !== mapId) return;
    $('terrainerror').textContent = '';
    state.updates = res;
    await refreshMap();
    refetchLayers();
    query();
  } catch (e) {
    $('terrainerror').textContent = e.message;
  }
}

// ---------- the agent's radius ----------
// The slider's range: 0 to 4 cells on grid maps, about a twentieth of the extent on polygon maps.
function setRadiusRange(m) {
  const slider = $('radius');
  let max = 4, step = 0.1;
  if (m.kind !== 'grid') {
    const ext = Math.max(m.max[0] - m.min[0], m.max[1] - m.min[1]) / 20;
    const p = 10 ** Math.floor(Math.log10(ext));
    max = Math.max(1, Math.round(ext / p)) * p;
    step = max / 40;
  }
  slider.max = String(max);
  slider.step = String(step);
  if (state.radius > max) setRadius(max, false, false);
}

let radiusTimer = 0;
// Sets the agent's radius: the discs are drawn at once; the query runs after the slider has rested
// 150 ms (`now`: at once), and drawn structure layers are fetched for the new radius.
function setRadius(v, now = false, ask = true) {
  const slider = $('radius');
  v = Math.max(0, Number(v) || 0);
  if (v > Number(slider.max)) slider.max = String(v);
  slider.value = String(v);
  state.radius = Number(v.toFixed(6));
  $('radiusval').textContent = fmt(state.radius, 3);
  render();
  clearTimeout(radiusTimer);
  if (!ask) return;
  state.recorded = null;
  const changed = () => {
    for (const r of state.reps) {
      if (r.loading || !r.segments || r.segmentsRadius === state.radius) continue;
      r.segments = null;
      if (r.layer) { r.layer = false; toggleLayer(r); }
    }
    invalidateLayers(true);
    query();
  };
  if (now) changed();
  else radiusTimer = setTimeout(changed, 150);
}

// ---------- replay a results CSV ----------
// RFC 4180 fields: quoted fields may hold commas, quotes ("") and newlines.
function parseCSV(text) {
  const rows = [];
  let row = [], field = '', i = 0, quoted = false;
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"') { if (text[i + 1] === '"') { field += '"'; i += 2; continue; } quoted = false; i++; continue; }
      field += c; i++; continue;
    }
    if (c === '"') { quoted = true; i++; continue; }
    if (c === ',') { row.push(field); field = ''; i++; continue; }
    if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field); rows.push(row); row = []; field = ''; i++; continue;
    }
    field += c; i++;
  }
  if (field !== '' || row.length) { row.push(field); rows.push(row); }
  return rows.filter((r) => r.length > 1 || r[0] !== '');
}

const CSV_NEEDS = ['map', 'representation', 'heuristic', 'smoothing', 'convention', 'sx', 'sy', 'gx', 'gy', 'status', 'length'];
function loadCSV(text, name) {
  const rows = parseCSV(text);
  if (!rows.length) throw new Error(`${name}: empty file`);
  const head = rows[0];
  const missing = CSV_NEEDS.filter((c) => !head.includes(c));
  if (missing.length) throw new Error(`${name}: not a navbench results file (no column ${missing.join(', ')})`);
  const idx = Object.fromEntries(head.map((h, i) => [h, i]));
  state.csv = { name, rows: rows.slice(1).map((r) => Object.fromEntries(Object.entries(idx).map(([k, i]) => [k, r[i] ?? '']))) };
  renderCSV();
}

function mapForRow(row) {
  const maps = state.info.maps.filter((m) => m.name === row.map);
  return maps.find((m) => m.collection === row.collection) || maps[0] || null;
}

function renderCSV() {
  const tb = $('csvrows').tBodies[0];
  tb.replaceChildren();
  if (!state.csv) return;
  const f = $('csvfilter').value.trim().toLowerCase();
  const LIMIT = 400;
  let shown = 0, matched = 0;
  for (const row of state.csv.rows) {
    const text = `${row.map} ${row.scen_index ?? ''} ${row.representation} ${row.heuristic} ${row.smoothing} ${row.status}`;
    if (f && !text.toLowerCase().includes(f)) continue;
    ++matched;
    if (shown >= LIMIT) continue;
    ++shown;
    const served = !!mapForRow(row);
    const tr = el('tr', { class: served ? '' : 'off', title: served ? 'replay this query' : `map ${row.map} is not served (start navbench serve --map with it)` },
      el('td', {}, row.map), el('td', { class: 'num' }, row.scen_index ?? ''), el('td', {}, row.representation),
      el('td', {}, row.smoothing), el('td', {}, row.heuristic),
      el('td', { class: 'num' }, row.status === 'ok' ? fmt(Number(row.length), 6) : row.status));
    if (served) tr.addEventListener('click', () => { for (const t of tb.rows) t.classList.remove('sel'); tr.classList.add('sel'); replay(row); });
    tb.append(tr);
  }
  $('csvinfo').textContent = `${state.csv.name}: ${state.csv.rows.length} rows` + (matched > shown ? ` · showing ${shown} of ${matched}` : '');
}

async function replay(row) {
  const m = mapForRow(row);
  if (!m) return;
  if (!state.map || state.map.id !== m.id) await loadMap(m.id);
  // A row of a weighted run (column terrain, docs/terrain.md): its terrain table is loaded onto the
  // map; a cost layer's row names only its file, which must be loaded by hand (the note says so).
  if (row.terrain && row.terrain !== (state.map.terrain || '') && /^[^=,]=[^=,]+(,[^=,]=[^=,]+)*$/.test(row.terrain))
    await loadTerrain({ terrain: row.terrain });
  // the row's points (docs/maps.md, query points: convention center adds 0.5 on grid maps)
  const off = m.kind === 'grid' && row.convention === 'center' ? 0.5 : 0;
  state.start = [Number(row.sx) + off, Number(row.sy) + off];
  state.goal = [Number(row.gx) + off, Number(row.gy) + off];
  const [h, w] = row.heuristic.split('*');
  if ([...$('heuristic').options].some((o) => o.value === h)) { $('heuristic').value = h; $('weight').value = w || 1; }
  if ([...$('smoothing').options].some((o) => o.value === row.smoothing)) $('smoothing').value = row.smoothing;
  setRadius(row.radius ? Number(row.radius) : 0, false, false);  // the row's agent (column radius, docs/radius.md)
  const r = addRep(row.representation, state.info.representations.find((x) => x.name === row.representation)?.description || '');
  r.selected = true;
  state.recorded = row;
  state.highlight = row.representation;
  renderReps();
  updatePoints();
  render();
  query();
}

function renderReplayNote() {
  const note = $('replaynote');
  const row = state.recorded;
  if (!row || !state.results) { note.textContent = ''; return; }
  const live = state.results.results.find((r) => r.representation === row.representation && r.smoothing === row.smoothing);
  const withCost = !!row.cost;  // a weighted run's row: its cost is compared too
  const recorded = row.status === 'ok' ? `length ${fmt(Number(row.length), 8)}` + (withCost ? `, cost ${fmt(Number(row.cost), 8)}` : '') : row.status;
  const now = live ? (live.status === 'ok' ? `length ${fmt(live.length, 8)}` + (withCost ? `, cost ${fmt(live.cost, 8)}` : '') : live.status) : 'not run';
  const close = (a, b) => a !== null && a !== undefined && Math.abs(a - b) <= 1e-8 * Math.max(1, Math.abs(a));
  const same = live && live.status === row.status && (row.status !== 'ok' || (close(live.length, Number(row.length)) && (!withCost || close(live.cost, Number(row.cost)))));
  const weights = (row.terrain || '') !== (state.map && state.map.terrain ? state.map.terrain : '')
    ? ` (the row's weights are '${row.terrain || 'none'}', the map's '${(state.map && state.map.terrain) || 'none'}'${row.terrain ? ': load them' : ': Reset map drops them'})` : '';
  note.textContent = `CSV row (${row.map} #${row.scen_index ?? '?'}, ${row.representation}, ${row.smoothing}, ${row.heuristic}): ${recorded} · live: ${now} ${same ? '✓ same' : '✗ differs'}${weights}`;
}

// ---------- start ----------
async function main() {
  try {
    state.info = await api('/api/info');
  } catch (e) {
    setStatus(`cannot reach the server: ${e.message}`);
    return;
  }
  const sel = $('map');
  for (const m of state.info.maps)
    sel.append(el('option', { value: m.id }, `${m.collection}/${m.name}` + (m.kind === 'grid' ? `  (${m.width}×${m.height})` : '  (polygons)')));
  sel.addEventListener('change', () => loadMap(Number(sel.value)));
  for (const s of state.info.smoothers) $('smoothing').append(el('option', { value: s.name, title: s.description }, s.name));
  $('smoothing').value = 'los';
  for (const h of state.info.heuristics) $('heuristic').append(el('option', { value: h }, h));
  for (const s of state.info.searches || ['astar']) $('search').append(el('option', { value: s }, s));
  for (const id of ['smoothing', 'search', 'heuristic', 'weight']) $(id).addEventListener('change', () => { state.recorded = null; state.highlight = null; query(); });
  $('radius').addEventListener('input', () => setRadius(Number($('radius').value)));
  $('radius').addEventListener('change', () => setRadius(Number($('radius').value), true));
  $('snap').addEventListener('change', () => { if (state.start) { state.start = snap(state.start); state.goal = snap(state.goal); updatePoints(); query(); } });
  addRegistered(state.info.representations);
  $('addrep').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const spec = $('repspec').value.trim();
    if (!spec || !state.map) return;
    $('reperror').textContent = '';
    try {  // checked (and built) by the server before it joins the list
      await api('/api/query', { method: 'POST', headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ map: state.map.id, reps: [spec], start: state.start, goal: state.goal, paths: false }) });
    } catch (e) {
      $('reperror').textContent = e.message;
      return;
    }
    addRep(spec, 'custom parameters');
    $('repspec').value = '';
    renderReps();
    query();
  });
  $('fit').addEventListener('click', fit);
  $('edit').addEventListener('click', () => setEditMode(!edit.on));
  $('resetmap').addEventListener('click', resetMap);
  $('terrainform').addEventListener('submit', (ev) => { ev.preventDefault(); loadTerrain({ terrain: $('terrain').value.trim() }); });
  $('costsfile').addEventListener('change', async () => {
    const f = $('costsfile').files[0];
    if (!f) return;
    await loadTerrain({ costs: await f.text(), name: f.name });
    $('costsfile').value = '';
  });
  $('brush').addEventListener('click', () => setBrush(!brush.on));
  $('csvfile').addEventListener('change', async () => {
    const f = $('csvfile').files[0];
    if (!f) return;
    try { loadCSV(await f.text(), f.name); $('csvinfo').classList.remove('error'); } catch (e) { $('csvinfo').textContent = e.message; }
  });
  $('csvfilter').addEventListener('input', renderCSV);
  renderReps();
  resize();
  const want = Number(new URL(location.href).searchParams.get('map'));
  const id = state.info.maps.some((m) => m.id === want) ? want : 0;
  if (state.info.maps.length) await loadMap(id);
}

// For tests and the curious: the view's transform.
window.navbenchViewer = {
  state,
  mapToClient(x, y) { const r = canvas.getBoundingClientRect(); const [px, py] = toScreen(x, y); return [r.left + px, r.top + py]; },
  loadCSV,
  loadMap,
  setEditMode,
  setBrush,
  setPoints(start, goal) { state.start = start; state.goal = goal; state.recorded = null; state.highlight = null; updatePoints(); render(); query(); },
  setRadius(v) { setRadius(v, true); },
};

main();
