// navbench viewer (see app.js): editing a grid map's obstacles (E), painting terrain costs (B),
// and the agent's radius.
'use strict';

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

const flushEdits = () => sendStroke(edit, { url: '/api/cells', field: 'blocked', errorId: 'queryerror', what: 'edit', done: editDone });
// After the last batch of a press: the structures changed with the map.
function editDone() { strokeDone(edit, flushEdits); }

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

const flushPaint = () => sendStroke(brush, {
  url: '/api/paint', field: 'weight', errorId: 'terrainerror', what: 'paint', done: paintDone,
  applied: (res) => {
    state.map.terrain = res.terrain;
    $('terrainerror').textContent = '';
    terrainState();
  },
});
// After the last batch of a press: the structures that take weights changed with them.
function paintDone() { strokeDone(brush, flushPaint); }

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

// One press's cells go to the server in batches of one value (a cell's `blocked`, a brush's
// `weight`), at most 4,096 cells a request and one request at a time; a failed batch drops the
// rest of the press and reloads the map (the server's cells, whatever this page believed). Shared
// by the cell editor (/api/cells) and the terrain brush (/api/paint).
async function sendStroke(q, { url, field, errorId, what, done, applied = () => {} }) {
  if (q.sending || !q.queue.length) return;
  q.sending = true;
  const value = q.queue[0][2];
  let n = 0;
  while (n < q.queue.length && n < 4096 && q.queue[n][2] === value) ++n;
  const cells = q.queue.splice(0, n).map(([x, y]) => [x, y]);
  const mapId = state.map.id;
  try {
    const res = await api(url, { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ map: mapId, cells, [field]: value }) });
    if (state.map.id === mapId) {
      state.map.version = res.version;
      state.updates = res;
      q.dirty = true;
      applied(res);
      renderUpdates();
      query();
    }
  } catch (e) {
    $(errorId).textContent = `${what}: ${e.message}`;
    q.queue = [];
    await refreshMap();
  }
  q.sending = false;
  done();
}

// After the last batch of a press: the structures changed with the map (once, when the press
// has ended and nothing is left to send).
function strokeDone(q, flush) {
  if (q.queue.length) { flush(); return; }
  if (q.sending || drag || !q.dirty) return;
  q.dirty = false;
  refetchLayers();
}
