// Crematoria (EDA course, version 1.2): trace reader and panel texts.
// The two board levels are drawn by crematoria-draw.js. Trace format:
// crematoria/SPEC.md §10.

import { checkSizes, short } from '../parse.js';
import { drawBoard, isDay, legendIcon, unitVisible } from './crematoria-draw.js';

const SETTING_KEYS = [
  'nb_players', 'nb_rounds', 'nb_furyans', 'nb_pioneers', 'max_nb_necromongers',
  'nb_hellhounds', 'nb_elevators', 'gem_value', 'turns_to_land', 'rows', 'cols',
];
const UNIT_TYPES = 'pfnh';
const LEVEL0_CHARS = /^[RCE0-9]+$/;
const LEVEL1_CHARS = /^[OGE]+$/;
const TYPE_NAME = { p: 'Pioneer', f: 'Furyan', n: 'Necromonger', h: 'Hellhound' };
const MAX_HEALTH = { p: 50, f: 100, n: 75 };

/** Reads the settings and names. */
function readHeader(rd, g) {
  const s = rd.settings(SETTING_KEYS);
  g.settings = s;
  g.nbPlayers = s.nb_players;
  g.nbRounds = s.nb_rounds;
  g.rows = s.rows;
  g.cols = s.cols;
  checkSizes(rd, g);
  for (const k of ['nb_furyans', 'nb_pioneers', 'max_nb_necromongers', 'nb_hellhounds']) {
    if (s[k] < 0 || s[k] > 100000) throw rd.error(`bad ${k} ${s[k]}`);
  }
  g.names = rd.names(s.nb_players);
  g.nbUnits = s.nb_players * (s.nb_furyans + s.nb_pioneers) + s.max_nb_necromongers + s.nb_hellhounds;
}

