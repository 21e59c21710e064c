// Moria (EDA course, version 1.1): trace reader, board drawing and panel
// texts. Trace format: moria/SPEC.md §10; rules: docs/rules/moria.md.
//
// One 60 x 60 board without wrap-around: the outside ring, caves (free, owned
// by a clan, or holding a treasure), rock being dug, granite and abysses.
// Dwarves (circles) and wizards (stars) take their clan's colour; Sauron's
// orcs, trolls and the Balrog (with the ring of cells it kills) are grey and
// black.

import { checkSizes, short } from '../parse.js';
import {
  OWNED, INK, NEUTRAL, playerColor, drawGridLines, drawShape, drawHealthBar, slide,
  iconCanvas, cellIcon,
} from '../draw.js';

const SETTING_KEYS = [
  'nb_players', 'nb_rounds', 'nb_dwarves', 'nb_wizards', 'max_nb_orcs', 'nb_trolls',
  'treasure_value', 'rock_resistance', 'rows', 'cols',
];
const GRID_CHARS = /^[OCTAGR0-9a-z]+$/;
const UNIT_TYPES = 'dwotb';
const TYPE_NAME = { d: 'Dwarf', w: 'Wizard', o: 'Orc', t: 'Troll', b: 'Balrog' };
const MAX_HEALTH = { d: 100, w: 50, o: 75, t: 500 };

/** Terrain colours (the Go test checks outside, cave, granite, rock, abyss and OWNED). */
const COLOR = {
  outside: '#1c2333',
  cave: '#dacdb3',
  rock: '#36302b',
  dug: [138, 117, 96], // rock with one hit left
  granite: '#75787e',
  abyss: '#0a0a0f',
  abyssEdge: 'rgba(200, 50, 30, 0.75)',
  gold: '#ffd43b',
  goldEdge: '#8f6b00',
  orc: '#eef0f2',
  troll: '#adb5bd',
  balrog: '#17110f',
  fire: '#ff7a1a',
  danger: 'rgba(255, 90, 40, 0.22)',
};

function readHeader(rd, g) {
  const s = rd.settings(SETTING_KEYS);
  g.settings = s;
  g.nbPlayers = s.nb_players;
  g.nbRounds = s.nb_rounds;
  g.rows = s.rows;
  g.cols = s.cols;
  checkSizes(rd, g);
  for (const k of ['nb_dwarves', 'nb_wizards', 'max_nb_orcs', 'nb_trolls']) {
    if (s[k] < 0 || s[k] > 100000) throw rd.error(`bad ${k} ${s[k]}`);
  }
  g.names = rd.names(s.nb_players);
  g.nbUnits = s.nb_players * (s.nb_dwarves + s.nb_wizards) + s.max_nb_orcs + s.nb_trolls + 1;
}

function readState(rd, g, r) {
  const grid = rd.grid(g, GRID_CHARS);
  rd.round(r);
  const cells = rd.perPlayer(g, 'nb_cells');
  const treasures = rd.perPlayer(g, 'nb_treasures');
  const status = rd.perPlayer(g, 'status', (w) => rd.float(w));
  const units = [];
  for (let id = 0; id < g.nbUnits; id++) {
    const type = rd.next(`type of unit ${id}`);
    if (type.length !== 1 || !UNIT_TYPES.includes(type)) {
      rd.pos--;
      throw rd.error(`unit ${id}: unknown unit type "${short(type)}" (expected d, w, o, t or b)`);
    }
    const player = rd.int(`player of unit ${id}`);
    const i = rd.int(`row of unit ${id}`);
    const j = rd.int(`column of unit ${id}`);
    const health = rd.int(`health of unit ${id}`);
    units.push({ id, type, player, i, j, health });
  }
  return { round: r, grid, cells, treasures, status, units };
}

