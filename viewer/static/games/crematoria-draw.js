// Canvas drawing of Crematoria's two board levels, its units and legend icons.
//
// The colours are exact hex values: the Go screenshot test looks for some of
// them (COLOR.rock, and OWNED and PLAYER of ../draw.js) in the rendered page,
// so keep viewer_test.go in sync when changing them.

import { OWNED, playerColor } from '../draw.js';

/** Returns true when level-1 column j is in daylight at round r (SPEC §3.3). */
export function isDay(r, j, cols) {
  const half = cols / 2;
  const t1 = (2 * r) % cols;
  if (t1 + half - 1 < cols) return j < t1 || j > t1 + half - 1;
  return t1 + half - 1 - cols < j && j < t1;
}

const COLOR = {
  rock: '#36302b',
  rockEdge: '#2b2622',
  cave: '#dacdb3',
  elevator: '#f59f00',
  elevatorInk: '#4a3000',
  night: '#1f2d45',
  nightGrid: '#27385a',
  day: '#f6d675',
  dawn: '#4b3d4f',
  dawnGrid: '#554659',
  danger: 'rgba(255, 90, 40, 0.22)',
  dangerEdge: '#ff7a1a',
  dayGrid: '#e9c55a',
  gem: '#3de3f0',
  gemEdge: '#0b5e66',
  necro: '#eef0f2',
  hound: '#17110f',
  houndEye: '#ff7a1a',
  ink: '#111418',
  lightEdge: '#f1f3f5',
  neutral: '#9aa4b1',
  label: '#8b95a5',
};

/** Colour of a level-0 cell character. */
function cell0Color(c) {
  switch (c) {
    case 'R': return COLOR.rock;
    case 'C': return COLOR.cave;
    case 'E': return COLOR.elevator;
    default: return OWNED[(c.charCodeAt(0) - 48) % OWNED.length];
  }
}

/** Draws the amber elevator tile with an up/down arrow. */
function drawElevator(ctx, x, y, s) {
  ctx.fillStyle = COLOR.elevator;
  ctx.fillRect(x, y, s, s);
  if (s < 6) return;
  ctx.fillStyle = COLOR.elevatorInk;
  const cx = x + s / 2;
  const h = s * 0.32;
  const w = s * 0.26;
  ctx.beginPath();
  ctx.moveTo(cx, y + s / 2 - h);
  ctx.lineTo(cx + w, y + s / 2 - 1);
  ctx.lineTo(cx - w, y + s / 2 - 1);
  ctx.closePath();
  ctx.moveTo(cx, y + s / 2 + h);
  ctx.lineTo(cx + w, y + s / 2 + 1);
  ctx.lineTo(cx - w, y + s / 2 + 1);
  ctx.closePath();
  ctx.fill();
}

/** Draws a gem (cyan diamond) centred in the cell. */
export function drawGem(ctx, x, y, s) {
  const cx = x + s / 2;
  const cy = y + s / 2;
  const r = Math.max(2, s * 0.44);
  ctx.beginPath();
  ctx.moveTo(cx, cy - r);
  ctx.lineTo(cx + r * 0.8, cy);
  ctx.lineTo(cx, cy + r);
  ctx.lineTo(cx - r * 0.8, cy);
  ctx.closePath();
  ctx.fillStyle = COLOR.gem;
  ctx.fill();
  ctx.lineWidth = 1;
  ctx.strokeStyle = COLOR.gemEdge;
  ctx.stroke();
}

/**
 * Returns the fill and grid colours of surface column j at round r: daylight,
 * night, or dawn for the two night columns that the sun burns at the end of
 * the round (SPEC §3.3 "burning columns").
 */
export function surfaceColor(r, j, cols) {
  if (isDay(r, j, cols)) return [COLOR.day, COLOR.dayGrid];
  const t1 = (2 * r) % cols;
  if (j === t1 || j === (t1 + 1) % cols) return [COLOR.dawn, COLOR.dawnGrid];
  return [COLOR.night, COLOR.nightGrid];
}

/** Draws the terrain of one level for state st into ctx at offset (ox, oy). */
export function drawTerrain(ctx, g, st, level, s, ox, oy) {
  const grid = level === 0 ? st.grid0 : st.grid1;
  for (let i = 0; i < g.rows; i++) {
    const row = grid[i];
    const y = oy + i * s;
    for (let j = 0; j < g.cols; j++) {
      const c = row[j];
      const x = ox + j * s;
      if (c === 'E') {
        drawElevator(ctx, x, y, s);
        continue;
      }
      ctx.fillStyle = level === 0 ? cell0Color(c) : surfaceColor(st.round, j, g.cols)[0];
      ctx.fillRect(x, y, s, s);
    }
  }
  if (level === 1) {
    // Faint grid on the uniform surface so positions stay readable.
    if (s >= 6) {
      for (let j = 0; j < g.cols; j++) {
        ctx.fillStyle = surfaceColor(st.round, j, g.cols)[1];
        for (let i = 0; i < g.rows; i++) {
          if (grid[i][j] === 'E') continue;
          ctx.fillRect(ox + j * s, oy + i * s, s, 1);
          ctx.fillRect(ox + j * s, oy + i * s, 1, s);
        }
      }
    }
    for (let i = 0; i < g.rows; i++) {
      const row = grid[i];
      for (let j = 0; j < g.cols; j++) {
        if (row[j] === 'G') drawGem(ctx, ox + j * s, oy + i * s, s);
      }
    }
  }
}

