// Canvas helpers shared by the games: the four player colours, unit shapes,
// health bars, rulers, legend icons and the slide of a unit between rounds.
//
// The colours are exact hex values: the Go tests look for them (PLAYER,
// OWNED and each game's terrain colours) in what the page draws, so keep
// viewer_test.go in sync when changing them.

/** Unit colour of players 0..3: red, blue, green, purple. */
export const PLAYER = ['#e5383b', '#1c7ed6', '#2b9348', '#9d4edd'];
/** Pale tint of the same four colours, for the cells a player owns. */
export const OWNED = ['#f2a19d', '#a3c6ef', '#a3d8af', '#d4b3f0'];

export const INK = '#111418';
export const NEUTRAL = '#9aa4b1';
export const LABEL = '#8b95a5';

/** Colour of player p (wraps for unusual player counts; grey for none). */
export function playerColor(p) {
  return p >= 0 ? PLAYER[p % PLAYER.length] : NEUTRAL;
}

/** Draws the column and row numbers around a board (every 10 cells). */
export function drawRulers(ctx, g, s, ox, oy) {
  ctx.fillStyle = LABEL;
  ctx.font = '10px system-ui, "DejaVu Sans", sans-serif';
  ctx.textBaseline = 'bottom';
  ctx.textAlign = 'center';
  for (let j = 0; j < g.cols; j += 10) ctx.fillText(String(j), ox + j * s + s / 2, oy - 2);
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'right';
  for (let i = 0; i < g.rows; i += 10) ctx.fillText(String(i), ox - 4, oy + i * s + s / 2);
}

/** Fills a whole board grid: color(c, i, j) gives the colour of character c. */
export function fillGrid(ctx, rows, s, ox, oy, color) {
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    for (let j = 0; j < row.length; j++) {
      ctx.fillStyle = color(row[j], i, j);
      ctx.fillRect(ox + j * s, oy + i * s, s, s);
    }
  }
}

/** Draws faint cell borders (top and left edge of every cell) when cells are big enough. */
export function drawGridLines(ctx, g, s, ox, oy, color = 'rgba(0, 0, 0, 0.07)') {
  if (s < 8) return;
  ctx.fillStyle = color;
  for (let i = 0; i < g.rows; i++) ctx.fillRect(ox, oy + i * s, g.cols * s, 1);
  for (let j = 0; j < g.cols; j++) ctx.fillRect(ox + j * s, oy, 1, g.rows * s);
}

/**
 * Traces a unit shape centred at (cx, cy) with radius r into the current
 * path: circle, triangle, square, diamond, star, hexagon or shield.
 */
export function shapePath(ctx, shape, cx, cy, r) {
  ctx.beginPath();
  switch (shape) {
    case 'circle':
      ctx.arc(cx, cy, r, 0, 2 * Math.PI);
      break;
    case 'triangle':
      ctx.moveTo(cx, cy - r);
      ctx.lineTo(cx + r * 0.92, cy + r * 0.72);
      ctx.lineTo(cx - r * 0.92, cy + r * 0.72);
      ctx.closePath();
      break;
    case 'square':
      ctx.rect(cx - r, cy - r, 2 * r, 2 * r);
      break;
    case 'diamond':
      ctx.moveTo(cx, cy - r);
      ctx.lineTo(cx + r, cy);
      ctx.lineTo(cx, cy + r);
      ctx.lineTo(cx - r, cy);
      ctx.closePath();
      break;
    case 'star':
      for (let k = 0; k < 10; k++) {
        const a = -Math.PI / 2 + (k * Math.PI) / 5;
        const rr = k % 2 === 0 ? r : r * 0.48;
        if (k === 0) ctx.moveTo(cx + rr * Math.cos(a), cy + rr * Math.sin(a));
        else ctx.lineTo(cx + rr * Math.cos(a), cy + rr * Math.sin(a));
      }
      ctx.closePath();
      break;
    case 'hexagon':
      for (let k = 0; k < 6; k++) {
        const a = (k * Math.PI) / 3;
        if (k === 0) ctx.moveTo(cx + r * Math.cos(a), cy + r * Math.sin(a));
        else ctx.lineTo(cx + r * Math.cos(a), cy + r * Math.sin(a));
      }
      ctx.closePath();
      break;
    default: // shield: flat top, pointed bottom
      ctx.moveTo(cx - r * 0.85, cy - r * 0.8);
      ctx.lineTo(cx + r * 0.85, cy - r * 0.8);
      ctx.lineTo(cx + r * 0.85, cy + r * 0.1);
      ctx.lineTo(cx, cy + r);
      ctx.lineTo(cx - r * 0.85, cy + r * 0.1);
      ctx.closePath();
  }
}

