// navbench viewer (see app.js): the map, the representations and their layers, the queries and
// their result rows.
'use strict';

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
  setStatus(mapStatus(m));
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

// The track of the selected planners from outside (docs/outside-planners.md#8-in-the-viewer): a
// classic-track entry answers queries between cell centres, an any-angle one between cell corners.
function outsideTrack() {
  const tracks = state.reps.filter((r) => r.selected && r.track).map((r) => r.track);
  return tracks.includes('classic') ? 'classic' : tracks.includes('anyangle') ? 'anyangle' : '';
}

function snap(p) {
  const m = state.map;
  let [x, y] = [Math.min(Math.max(p[0], m.min[0]), m.max[0]), Math.min(Math.max(p[1], m.min[1]), m.max[1])];
  const track = m.kind === 'grid' ? outsideTrack() : '';
  if (track === 'anyangle' && !m.weights) {  // the any-angle track's points are cell corners, whatever the box says
    x = Math.round(x);
    y = Math.round(y);
  } else if (m.kind === 'grid' && ($('snap').checked || m.weights || track === 'classic')) {  // a weighted map's queries are its cells' centres
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
function startsSelected(all) {
  // Never an opt-in one (a costly build, e.g. cpd's first-move table, which is also grid8-optimal
  // and comes first in the registry's order): one click away like the others.
  const reps = all.filter((r) => !r.opt_in);
  const grid = reps.find((r) => r.caps.grid8_optimal);
  // The page starts with a grid, the exact graph and the meshes that cover the free space exactly
  // (recast's approximates it, navmesh-file answers only on maps read from a .mesh: one click away).
  // A planner from outside named on the command line starts selected too.
  return new Set(reps.filter((r) => r === grid || (r.caps.corridor && !r.caps.grid_only && !r.caps.mesh_only && !r.caps.approximate_space) ||
                                    r.caps.exact || r.outside_track).map((r) => r.name));
}

// Every registered representation, in the registry's order (see PALETTE for the colours).
function addRegistered(reps) {
  const selected = startsSelected(reps);
  const order = [...reps.filter((r) => selected.has(r.name)), ...reps.filter((r) => !selected.has(r.name))];
  const colour = new Map(order.map((r, i) => [r.name, PALETTE[i] || '#333']));
  for (const r of reps) addRep(r.name, r.description, true, selected.has(r.name), colour.get(r.name)).track = r.outside_track || '';
}

function renderReps() {
  const ul = $('reps');
  ul.replaceChildren();
  for (const r of state.reps) {
    const box = el('input', { type: 'checkbox' });
    box.checked = r.selected;
    box.addEventListener('change', () => {
      r.selected = box.checked;
      if (r.track && state.start) { state.start = snap(state.start); state.goal = snap(state.goal); updatePoints(); }  // its track's points
      renderLegend(); renderResults(); render(); query();
    });
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
  if (search.on) body.trace = true;  // search.js: each answer's search, step by step
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
      search.step = Number.MAX_SAFE_INTEGER;  // search.js: a new search shows whole
      state.shownQuery = [...body.start, ...body.goal];
      state.roundTrip = performance.now() - t0;
      $('queryerror').textContent = '';
    }
  } catch (e) {
    $('queryerror').textContent = e.message;
    if (e.status === 503) retry();
  } finally {
    clearTimeout(slow);
    setStatus(mapStatus(state.map));
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
  $('optimal').textContent = res && res.optimal !== null ? fmt(res.optimal, 6) + (state.map.frame ? ` (${fmtMetres(metresLength(res.optimal))})` : '') : '–';
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
        fmt(r.length, weighted ? 4 : 5) + (r.valid === false ? ' ✗' : ''),
        state.map.frame ? el('span', { class: 'metres' }, fmtMetres(metresLength(r.length))) : null)
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
