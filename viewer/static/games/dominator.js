// Dominator (EDA course, version 4.0): trace reader, board drawing and panel
// texts. Trace format: dominator/SPEC.md §10; rules: docs/rules/dominator.md.
//
// One square board without wrap-around: walls, free cells and cells painted
// in a player's colour (its land). Farmers (circles) paint the cells they
// walk on, knights (shields) attack, witches (stars) haunt the cells within
// Manhattan distance 2 while no other witch is that close.

import { checkSizes, short } from '../parse.js';
import {
  OWNED, INK, NEUTRAL, playerColor, fillGrid, drawGridLines, drawShape, drawHealthBar,
  slide, iconCanvas, cellIcon,
} from '../draw.js';

const SETTING_KEYS = [
  'nb_players', 'nb_rounds', 'nb_farmers', 'nb_knights', 'nb_witches', 'farmers_health',
  'knights_health', 'farmers_regen', 'knights_regen', 'damage_min', 'damage_max', 'rows', 'cols',
];
const GRID_CHARS = /^[X.0-9]+$/;
const UNIT_TYPES = 'fkw';
const TYPE_NAME = { f: 'Farmer', k: 'Knight', w: 'Witch' };
const SHAPE = { f: 'circle', k: 'shield', w: 'star' };

/** Terrain colours (the Go test checks wall, field and OWNED). */
const COLOR = {
  wall: '#36302b',
  field: '#d9d0bb',
  haunt: 'rgba(36, 14, 60, 0.30)',
};

function readHeader(rd, g) {
  const s = rd.settings(SETTING_KEYS);
  g.settings = s;
  g.nbPlayers = s.nb_players;
  g.nbRounds = s.nb_rounds;
  g.rows = s.rows;
  g.cols = s.cols;
  checkSizes(rd, g);
  for (const k of ['nb_farmers', 'nb_knights', 'nb_witches']) {
    if (s[k] < 0 || s[k] > 100000) throw rd.error(`bad ${k} ${s[k]}`);
  }
  g.names = rd.names(s.nb_players);
  g.nbUnits = s.nb_players * (s.nb_farmers + s.nb_knights + s.nb_witches);
}

function readState(rd, g, r) {
  const grid = rd.grid(g, GRID_CHARS);
  rd.round(r);
  const land = rd.perPlayer(g, 'land');
  const total = rd.perPlayer(g, 'total_score');
  const status = rd.perPlayer(g, 'status', (w) => rd.float(w));
  const units = [];
  for (let id = 0; id < g.nbUnits; id++) {
    const type = rd.next(`type of unit ${id}`);
    if (type.length !== 1 || !UNIT_TYPES.includes(type)) {
      rd.pos--;
      throw rd.error(`unit ${id}: unknown unit type "${short(type)}" (expected f, k or w)`);
    }
    const player = rd.int(`player of unit ${id}`);
    const i = rd.int(`row of unit ${id}`);
    const j = rd.int(`column of unit ${id}`);
    const health = rd.int(`health of unit ${id}`);
    units.push({ id, type, player, i, j, health });
  }
  return { round: r, grid, land, total, status, units };
}

/**
 * Whether unit u stands on the board of state st. Units lost during a
 * rebirth (SPEC §8.9) keep a stale or fresh (0, 0) position, on a wall or
 * under another unit; those on a wall are not drawn.
 */
function onBoard(g, st, u) {
  return u.i >= 0 && u.j >= 0 && u.i < g.rows && u.j < g.cols && st.grid[u.i][u.j] !== 'X';
}

/**
 * The witches of state st with their activity: a witch is active unless
 * another witch stands within Manhattan distance 2 (SPEC §6). Returns
 * [{u, active}] and the set of haunted cells (i * cols + j).
 */
function witches(g, st) {
  const list = st.units.filter((u) => u.type === 'w' && onBoard(g, st, u));
  const out = list.map((u) => ({
    u,
    active: !list.some((v) => v !== u && Math.abs(v.i - u.i) + Math.abs(v.j - u.j) <= 2),
  }));
  const haunted = new Set();
  for (const { u, active } of out) {
    if (!active) continue;
    for (const [i, j] of diamond(g, u.i, u.j, 2)) haunted.add(i * g.cols + j);
  }
  return { list: out, haunted };
}

