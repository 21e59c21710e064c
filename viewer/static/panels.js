// Side panels of the viewer: scoreboard, legend, game settings and the cell
// tooltip, filled with what the game module says. Everything is built with DOM
// calls (never innerHTML) because player names come from the trace.

import { ownedIcons, playerColor } from './draw.js';

/** el creates an element with a class and children (strings or nodes). */
function el(tag, cls, ...children) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  e.append(...children);
  return e;
}

function swatch(color) {
  const s = el('span', 'swatch');
  s.style.background = color;
  return s;
}

/**
 * Renders the scoreboard for round r. The best player is the "leader", and
 * the "winner" on the last round of a complete game only: a game that was
 * cut short has no winner.
 */
export function renderScores(root, g, r) {
  const st = g.rounds[r];
  const scores = g.scores[r];
  const best = Math.max(...scores);
  const rank = scores.map((s) => 1 + scores.filter((o) => o > s).length);
  const final = r === g.lastRound && g.complete;
  const rows = [];
  for (let p = 0; p < g.nbPlayers; p++) {
    const lead = scores[p] === best && best > 0;
    const name = el('div', 'score-name', swatch(playerColor(p)),
      el('span', 'pid', `P${p}`), el('span', 'pname', g.names[p]));
    if (lead) name.append(el('span', 'badge', final ? 'winner' : 'leader'));
    const detail = el('div', 'score-detail', g.game.scoreDetail(g, r, p));
    if (g.kind === 'SecGame' && st.status) detail.append(` · cpu ${st.status[p]}`);
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

/** Renders the legend: the game's groups of icons, then the player colours. */
export function renderLegend(root, g) {
  const { groups, note } = g.game.legend(g);
  const item = (icon, label) => el('div', 'legend-item', icon === 'owned' ? ownedIcons(g.nbPlayers) : icon, el('span', '', label));
  const players = el('div', 'legend-players');
  for (let p = 0; p < g.nbPlayers; p++) {
    players.append(el('span', 'legend-player', swatch(playerColor(p)), `P${p} ${g.names[p]}`));
  }
  root.replaceChildren(
    ...groups.map((items) => el('div', 'legend-group', ...items.map(([icon, label]) => item(icon, label)))),
    el('p', 'legend-note', note),
    players);
}

/** Renders the settings block of the trace. */
export function renderSettings(root, g) {
  const pairs = g.game.settings(g);
  root.replaceChildren(...pairs.flatMap(([k, v]) => [el('dt', '', k), el('dd', '', String(v))]));
}

/** Describes the cell (i, j) of a board at round r for the tooltip. */
export function describeCell(g, r, i, j, board) {
  const { pos, what, units } = g.game.describeCell(g, r, i, j, board);
  const out = [el('div', 'tip-pos', pos), el('div', 'tip-cell', what)];
  for (const u of units) out.push(el('div', 'tip-unit', swatch(playerColor(u.group)), u.text));
  return out;
}