/** Reads the state block of round r. */
function readState(rd, g, r) {
  const grid0 = [];
  for (let i = 0; i < g.rows; i++) grid0.push(rd.gridRow(g, LEVEL0_CHARS, `row ${i} of level 0`));
  const grid1 = [];
  for (let i = 0; i < g.rows; i++) grid1.push(rd.gridRow(g, LEVEL1_CHARS, `row ${i} of level 1`));
  rd.round(r);
  const cells = rd.perPlayer(g, 'nb_cells');
  const gems = rd.perPlayer(g, 'nb_gems');
  const status = rd.perPlayer(g, 'status', (w) => rd.float(w));
  const units = [];
  for (let id = 0; id < g.nbUnits; id++) {
    const type = rd.next(`type of unit ${id}`);
    if (type.length !== 1 || !UNIT_TYPES.includes(type)) {
      rd.pos--;
      throw rd.error(`unit ${id}: unknown unit type "${short(type)}" (expected p, f, n or h)`);
    }
    const u = { id, type };
    u.group = rd.int(`group of unit ${id}`);
    u.health = rd.int(`health of unit ${id}`);
    u.turns = rd.int(`turns of unit ${id}`);
    u.i = rd.int(`row of unit ${id}`);
    u.j = rd.int(`column of unit ${id}`);
    u.k = rd.int(`level of unit ${id}`);
    units.push(u);
  }
  return { round: r, grid0, grid1, cells, gems, status, units };
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** One line of the scoreboard: cells, gems, Pioneers and Furyans owned. */
function scoreDetail(g, r, p) {
  const st = g.rounds[r];
  let np = 0;
  let nf = 0;
  for (const u of st.units) {
    if (u.group !== p) continue;
    if (u.type === 'p') np++;
    else if (u.type === 'f') nf++;
  }
  return `${plural(st.cells[p], 'cell')} · ${plural(st.gems[p], 'gem')} · ${np} P / ${nf} F`;
}

/** Caption hint of the surface: the daylight columns of round r. */
function boardHint(g, r, level) {
  if (level === 0) return 'caves, rock, elevators';
  const days = [];
  for (let j = 0; j < g.cols; j++) if (isDay(r, j, g.cols)) days.push(j);
  const ranges = [];
  for (let k = 0; k < days.length; k++) {
    if (k === 0 || days[k] !== days[k - 1] + 1) ranges.push([days[k], days[k]]);
    else ranges[ranges.length - 1][1] = days[k];
  }
  return `☀ daylight in columns ${ranges.map(([x, y]) => (x === y ? `${x}` : `${x}–${y}`)).join(', ')}`;
}

function legend(g) {
  return {
    groups: [
      [
        [legendIcon('rock'), 'Rock'],
        [legendIcon('cave'), 'Cave (free)'],
        ['owned', 'Owned cave'],
        [legendIcon('elevator'), 'Elevator'],
        [legendIcon('night'), 'Surface, night'],
        [legendIcon('day'), 'Surface, daylight'],
        [legendIcon('dawn'), 'Sunrise next round'],
        [legendIcon('gem'), 'Gem'],
      ],
      [
        [legendIcon('pioneer'), 'Pioneer'],
        [legendIcon('furyan'), 'Furyan'],
        [legendIcon('necro'), 'Necromonger'],
        [legendIcon('descending'), 'Necromonger landing'],
        [legendIcon('hound'), 'Hellhound + kill zone'],
      ],
    ],
    note: 'Pioneers and Furyans take their owner\'s colour:',
  };
}

function settings(g) {
  const s = g.settings;
  const pairs = [
    ['Seed', g.seed],
    ['Rounds', s.nb_rounds],
    ['Pioneers', `${s.nb_pioneers} / player`],
    ['Furyans', `${s.nb_furyans} / player`],
    ['Necromongers', `max ${s.max_nb_necromongers}`],
    ['Landing', `${s.turns_to_land} rounds`],
    ['Hellhounds', s.nb_hellhounds],
    ['Elevators', s.nb_elevators],
    ['Gem value', s.gem_value],
    ['Board', `${s.rows} × ${s.cols}`],
  ];
  if (g.version !== '1.2') pairs.push(['Version', g.version]);
  return pairs;
}

/** Describes the cell (i, j) of a level at round r for the tooltip. */
function describeCell(g, r, i, j, level) {
  const st = g.rounds[r];
  const c = (level === 0 ? st.grid0 : st.grid1)[i][j];
  let what;
  if (c === 'R') what = 'Rock';
  else if (c === 'C') what = 'Cave';
  else if (c === 'E') what = 'Elevator';
  else if (c === 'O' || c === 'G') {
    const t1 = (2 * r) % g.cols;
    const dawn = j === t1 || j === (t1 + 1) % g.cols;
    const light = isDay(r, j, g.cols) ? 'daylight' : dawn ? 'night, sunrise next round' : 'night';
    what = `Surface, ${light}${c === 'G' ? ', gem' : ''}`;
  } else {
    const p = Number(c);
    what = `Cave owned by P${p} ${g.names[p] ?? ''}`;
  }
  const units = [];
  for (const u of st.units) {
    if (!unitVisible(u) || u.i !== i || u.j !== j || u.k !== level) continue;
    const owner = u.group >= 0 ? `P${u.group} ${g.names[u.group] ?? ''}` : 'environment';
    const hp = u.type === 'h' ? 'immortal' : `health ${u.health}/${MAX_HEALTH[u.type]}`;
    const landing = u.type === 'n' && u.turns > 0 ? ` · lands in ${u.turns}` : '';
    units.push({ group: u.group, text: `${TYPE_NAME[u.type]} #${u.id} · ${owner} · ${hp}${landing}` });
  }
  return { pos: `(${i}, ${j}, ${level})`, what, units };
}

/** The Crematoria module (see games/index.js for the interface). */
export default {
  name: 'Crematoria',
  version: '1.2',
  movesWord: 'movements',
  dirs: 'bwrxytlzudn',
  readHeader,
  readState,
  score: (g, st) => st.cells.map((c, p) => c + g.settings.gem_value * st.gems[p]),
  scoreRule: (g) => `cells + ${g.settings.gem_value} × gems`,
  boards: () => [
    { tag: 'Level 0', title: 'Underground' },
    { tag: 'Level 1', title: 'Surface' },
  ],
  boardHint,
  drawBoard,
  legend,
  settings,
  scoreDetail,
  describeCell,
};