/** Whether unit u is on the board (dead orcs are at (-1, -1) with no health). */
function shown(g, u) {
  return u.i >= 0 && u.j >= 0 && u.i < g.rows && u.j < g.cols && (u.health > 0 || u.type === 'b');
}

/** Colour of rock with k hits left out of rr (darker when intact). */
function rockColor(k, rr) {
  if (rr <= 1) return COLOR.rock;
  const t = Math.max(0, Math.min(1, (rr - k) / (rr - 1))); // 0 intact .. 1 one hit left
  const base = [0x36, 0x30, 0x2b];
  const c = base.map((v, n) => Math.round(v + (COLOR.dug[n] - v) * t));
  return `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
}

const COLORS = new Map();

/** Colour of cell character c (cached per rock resistance). */
function cellColor(g, c) {
  const key = `${g.settings.rock_resistance}${c}`;
  let color = COLORS.get(key);
  if (!color) {
    color = readColor(g, c);
    COLORS.set(key, color);
  }
  return color;
}

function readColor(g, c) {
  switch (c) {
    case 'O': return COLOR.outside;
    case 'C': case 'T': return COLOR.cave;
    case 'A': return COLOR.abyss;
    case 'G': return COLOR.granite;
    case 'R': return COLOR.rock;
    default:
      if (c >= '0' && c <= '9') return OWNED[(c.charCodeAt(0) - 48) % OWNED.length];
      return rockColor(c.charCodeAt(0) - 96, g.settings.rock_resistance);
  }
}

function drawTreasure(ctx, x, y, s) {
  drawShape(ctx, 'circle', x + s / 2, y + s / 2, Math.max(1.5, s * 0.28), COLOR.gold, COLOR.goldEdge);
}

function drawTerrain(ctx, g, st, s, ox, oy) {
  for (let i = 0; i < g.rows; i++) {
    const row = st.grid[i];
    for (let j = 0; j < g.cols; j++) {
      ctx.fillStyle = cellColor(g, row[j]);
      ctx.fillRect(ox + j * s, oy + i * s, s, s);
    }
  }
  drawGridLines(ctx, g, s, ox, oy, 'rgba(0, 0, 0, 0.06)');
  for (let i = 0; i < g.rows; i++) {
    const row = st.grid[i];
    for (let j = 0; j < g.cols; j++) {
      const x = ox + j * s;
      const y = oy + i * s;
      if (row[j] === 'T') drawTreasure(ctx, x, y, s);
      else if (row[j] === 'A' && s >= 8) {
        ctx.strokeStyle = COLOR.abyssEdge;
        ctx.lineWidth = 1;
        ctx.strokeRect(x + 1.5, y + 1.5, s - 3, s - 3);
      }
    }
  }
}

/** Draws a unit of type t (player p for dwarves and wizards) in the cell at (x, y). */
function drawUnit(ctx, t, p, x, y, s) {
  const cx = x + s / 2;
  const cy = y + s / 2;
  const width = s >= 12 ? 1.5 : 1;
  switch (t) {
    case 'd': drawShape(ctx, 'circle', cx, cy, s * 0.36, p >= 0 ? playerColor(p) : NEUTRAL, INK, width); break;
    case 'w': drawShape(ctx, 'star', cx, cy, s * 0.52, p >= 0 ? playerColor(p) : NEUTRAL, INK, width); break;
    case 'o': {
      drawShape(ctx, 'square', cx, cy, s * 0.3, COLOR.orc, INK, width);
      const r = s * 0.16;
      ctx.beginPath();
      ctx.moveTo(cx - r, cy - r);
      ctx.lineTo(cx + r, cy + r);
      ctx.moveTo(cx + r, cy - r);
      ctx.lineTo(cx - r, cy + r);
      ctx.stroke();
      break;
    }
    case 't': drawShape(ctx, 'hexagon', cx, cy, s * 0.5, COLOR.troll, INK, width); break;
    default: {
      drawShape(ctx, 'diamond', cx, cy, s * 0.6, COLOR.balrog, COLOR.fire, width);
      ctx.fillStyle = COLOR.fire;
      const e = Math.max(1, s * 0.1);
      ctx.fillRect(cx - s * 0.2, cy - e, e * 1.6, e * 1.6);
      ctx.fillRect(cx + s * 0.2 - e * 1.6, cy - e, e * 1.6, e * 1.6);
    }
  }
}

/** Shades the 3 x 3 square around the Balrog: it kills every unit there. */
function drawKillZone(ctx, i, j, s, ox, oy) {
  const x = ox + (j - 1) * s;
  const y = oy + (i - 1) * s;
  ctx.fillStyle = COLOR.danger;
  ctx.fillRect(x, y, 3 * s, 3 * s);
  ctx.strokeStyle = COLOR.fire;
  ctx.lineWidth = 1;
  ctx.setLineDash([3, 2]);
  ctx.strokeRect(x + 0.5, y + 0.5, 3 * s - 1, 3 * s - 1);
  ctx.setLineDash([]);
}

function drawBoard(ctx, g, a, b, f, board, s, ox, oy) {
  drawTerrain(ctx, g, f >= 0.5 && b ? b : a, s, ox, oy);
  const drawn = [];
  for (let id = 0; id < a.units.length; id++) {
    const at = slide(a.units[id], b ? b.units[id] : null, f, (u) => shown(g, u));
    if (at) drawn.push(at);
  }
  ctx.save();
  ctx.beginPath();
  ctx.rect(ox, oy, g.cols * s, g.rows * s);
  ctx.clip();
  for (const { u, i, j } of drawn) if (u.type === 'b') drawKillZone(ctx, i, j, s, ox, oy);
  ctx.restore();
  const order = { o: 0, t: 1, d: 2, w: 3, b: 4 };
  drawn.sort((x, y) => order[x.u.type] - order[y.u.type]);
  for (const { u, i, j } of drawn) {
    const x = ox + j * s;
    const y = oy + i * s;
    drawUnit(ctx, u.type, u.player, x, y, s);
    if (u.type !== 'b') drawHealthBar(ctx, x, y, s, u.health / MAX_HEALTH[u.type]);
  }
}

function scoreDetail(g, r, p) {
  const st = g.rounds[r];
  let nd = 0;
  let nw = 0;
  for (const u of st.units) {
    if (u.player !== p) continue;
    if (u.type === 'd') nd++;
    else if (u.type === 'w') nw++;
  }
  const t = st.treasures[p];
  return `${st.cells[p]} cells · ${t} treasure${t === 1 ? '' : 's'} · ${nd} D / ${nw} W`;
}

function legend(g) {
  const onCave = (paint) => iconCanvas((ctx, size) => {
    ctx.fillStyle = COLOR.cave;
    ctx.fillRect(0, 0, size, size);
    paint(ctx, size);
  });
  const abyss = iconCanvas((ctx, size) => {
    ctx.fillStyle = COLOR.abyss;
    ctx.fillRect(0, 0, size, size);
    ctx.strokeStyle = COLOR.abyssEdge;
    ctx.strokeRect(1.5, 1.5, size - 3, size - 3);
  });
  const balrog = onCave((ctx, size) => {
    ctx.fillStyle = COLOR.danger;
    ctx.fillRect(0, 0, size, size);
    drawUnit(ctx, 'b', -1, size * 0.1, size * 0.1, size * 0.8);
  });
  const rr = g.settings.rock_resistance;
  return {
    groups: [
      [
        [cellIcon(COLOR.outside), 'Outside (rebirth ring)'],
        [cellIcon(COLOR.cave), 'Cave (free)'],
        ['owned', 'Cave owned by a clan'],
        [onCave((ctx, size) => drawTreasure(ctx, 0, 0, size)), 'Treasure'],
        [cellIcon(COLOR.rock), `Rock (${rr} hits to dig)`],
        [cellIcon(rockColor(1, rr)), 'Rock, nearly dug'],
        [cellIcon(COLOR.granite), 'Granite'],
        [abyss, 'Abyss'],
      ],
      [
        [onCave((ctx, size) => drawUnit(ctx, 'd', -1, 0, 0, size)), 'Dwarf'],
        [onCave((ctx, size) => drawUnit(ctx, 'w', -1, 0, 0, size)), 'Wizard'],
        [onCave((ctx, size) => drawUnit(ctx, 'o', -1, 0, 0, size)), 'Orc'],
        [onCave((ctx, size) => drawUnit(ctx, 't', -1, 0, 0, size)), 'Troll'],
        [balrog, 'Balrog + kill zone'],
        [onCave((ctx, size) => drawHealthBar(ctx, 0, 0, size, 0.6)), 'Health, when hurt'],
      ],
    ],
    note: 'Dwarves and wizards take their clan\'s colour:',
  };
}

function settings(g) {
  const s = g.settings;
  const pairs = [
    ['Seed', g.seed],
    ['Rounds', s.nb_rounds],
    ['Dwarves', `${s.nb_dwarves} / clan`],
    ['Wizards', `${s.nb_wizards} / clan`],
    ['Orcs', `max ${s.max_nb_orcs}`],
    ['Trolls', s.nb_trolls],
    ['Treasure', `${s.treasure_value} points`],
    ['Rock', `${s.rock_resistance} hits`],
    ['Board', `${s.rows} × ${s.cols}`],
  ];
  if (g.version !== '1.1') pairs.push(['Version', g.version]);
  return pairs;
}

function describeCell(g, r, i, j) {
  const st = g.rounds[r];
  const c = st.grid[i][j];
  const rr = g.settings.rock_resistance;
  let what;
  switch (c) {
    case 'O': what = 'Outside'; break;
    case 'C': what = 'Cave'; break;
    case 'T': what = 'Cave with a treasure'; break;
    case 'A': what = 'Abyss'; break;
    case 'G': what = 'Granite'; break;
    case 'R': what = `Rock, ${rr} hits left`; break;
    default:
      if (c >= '0' && c <= '9') what = `Cave owned by P${c} ${g.names[Number(c)] ?? ''}`;
      else what = `Rock, ${c.charCodeAt(0) - 96} of ${rr} hits left`;
  }
  const units = [];
  for (const u of st.units) {
    if (u.i !== i || u.j !== j || !shown(g, u)) continue;
    const owner = u.player >= 0 ? `P${u.player} ${g.names[u.player] ?? ''}` : 'Sauron';
    const hp = u.type === 'b' ? 'immortal' : `health ${u.health}/${MAX_HEALTH[u.type]}`;
    units.push({ group: u.player, text: `${TYPE_NAME[u.type]} #${u.id} · ${owner} · ${hp}` });
  }
  return { pos: `(${i}, ${j})`, what, units };
}

function boardHint(g, r) {
  const st = g.rounds[r];
  const orcs = st.units.filter((u) => u.type === 'o' && shown(g, u)).length;
  const balrog = st.units.find((u) => u.type === 'b');
  const where = balrog && shown(g, balrog) ? ` · Balrog at (${balrog.i}, ${balrog.j})` : '';
  return `${orcs} orc${orcs === 1 ? '' : 's'} alive${where}`;
}

/** The Moria module (see games/index.js for the interface). */
export default {
  name: 'Moria',
  version: '1.1',
  movesWord: 'movements',
  dirs: 'bwrxytlzn',
  readHeader,
  readState,
  score: (g, st) => st.cells.map((c, p) => c + g.settings.treasure_value * st.treasures[p]),
  scoreRule: (g) => `cells + ${g.settings.treasure_value} × treasures`,
  boards: () => [{ tag: 'Board', title: 'Moria' }],
  boardHint,
  drawBoard,
  legend,
  settings,
  scoreDetail,
  describeCell,
};
