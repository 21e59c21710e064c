// Side panels of the viewer: scoreboard, legend, game settings and the cell
// tooltip. Everything is built with DOM calls (never innerHTML) because player
// names come from the trace.

import { legendIcon, playerColor, OWNED, unitVisible } from './draw.js';
import { isDay } from './parse.js';

const TYPE_NAME = { p: 'Pioneer', f: 'Furyan', n: 'Necromonger', h: 'Hellhound' };
const MAX_HEALTH = { p: 50, f: 100, n: 75 };

/** el creates an element with a class and children (strings or nodes). */
function el(tag, cls, ...children) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  e.append(...children);
  return e;
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function swatch(color) {
  const s = el('span', 'swatch');
  s.style.background = color;
  return s;
}

/** Counts the Pioneers and Furyans each player owns in state st. */
function unitCounts(g, st) {
  const counts = Array.from({ length: g.nbPlayers }, () => ({ p: 0, f: 0 }));
  for (const u of st.units) {
    if ((u.type === 'p' || u.type === 'f') && u.group >= 0 && u.group < g.nbPlayers) counts[u.group][u.type]++;
  }
  return counts;
}

/** Renders the scoreboard for round r. */
export function renderScores(root, g, r) {
  const st = g.rounds[r];
  const scores = g.scores[r];
  const best = Math.max(...scores);
  const counts = unitCounts(g, st);
  const rank = scores.map((s) => 1 + scores.filter((o) => o > s).length);
  const rows = [];
  for (let p = 0; p < g.nbPlayers; p++) {
    const lead = scores[p] === best && best > 0;
    const name = el('div', 'score-name', swatch(playerColor(p)),
      el('span', 'pid', `P${p}`), el('span', 'pname', g.names[p]));
    if (lead) name.append(el('span', 'badge', r === g.lastRound ? 'winner' : 'leader'));
    const detail = el('div', 'score-detail',
      `${plural(st.cells[p], 'cell')} · ${plural(st.gems[p], 'gem')} · ${counts[p].p} P / ${counts[p].f} F`);
    if (g.kind === 'SecGame') detail.append(` · cpu ${st.status[p]}`);
    const bar = el('div', 'score-bar');
    const fill = el('div', 'score-fill');
    fill.style.width = `${best > 0 ? (100 * scores[p]) / best : 0}%`;
    fill.style.background = playerColor(p);
    bar.append(fill);
    const row = el('div', `score-row${lead ? ' lead' : ''}`,
      el('div', 'score-rank', `#${rank[p]}`),
      el('div', 'score-main', name, detail, bar),
      el('div', 'score-value', String(scores[p])));
    rows.push(row);
  }
  root.replaceChildren(...rows);
}

/** Renders the legend (terrain, owners, unit shapes) with canvas icons. */
export function renderLegend(root, g) {
  const item = (icon, label) => el('div', 'legend-item', icon, el('span', '', label));
  const owned = el('span', 'legend-owned');
  for (let p = 0; p < Math.min(g.nbPlayers, OWNED.length); p++) owned.append(legendIcon(`owned${p}`));
  const players = el('div', 'legend-players');
  for (let p = 0; p < g.nbPlayers; p++) {
    players.append(el('span', 'legend-player', swatch(playerColor(p)), `P${p} ${g.names[p]}`));
  }
  root.replaceChildren(
    el('div', 'legend-group',
      item(legendIcon('rock'), 'Rock'),
      item(legendIcon('cave'), 'Cave (free)'),
      item(owned, 'Owned cave'),
      item(legendIcon('elevator'), 'Elevator'),
      item(legendIcon('night'), 'Surface, night'),
      item(legendIcon('day'), 'Surface, daylight'),
      item(legendIcon('dawn'), 'Sunrise next round'),
      item(legendIcon('gem'), 'Gem')),
    el('div', 'legend-group',
      item(legendIcon('pioneer'), 'Pioneer'),
      item(legendIcon('furyan'), 'Furyan'),
      item(legendIcon('necro'), 'Necromonger'),
      item(legendIcon('descending'), 'Necromonger landing'),
      item(legendIcon('hound'), 'Hellhound + kill zone')),
    el('p', 'legend-note', 'Pioneers and Furyans take their owner\'s colour:'),
    players);
}

/** Renders the settings block of the trace. */
export function renderSettings(root, g) {
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
  root.replaceChildren(...pairs.flatMap(([k, v]) => [el('dt', '', k), el('dd', '', String(v))]));
}

/** Describes the cell (i, j) of a level at round r for the tooltip. */
export function describeCell(g, r, i, j, level) {
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
  const out = [el('div', 'tip-pos', `(${i}, ${j}, ${level})`), el('div', 'tip-cell', what)];
  for (const u of st.units) {
    if (!unitVisible(u) || u.i !== i || u.j !== j || u.k !== level) continue;
    const owner = u.group >= 0 ? `P${u.group} ${g.names[u.group] ?? ''}` : 'environment';
    const hp = u.type === 'h' ? 'immortal' : `health ${u.health}/${MAX_HEALTH[u.type]}`;
    const landing = u.type === 'n' && u.turns > 0 ? ` · lands in ${u.turns}` : '';
    const line = el('div', 'tip-unit', swatch(playerColor(u.group)),
      `${TYPE_NAME[u.type]} #${u.id} · ${owner} · ${hp}${landing}`);
    out.push(line);
  }
  return out;
}
