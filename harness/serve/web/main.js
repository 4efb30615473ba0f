// navbench viewer (see app.js): the pointer (drag markers, pan, zoom), replaying a results CSV,
// and the start; loaded last, so every listener it binds finds the functions of the other files.
'use strict';

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
  const w = metresOf([mx, my]);
  $('coords').textContent = `x ${mx.toFixed(2)}  y ${my.toFixed(2)}` + (w ? ` · ${w[0].toFixed(2)} m, ${w[1].toFixed(2)} m` : '');
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
  setupSearch();
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
  search,
  readTraceFile,
};

main();
