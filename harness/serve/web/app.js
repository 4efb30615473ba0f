// navbench viewer: the page of `navbench serve` (plain JS + canvas, no libraries).
// The map is drawn to scale in map units (y down, as in Moving AI files); every query goes to
// POST /api/query, which runs the pipeline of `navbench run` on each selected representation.
// Grid maps can be edited (E): toggled cells go to POST /api/cells, and the server brings every
// representation up to date before the next query. The radius slider makes the agent a disc
// (docs/radius.md): the query asks with "radius", the disc is drawn at start and goal, and paths
// with arcs are drawn with their arcs. Terrain costs (docs/terrain.md): a terrain table or a cost
// layer loaded (POST /api/terrain) makes a grid map weighted; the brush (B) paints weights
// (POST /api/paint); cells are shaded by weight under the paths, and each row shows the path's cost.
// Four classic scripts share one global scope, loaded in order: app.js (state, helpers, view,
// drawing), panels.js, edit.js, search.js (the search step by step), main.js (listeners and the start).
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
// A ROS map's world frame (docs/maps.md, SPEC §13: cell (x, y) of an H-row map has its lower-left
// corner at metres (x r + ox, (H - 1 - y) r + oy), so map point (x, y) is at (x r + ox, (H - y) r + oy)):
// null where the map has no known scale.
function metresOf(p) {
  const m = state.map, f = m && m.frame;
  return f && m.kind === 'grid' ? [p[0] * f.resolution + f.origin[0], (m.height - p[1]) * f.resolution + f.origin[1]] : null;
}
function metresLength(v) {
  const f = state.map && state.map.frame;
  return f && v !== null && v !== undefined ? v * f.resolution : null;
}
function fmtMetres(v) { return v === null ? '' : `${v < 100 ? v.toFixed(2) : v.toFixed(1)} m`; }
// The status line of the open map: its size and, for a ROS map, its scale and origin.
function mapStatus(m) {
  const size = m.kind === 'grid' ? `${m.width}×${m.height} cells` : 'polygon map';
  const f = m.frame ? ` · ${fmt(m.frame.resolution, 4)} m/cell, origin (${fmt(m.frame.origin[0], 4)}, ${fmt(m.frame.origin[1], 4)}) m` : '';
  return `${m.collection}/${m.name} · ${size}${f}`;
}
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
  drawSearch();  // search.js: the expansions, under the paths
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
