// Pandemic (EDA course, version 1.0): trace reader, board drawing and panel
// texts. Trace format: pandemic/SPEC.md §10; rules: docs/rules/pandemic.md.
//
// One square board without wrap-around: walls, grass, rectangular cities and
// the paths between them. A city or path takes its owner's tint (cities get
// an outline in the owner's colour too); the virus on a cell darkens it; masks
// lie on the grass; units are circles in their owner's colour.

import { checkSizes, short } from '../parse.js';
import {
  OWNED, INK, NEUTRAL, playerColor, drawGridLines, drawShape, drawHealthBar, slide,
  iconCanvas, cellIcon,
} from '../draw.js';

const SETTING_KEYS = [
  'nb_players', 'rows', 'cols', 'nb_rounds', 'initial_health', 'nb_units', 'bonus_per_city_cell',
  'bonus_per_path_cell', 'factor_connected_component', 'infection_factor', 'mask_protection',
];
const FLOAT_KEYS = ['infection_factor', 'mask_protection'];
// W wall; grass '.' or a.. (virus 1..); city ';' or A.. ; path ',' or 0..9.
const GRID_CHARS = /^[W.;,a-zA-Z0-9]+$/;
const GRASS_CAP = 4;
const CITY_CAP = 10;

/** Terrain colours (the Go test checks wall, grass, city, path and OWNED). */
const COLOR = {
  wall: '#36302b',
  grass: '#d9d3c3',
  city: '#7d8796',
  cityEdge: '#3b424d',
  path: '#a89677',
  virus: '70, 90, 0',
  mask: '#f8f9fa',
  maskStrap: '#4dabf7',
};

function readHeader(rd, g) {
  const s = rd.settings(SETTING_KEYS, FLOAT_KEYS);
  g.settings = s;
  g.nbPlayers = s.nb_players;
  g.nbRounds = s.nb_rounds;
  g.rows = s.rows;
  g.cols = s.cols;
  checkSizes(rd, g);
  if (s.nb_units < 0 || s.nb_units > 100000) throw rd.error(`bad nb_units ${s.nb_units}`);
  g.names = rd.names(s.nb_players);
  g.nbUnits = s.nb_players * s.nb_units;
}

/** Reads n cell positions "i j". */
function readCells(rd, g, n, what) {
  const cells = [];
  for (let k = 0; k < n; k++) {
    const i = rd.int(`row of ${what}`);
    const j = rd.int(`column of ${what}`);
    if (i < 0 || j < 0 || i >= g.rows || j >= g.cols) throw rd.error(`${what}: cell (${i}, ${j}) is off the board`);
    cells.push([i, j]);
  }
  return cells;
}

/** Reads a count n (bounded by the board size) after keyword key. */
function readCount(rd, g, key) {
  rd.expect(key);
  const n = rd.int(`number of ${key}`);
  if (n < 0 || n > g.rows * g.cols) throw rd.error(`bad number of ${key}: ${n}`);
  return n;
}