/**
 * Draws one unit centred at (cx, cy) in a cell of size s.
 * type: p Pioneer (circle), f Furyan (triangle), n Necromonger (square),
 * h Hellhound (black diamond with orange eyes). faint: descending necromonger.
 */
export function drawUnit(ctx, type, group, cx, cy, s, faint, edge = COLOR.ink) {
  ctx.save();
  ctx.lineWidth = s >= 12 ? 1.5 : 1;
  ctx.strokeStyle = edge;
  const fill = group >= 0 ? playerColor(group) : null;
  ctx.beginPath();
  switch (type) {
    case 'p': {
      ctx.arc(cx, cy, s * 0.38, 0, 2 * Math.PI);
      ctx.fillStyle = fill || COLOR.neutral;
      break;
    }
    case 'f': {
      const r = s * 0.5;
      ctx.moveTo(cx, cy - r);
      ctx.lineTo(cx + r * 0.92, cy + r * 0.72);
      ctx.lineTo(cx - r * 0.92, cy + r * 0.72);
      ctx.closePath();
      ctx.fillStyle = fill || COLOR.neutral;
      break;
    }
    case 'n': {
      const r = s * 0.36;
      ctx.rect(cx - r, cy - r, 2 * r, 2 * r);
      ctx.fillStyle = COLOR.necro;
      if (faint) {
        ctx.globalAlpha = 0.45;
        ctx.setLineDash([2, 2]);
      }
      break;
    }
    default: {
      const r = s * 0.6;
      ctx.moveTo(cx, cy - r);
      ctx.lineTo(cx + r, cy);
      ctx.lineTo(cx, cy + r);
      ctx.lineTo(cx - r, cy);
      ctx.closePath();
      ctx.fillStyle = COLOR.hound;
      ctx.strokeStyle = COLOR.houndEye;
    }
  }
  ctx.fill();
  ctx.stroke();
  ctx.setLineDash([]);
  if (type === 'n') {
    // A dark cross marks necromongers so they read even on pale cells.
    const r = s * 0.2;
    ctx.strokeStyle = COLOR.ink;
    ctx.beginPath();
    ctx.moveTo(cx - r, cy - r);
    ctx.lineTo(cx + r, cy + r);
    ctx.moveTo(cx + r, cy - r);
    ctx.lineTo(cx - r, cy + r);
    ctx.stroke();
  } else if (type === 'h') {
    ctx.fillStyle = COLOR.houndEye;
    const e = Math.max(1, s * 0.1);
    ctx.fillRect(cx - s * 0.2, cy - e, e * 1.6, e * 1.6);
    ctx.fillRect(cx + s * 0.2 - e * 1.6, cy - e, e * 1.6, e * 1.6);
  } else if (s >= 16) {
    ctx.fillStyle = '#fff';
    ctx.font = `bold ${Math.round(s * 0.45)}px system-ui, sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(type === 'p' ? 'P' : 'F', cx, cy + (type === 'f' ? s * 0.1 : 0));
  }
  ctx.restore();
}

/** Whether unit u is on the board (alive, landed or descending). */
export function unitVisible(u) {
  return u.i >= 0 && u.k >= 0 && (u.health !== 0 || u.type === 'h');
}

/**
 * Draws the units on one level. a and b are the states at the start and end of
 * the interval being animated and f in [0,1) the fraction; a unit that moved
 * one planar step (columns wrap) slides, anything else jumps at f = 0.5.
 */
export function drawUnits(ctx, g, a, b, f, level, s, ox, oy) {
  const width = g.cols * s;
  const list = [];
  for (let id = 0; id < a.units.length; id++) {
    const ua = a.units[id];
    const ub = b ? b.units[id] : ua;
    let u = ua;
    let di = 0;
    let dj = 0;
    if (f > 0 && b) {
      const slide = unitVisible(ua) && unitVisible(ub) && ua.k === ub.k && ua.turns <= 0 && ub.turns <= 0;
      let dcol = ub.j - ua.j;
      if (dcol > g.cols / 2) dcol -= g.cols;
      if (dcol < -g.cols / 2) dcol += g.cols;
      if (slide && Math.abs(ub.i - ua.i) <= 1 && Math.abs(dcol) <= 1) {
        di = (ub.i - ua.i) * f;
        dj = dcol * f;
        u = ua;
      } else if (f >= 0.5) {
        u = ub;
      }
    }
    if (!unitVisible(u) || u.k !== level) continue;
    list.push({ u, i: u.i + di, j: u.j + dj });
  }
  // Descending necromongers first (underneath), hellhounds last (on top).
  const order = { n: 0, p: 1, f: 2, h: 3 };
  list.sort((x, y) => (x.u.turns > 0 ? -1 : order[x.u.type]) - (y.u.turns > 0 ? -1 : order[y.u.type]));
  ctx.save();
  ctx.beginPath();
  ctx.rect(ox, oy, width, g.rows * s);
  ctx.clip();
  // Hellhounds kill everything next to them: shade their 3x3 danger zone.
  for (const { u, i, j } of list) {
    if (u.type !== 'h') continue;
    for (const shift of [-width, 0, width]) {
      const x = ox + (j - 1) * s + shift;
      const y = oy + (i - 1) * s;
      ctx.fillStyle = COLOR.danger;
      ctx.fillRect(x, y, 3 * s, 3 * s);
      ctx.strokeStyle = COLOR.dangerEdge;
      ctx.lineWidth = 1;
      ctx.setLineDash([3, 2]);
      ctx.strokeRect(x + 0.5, y + 0.5, 3 * s - 1, 3 * s - 1);
      ctx.setLineDash([]);
    }
  }
  // Player units get a light edge on the dark night surface, a dark one below.
  const edge = level === 1 ? COLOR.lightEdge : COLOR.ink;
  for (const { u, i, j } of list) {
    const cy = oy + i * s + s / 2;
    const cx = ox + j * s + s / 2;
    const e = u.type === 'p' || u.type === 'f' ? edge : COLOR.ink;
    drawUnit(ctx, u.type, u.group, cx, cy, s, u.turns > 0, e);
    // A unit sliding across the wrap-around edge is drawn on both sides.
    if (j < 0) drawUnit(ctx, u.type, u.group, cx + width, cy, s, u.turns > 0, e);
    if (j > g.cols - 1) drawUnit(ctx, u.type, u.group, cx - width, cy, s, u.turns > 0, e);
    if (u.turns > 0 && s >= 9) {
      ctx.fillStyle = COLOR.necro;
      ctx.font = `bold ${Math.max(8, Math.round(s * 0.6))}px system-ui, sans-serif`;
      ctx.textAlign = 'left';
      ctx.textBaseline = 'top';
      ctx.fillText(String(u.turns), cx + s * 0.4, cy - s * 0.95);
    }
  }
  ctx.restore();
}

/** Draws a small legend swatch into a fresh canvas and returns it. */
export function legendIcon(kind, size = 18) {
  const dpr = window.devicePixelRatio || 1;
  const cv = document.createElement('canvas');
  cv.width = size * dpr;
  cv.height = size * dpr;
  cv.style.width = `${size}px`;
  cv.style.height = `${size}px`;
  cv.className = 'legend-icon';
  const ctx = cv.getContext('2d');
  ctx.scale(dpr, dpr);
  const fillCell = (c) => {
    ctx.fillStyle = c;
    ctx.fillRect(0, 0, size, size);
  };
  switch (kind) {
    case 'rock': fillCell(COLOR.rock); break;
    case 'cave': fillCell(COLOR.cave); break;
    case 'elevator': drawElevator(ctx, 0, 0, size); break;
    case 'night': fillCell(COLOR.night); break;
    case 'day': fillCell(COLOR.day); break;
    case 'dawn': fillCell(COLOR.dawn); break;
    case 'gem': fillCell(COLOR.night); drawGem(ctx, 0, 0, size); break;
    case 'pioneer': fillCell(COLOR.cave); drawUnit(ctx, 'p', -1, size / 2, size / 2, size, false); break;
    case 'furyan': fillCell(COLOR.cave); drawUnit(ctx, 'f', -1, size / 2, size / 2, size, false); break;
    case 'necro': fillCell(COLOR.night); drawUnit(ctx, 'n', -1, size / 2, size / 2, size, false); break;
    case 'descending': fillCell(COLOR.night); drawUnit(ctx, 'n', -1, size / 2, size / 2, size, true); break;
    case 'hound': {
      fillCell(COLOR.cave);
      ctx.fillStyle = COLOR.danger;
      ctx.fillRect(0, 0, size, size);
      drawUnit(ctx, 'h', -1, size / 2, size / 2, size * 0.8, false);
      break;
    }
    default: {
      const p = Number(kind.slice(5)); // "ownedN"
      ctx.fillStyle = OWNED[p % OWNED.length];
      ctx.fillRect(0, 0, size, size);
    }
  }
  return cv;
}

/**
 * Draws one level at time a + f (a, b the states of the round and the next
 * one, b null on the last round): the terrain switches half-way, units slide.
 */
export function drawBoard(ctx, g, a, b, f, level, s, ox, oy) {
  const terrain = f >= 0.5 && b ? b : a;
  drawTerrain(ctx, g, terrain, level, s, ox, oy);
  drawUnits(ctx, g, a, b, f, level, s, ox, oy);
}