/** Draws a filled and outlined shape. */
export function drawShape(ctx, shape, cx, cy, r, fill, edge = INK, width = 1) {
  shapePath(ctx, shape, cx, cy, r);
  ctx.fillStyle = fill;
  ctx.fill();
  ctx.lineWidth = width;
  ctx.strokeStyle = edge;
  ctx.stroke();
}

/**
 * Draws a small health bar along the bottom of the cell at (x, y) when the
 * unit is hurt (0 <= frac < 1) and cells are big enough to show it.
 */
export function drawHealthBar(ctx, x, y, s, frac) {
  if (s < 9 || !(frac < 1) || frac < 0) return;
  const w = Math.round(s * 0.8);
  const h = Math.max(2, Math.round(s * 0.12));
  const bx = Math.round(x + (s - w) / 2);
  const by = Math.round(y + s - h - 1);
  ctx.fillStyle = '#111418';
  ctx.fillRect(bx, by, w, h);
  ctx.fillStyle = frac > 0.5 ? '#51cf66' : frac > 0.25 ? '#fcc419' : '#ff6b6b';
  ctx.fillRect(bx, by, Math.max(1, Math.round(w * frac)), h);
}

/**
 * Where to draw a unit at fraction f in [0, 1) of the step from state a to
 * state b: ua and ub are its records there (with i, j), shown(u) tells
 * whether it is on the board. A unit that moved at most one cell in each
 * direction slides; anything else jumps at f = 0.5. Returns {u, i, j} (u the
 * record whose other fields apply) or null when it is not on the board.
 */
export function slide(ua, ub, f, shown) {
  if (!ub || f <= 0) return shown(ua) ? { u: ua, i: ua.i, j: ua.j } : null;
  if (shown(ua) && shown(ub) && Math.abs(ub.i - ua.i) <= 1 && Math.abs(ub.j - ua.j) <= 1) {
    return { u: ua, i: ua.i + (ub.i - ua.i) * f, j: ua.j + (ub.j - ua.j) * f };
  }
  const u = f >= 0.5 ? ub : ua;
  return shown(u) ? { u, i: u.i, j: u.j } : null;
}

/** Returns a fresh legend canvas of size x size CSS pixels drawn by paint(ctx, size). */
export function iconCanvas(paint, size = 18) {
  const dpr = window.devicePixelRatio || 1;
  const cv = document.createElement('canvas');
  cv.width = size * dpr;
  cv.height = size * dpr;
  cv.style.width = `${size}px`;
  cv.style.height = `${size}px`;
  cv.className = 'legend-icon';
  const ctx = cv.getContext('2d');
  ctx.scale(dpr, dpr);
  paint(ctx, size);
  return cv;
}

/** A legend icon that is a plain cell of colour c. */
export function cellIcon(c) {
  return iconCanvas((ctx, size) => {
    ctx.fillStyle = c;
    ctx.fillRect(0, 0, size, size);
  });
}

/** The row of four owned-cell tints used in legends. */
export function ownedIcons(n) {
  const box = document.createElement('span');
  box.className = 'legend-owned';
  for (let p = 0; p < Math.min(n, OWNED.length); p++) box.append(cellIcon(OWNED[p]));
  return box;
}