function readState(rd, g, r) {
  for (let k = 0; k < 2; k++) {
    const t = rd.next('column labels');
    if (!/^\d+$/.test(t)) {
      rd.pos--;
      throw rd.error(`expected the column labels (digits), found "${short(t)}"`);
    }
  }
  const grid = [];
  for (let i = 0; i < g.rows; i++) {
    const label = rd.int(`label of row ${i}`);
    if (label !== i) throw rd.error(`row ${i} is labelled ${label}`);
    grid.push(rd.gridRow(g, GRID_CHARS, `row ${i}`));
  }
  const cities = [];
  const nc = readCount(rd, g, 'cities');
  for (let k = 0; k < nc; k++) {
    const size = rd.int(`size of city ${k}`);
    if (size < 0 || size > g.rows * g.cols) throw rd.error(`bad size of city ${k}: ${size}`);
    cities.push({ cells: readCells(rd, g, size, `city ${k}`) });
  }
  const paths = [];
  const np = readCount(rd, g, 'paths');
  for (let k = 0; k < np; k++) {
    const from = rd.int(`first city of path ${k}`);
    const to = rd.int(`second city of path ${k}`);
    const size = rd.int(`length of path ${k}`);
    if (size < 0 || size > g.rows * g.cols) throw rd.error(`bad length of path ${k}: ${size}`);
    paths.push({ from, to, cells: readCells(rd, g, size, `path ${k}`) });
  }
  const masks = readCells(rd, g, readCount(rd, g, 'masks'), 'mask');
  rd.round(r);
  const total = rd.perPlayer(g, 'total_score');
  const status = rd.perPlayer(g, 'status', (w) => rd.float(w));
  rd.expect('city_owners');
  const cityOwners = cities.map((_, k) => rd.int(`owner of city ${k}`));
  rd.expect('path_owners');
  const pathOwners = paths.map((_, k) => rd.int(`owner of path ${k}`));
  rd.expect('units');
  const units = [];
  for (let id = 0; id < g.nbUnits; id++) {
    const player = rd.int(`player of unit ${id}`);
    const i = rd.int(`row of unit ${id}`);
    const j = rd.int(`column of unit ${id}`);
    const health = rd.int(`health of unit ${id}`);
    units.push({ id, player, i, j, health });
  }
  return { round: r, grid, cities, paths, masks, total, status, cityOwners, pathOwners, units };
}

/**
 * Returns, for state st, an index of every cell: -1 for none, k for city k,
 * and -2 - k for path k. Cities and paths never change during a game, so the
 * index of the first state is reused while the lists keep their sizes.
 */
function cellIndex(g, st) {
  const c = g.pandemicIndex;
  if (c && c.cities === st.cities.length && c.paths === st.paths.length) return c.index;
  const index = new Int32Array(g.rows * g.cols).fill(-1);
  st.cities.forEach((city, k) => { for (const [i, j] of city.cells) index[i * g.cols + j] = k; });
  st.paths.forEach((path, k) => { for (const [i, j] of path.cells) index[i * g.cols + j] = -2 - k; });
  g.pandemicIndex = { cities: st.cities.length, paths: st.paths.length, index };
  return index;
}

const KINDS = new Map();

/** Reads a cell character: {kind: wall|grass|city|path, virus, cap} (cached). */
function cellKind(c) {
  let k = KINDS.get(c);
  if (!k) {
    k = readKind(c);
    KINDS.set(c, k);
  }
  return k;
}

function readKind(c) {
  if (c === 'W') return { kind: 'wall', virus: 0, cap: 0 };
  if (c === '.') return { kind: 'grass', virus: 0, cap: GRASS_CAP };
  if (c === ';') return { kind: 'city', virus: 0, cap: CITY_CAP };
  if (c === ',') return { kind: 'path', virus: 0, cap: CITY_CAP };
  if (c >= 'a' && c <= 'z') return { kind: 'grass', virus: c.charCodeAt(0) - 96, cap: GRASS_CAP };
  if (c >= 'A' && c <= 'Z') return { kind: 'city', virus: c.charCodeAt(0) - 64, cap: CITY_CAP };
  return { kind: 'path', virus: c.charCodeAt(0) - 47, cap: CITY_CAP };
}

/** The owner (-1 for none) of the city or path at index value x in state st. */
function ownerAt(st, x) {
  if (x >= 0) return st.cityOwners[x] ?? -1;
  if (x <= -2) return st.pathOwners[-2 - x] ?? -1;
  return -1;
}

function virusStyle(v, cap) {
  return `rgba(${COLOR.virus}, ${(0.08 + (0.37 * Math.min(v, cap)) / cap).toFixed(3)})`;
}

function drawMask(ctx, x, y, s) {
  const w = s * 0.64;
  const h = s * 0.4;
  const cx = x + s / 2;
  const cy = y + s / 2;
  ctx.strokeStyle = COLOR.maskStrap;
  ctx.lineWidth = Math.max(1, s * 0.08);
  ctx.beginPath();
  ctx.moveTo(x + s * 0.06, cy - h * 0.5);
  ctx.lineTo(x + s * 0.94, cy - h * 0.5);
  ctx.stroke();
  ctx.fillStyle = COLOR.mask;
  ctx.fillRect(cx - w / 2, cy - h / 2, w, h);
  ctx.lineWidth = 1;
  ctx.strokeStyle = INK;
  ctx.strokeRect(cx - w / 2, cy - h / 2, w, h);
}