/** The on-board cells within Manhattan distance r of (ci, cj). */
function diamond(g, ci, cj, r) {
  const out = [];
  for (let di = -r; di <= r; di++) {
    for (let dj = -r + Math.abs(di); dj <= r - Math.abs(di); dj++) {
      const i = ci + di;
      const j = cj + dj;
      if (i >= 0 && j >= 0 && i < g.rows && j < g.cols) out.push([i, j]);
    }
  }
  return out;
}

function cellColor(c) {
  if (c === 'X') return COLOR.wall;
  if (c === '.') return COLOR.field;
  return OWNED[(c.charCodeAt(0) - 48) % OWNED.length];
}

/** Shades the haunted cells and outlines each active witch's area in its colour. */
function drawHaunts(ctx, g, st, s, ox, oy) {
  const { list, haunted } = witches(g, st);
  ctx.fillStyle = COLOR.haunt;
  for (const k of haunted) ctx.fillRect(ox + (k % g.cols) * s, oy + Math.floor(k / g.cols) * s, s, s);
  ctx.lineWidth = 1.5;
  ctx.setLineDash([3, 2]);
  for (const { u, active } of list) {
    if (!active) continue;
    const area = new Set(diamond(g, u.i, u.j, 2).map(([i, j]) => i * g.cols + j));
    ctx.strokeStyle = playerColor(u.player);
    ctx.beginPath();
    for (const k of area) {
      const i = Math.floor(k / g.cols);
      const j = k % g.cols;
      const x = ox + j * s + 0.75;
      const y = oy + i * s + 0.75;
      const e = s - 1.5;
      if (!area.has(k - g.cols) || i === 0) { ctx.moveTo(x, y); ctx.lineTo(x + e, y); }
      if (!area.has(k + g.cols) || i === g.rows - 1) { ctx.moveTo(x, y + e); ctx.lineTo(x + e, y + e); }
      if (j === 0 || !area.has(k - 1)) { ctx.moveTo(x, y); ctx.lineTo(x, y + e); }
      if (j === g.cols - 1 || !area.has(k + 1)) { ctx.moveTo(x + e, y); ctx.lineTo(x + e, y + e); }
    }
    ctx.stroke();
  }
  ctx.setLineDash([]);
  return list;
}

/** Draws one unit of type t for player p centred in the cell at (x, y). */
function drawUnit(ctx, t, p, x, y, s, faint = false) {
  const r = t === 'f' ? s * 0.34 : t === 'k' ? s * 0.44 : s * 0.52;
  ctx.save();
  if (faint) ctx.globalAlpha = 0.5;
  drawShape(ctx, SHAPE[t], x + s / 2, y + s / 2, r, p >= 0 ? playerColor(p) : NEUTRAL, INK, s >= 12 ? 1.5 : 1);
  ctx.restore();
}

function maxHealth(g, t) {
  return t === 'f' ? g.settings.farmers_health : g.settings.knights_health;
}

function drawBoard(ctx, g, a, b, f, board, s, ox, oy) {
  const st = f >= 0.5 && b ? b : a;
  fillGrid(ctx, st.grid, s, ox, oy, cellColor);
  drawGridLines(ctx, g, s, ox, oy);
  const witchList = drawHaunts(ctx, g, st, s, ox, oy);
  const inactive = new Set(witchList.filter((w) => !w.active).map((w) => w.u.id));
  const order = { f: 0, k: 1, w: 2 };
  const drawn = [];
  for (let id = 0; id < a.units.length; id++) {
    const at = slide(a.units[id], b ? b.units[id] : null, f, (u) => onBoard(g, a, u));
    if (at) drawn.push(at);
  }
  drawn.sort((x, y) => order[x.u.type] - order[y.u.type]);
  for (const { u, i, j } of drawn) {
    const x = ox + j * s;
    const y = oy + i * s;
    drawUnit(ctx, u.type, u.player, x, y, s, inactive.has(u.id));
    if (u.type !== 'w') drawHealthBar(ctx, x, y, s, u.health / maxHealth(g, u.type));
  }
}