function drawTerrain(ctx, g, st, s, ox, oy) {
  const index = cellIndex(g, st);
  for (let i = 0; i < g.rows; i++) {
    const row = st.grid[i];
    for (let j = 0; j < g.cols; j++) {
      const { kind } = cellKind(row[j]);
      const owner = kind === 'city' || kind === 'path' ? ownerAt(st, index[i * g.cols + j]) : -1;
      ctx.fillStyle = owner >= 0 ? OWNED[owner % OWNED.length] : COLOR[kind];
      ctx.fillRect(ox + j * s, oy + i * s, s, s);
    }
  }
  for (let i = 0; i < g.rows; i++) {
    const row = st.grid[i];
    for (let j = 0; j < g.cols; j++) {
      const { virus, cap } = cellKind(row[j]);
      if (virus <= 0) continue;
      ctx.fillStyle = virusStyle(virus, cap);
      ctx.fillRect(ox + j * s, oy + i * s, s, s);
    }
  }
  drawGridLines(ctx, g, s, ox, oy);
  // Cities: an outline in the owner's colour around the rectangle.
  st.cities.forEach((city, k) => {
    if (city.cells.length === 0) return;
    let i0 = Infinity; let j0 = Infinity; let i1 = -1; let j1 = -1;
    for (const [i, j] of city.cells) {
      i0 = Math.min(i0, i); j0 = Math.min(j0, j); i1 = Math.max(i1, i); j1 = Math.max(j1, j);
    }
    const owner = st.cityOwners[k] ?? -1;
    ctx.strokeStyle = owner >= 0 ? playerColor(owner) : COLOR.cityEdge;
    ctx.lineWidth = 2;
    ctx.strokeRect(ox + j0 * s + 1, oy + i0 * s + 1, (j1 - j0 + 1) * s - 2, (i1 - i0 + 1) * s - 2);
  });
  for (const [i, j] of st.masks) drawMask(ctx, ox + j * s, oy + i * s, s);
}

function drawBoard(ctx, g, a, b, f, board, s, ox, oy) {
  drawTerrain(ctx, g, f >= 0.5 && b ? b : a, s, ox, oy);
  const shown = (u) => u.i >= 0 && u.j >= 0 && u.i < g.rows && u.j < g.cols;
  const full = g.settings.initial_health;
  for (let id = 0; id < a.units.length; id++) {
    const at = slide(a.units[id], b ? b.units[id] : null, f, shown);
    if (!at) continue;
    const x = ox + at.j * s;
    const y = oy + at.i * s;
    drawShape(ctx, 'circle', x + s / 2, y + s / 2, s * 0.36, playerColor(at.u.player), INK, s >= 12 ? 1.5 : 1);
    drawHealthBar(ctx, x, y, s, at.u.health / full);
  }
}

function scoreDetail(g, r, p) {
  const st = g.rounds[r];
  const units = st.units.filter((u) => u.player === p).length;
  const cities = st.cityOwners.filter((o) => o === p).length;
  const paths = st.pathOwners.filter((o) => o === p).length;
  return `${units} units · ${cities} cities · ${paths} paths`;
}

function legend() {
  const withVirus = (kind, v, cap) => iconCanvas((ctx, size) => {
    ctx.fillStyle = COLOR[kind];
    ctx.fillRect(0, 0, size, size);
    ctx.fillStyle = virusStyle(v, cap);
    ctx.fillRect(0, 0, size, size);
  });
  const city = iconCanvas((ctx, size) => {
    ctx.fillStyle = COLOR.city;
    ctx.fillRect(0, 0, size, size);
    ctx.strokeStyle = COLOR.cityEdge;
    ctx.lineWidth = 2;
    ctx.strokeRect(1, 1, size - 2, size - 2);
  });
  const mask = iconCanvas((ctx, size) => {
    ctx.fillStyle = COLOR.grass;
    ctx.fillRect(0, 0, size, size);
    drawMask(ctx, 0, 0, size);
  });
  const unit = iconCanvas((ctx, size) => {
    ctx.fillStyle = COLOR.grass;
    ctx.fillRect(0, 0, size, size);
    drawShape(ctx, 'circle', size / 2, size / 2, size * 0.36, NEUTRAL);
    drawHealthBar(ctx, 0, 0, size, 0.6);
  });
  return {
    groups: [
      [
        [cellIcon(COLOR.wall), 'Wall'],
        [cellIcon(COLOR.grass), 'Grass'],
        [city, 'City, no owner'],
        [cellIcon(COLOR.path), 'Path, no owner'],
        ['owned', 'City or path owned'],
        [withVirus('grass', 2, GRASS_CAP), 'Virus (darker: more)'],
      ],
      [
        [withVirus('city', 10, CITY_CAP), 'City, virus 10'],
        [mask, 'Mask on the ground'],
        [unit, 'Unit, health bar when hurt'],
      ],
    ],
    note: 'Units, owned cities and paths take their owner\'s colour:',
  };
}

function settings(g) {
  const s = g.settings;
  const st = g.rounds[0];
  const pairs = [
    ['Seed', g.seed],
    ['Rounds', s.nb_rounds],
    ['Units', `${s.nb_units} / player`],
    ['Health', s.initial_health],
    ['City bonus', `${s.bonus_per_city_cell} / cell`],
    ['Path bonus', `${s.bonus_per_path_cell} / cell`],
    ['Group bonus', `${s.factor_connected_component} × 2^cities`],
    ['Infection', `virus / ${s.infection_factor}`],
    ['Mask', `÷ ${s.mask_protection}`],
    ['Board', `${s.rows} × ${s.cols}`],
    ['Cities', st.cities.length],
    ['Paths', st.paths.length],
  ];
  if (g.version !== '1.0') pairs.push(['Version', g.version]);
  return pairs;
}

function describeCell(g, r, i, j) {
  const st = g.rounds[r];
  const { kind, virus, cap } = cellKind(st.grid[i][j]);
  const x = cellIndex(g, st)[i * g.cols + j];
  const owner = ownerAt(st, x);
  const ownerText = owner >= 0 ? `owner P${owner} ${g.names[owner] ?? ''}` : 'no owner';
  let what;
  if (kind === 'wall') what = 'Wall';
  else if (kind === 'grass') what = 'Grass';
  else if (kind === 'city') what = x >= 0 ? `City #${x} (${st.cities[x].cells.length} cells), ${ownerText}` : 'City';
  else if (x <= -2) {
    const p = st.paths[-2 - x];
    what = `Path #${-2 - x} (city ${p.from} to city ${p.to}, ${p.cells.length} cells), ${ownerText}`;
  } else what = 'Path';
  if (kind !== 'wall') what += ` · virus ${virus}/${cap}`;
  if (st.masks.some(([mi, mj]) => mi === i && mj === j)) what += ' · mask';
  const units = [];
  for (const u of st.units) {
    if (u.i !== i || u.j !== j) continue;
    units.push({
      group: u.player,
      text: `Unit #${u.id} · P${u.player} ${g.names[u.player] ?? ''} · health ${u.health}/${g.settings.initial_health}`,
    });
  }
  return { pos: `(${i}, ${j})`, what, units };
}

/** The Pandemic module (see games/index.js for the interface). */
export default {
  name: 'Pandemic',
  version: '1.0',
  movesWord: 'commands',
  dirs: 'brtln',
  readHeader,
  readState,
  score: (g, st) => st.total,
  scoreRule: () => 'cities, paths and groups, every round',
  boards: () => [{ tag: 'Board', title: 'World' }],
  boardHint: (g, r) => {
    const st = g.rounds[r];
    const masks = st.masks.length;
    return `${st.cities.length} cities, ${st.paths.length} paths · ${masks} mask${masks === 1 ? '' : 's'} on the ground`;
  },
  drawBoard,
  legend,
  settings,
  scoreDetail,
  describeCell,
};