function scoreDetail(g, r, p) {
  const st = g.rounds[r];
  let nf = 0;
  let nk = 0;
  for (const u of st.units) {
    if (u.player !== p) continue;
    if (u.type === 'f') nf++;
    else if (u.type === 'k') nk++;
  }
  return `land ${st.land[p]} · ${nf} farmers · ${nk} knights`;
}

function unitIcon(t, faint = false) {
  return iconCanvas((ctx, size) => {
    ctx.fillStyle = COLOR.field;
    ctx.fillRect(0, 0, size, size);
    drawUnit(ctx, t, -1, 0, 0, size, faint);
  });
}

function legend() {
  const haunt = iconCanvas((ctx, size) => {
    ctx.fillStyle = COLOR.field;
    ctx.fillRect(0, 0, size, size);
    ctx.fillStyle = COLOR.haunt;
    ctx.fillRect(0, 0, size, size);
    ctx.strokeStyle = NEUTRAL;
    ctx.setLineDash([3, 2]);
    ctx.strokeRect(1, 1, size - 2, size - 2);
  });
  const hurt = iconCanvas((ctx, size) => {
    ctx.fillStyle = COLOR.field;
    ctx.fillRect(0, 0, size, size);
    drawHealthBar(ctx, 0, 0, size, 0.6);
  });
  return {
    groups: [
      [
        [cellIcon(COLOR.wall), 'Wall'],
        [cellIcon(COLOR.field), 'Free cell'],
        ['owned', 'Land (painted cell)'],
        [haunt, 'Haunted: farmers and knights die'],
      ],
      [
        [unitIcon('f'), 'Farmer'],
        [unitIcon('k'), 'Knight'],
        [unitIcon('w'), 'Witch (active)'],
        [unitIcon('w', true), 'Witch, inactive'],
        [hurt, 'Health, when hurt'],
      ],
    ],
    note: 'Units and the outline of a witch\'s area take their owner\'s colour:',
  };
}

function settings(g) {
  const s = g.settings;
  const pairs = [
    ['Seed', g.seed],
    ['Rounds', s.nb_rounds],
    ['Farmers', `${s.nb_farmers} / player`],
    ['Knights', `${s.nb_knights} / player`],
    ['Witches', `${s.nb_witches} / player`],
    ['Health', `F ${s.farmers_health} · K ${s.knights_health}`],
    ['Regen', `F ${s.farmers_regen} · K ${s.knights_regen}`],
    ['Damage', `${s.damage_min}–${s.damage_max}`],
    ['Board', `${s.rows} × ${s.cols}`],
  ];
  if (g.version !== '4.0') pairs.push(['Version', g.version]);
  return pairs;
}

function describeCell(g, r, i, j) {
  const st = g.rounds[r];
  const c = st.grid[i][j];
  const { list, haunted } = witches(g, st);
  let what;
  if (c === 'X') what = 'Wall';
  else if (c === '.') what = 'Free cell';
  else what = `Land of P${c} ${g.names[Number(c)] ?? ''}`;
  if (haunted.has(i * g.cols + j)) what += ', haunted';
  const units = [];
  for (const u of st.units) {
    if (u.i !== i || u.j !== j || !onBoard(g, st, u)) continue;
    const owner = `P${u.player} ${g.names[u.player] ?? ''}`;
    let more;
    if (u.type === 'w') more = list.some((w) => w.u === u && w.active) ? 'active' : 'inactive (another witch within 2)';
    else more = `health ${u.health}/${maxHealth(g, u.type)}`;
    units.push({ group: u.player, text: `${TYPE_NAME[u.type]} #${u.id} · ${owner} · ${more}` });
  }
  return { pos: `(${i}, ${j})`, what, units };
}

/** The Dominator module (see games/index.js for the interface). */
export default {
  name: 'Dominator',
  version: '4.0',
  movesWord: 'movements',
  dirs: 'bwrxytlzn',
  readHeader,
  readState,
  score: (g, st) => st.total,
  scoreRule: () => 'land added up every round',
  boards: () => [{ tag: 'Board', title: 'Fields' }],
  boardHint: (g, r) => `${g.rows} × ${g.cols} · ${g.rounds[r].land.reduce((x, y) => x + y, 0)} cells painted`,
  drawBoard,
  legend,
  settings,
  scoreDetail,
  describeCell,
};
