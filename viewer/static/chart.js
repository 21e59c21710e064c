// Score-over-rounds line chart, drawn on a canvas. Clicking or dragging on it
// seeks to the round under the pointer.

import { playerColor } from './draw.js';

const PAD = { left: 40, right: 10, top: 10, bottom: 22 };

/** Returns a "nice" axis step so that max/step gives about n ticks. */
function niceStep(max, n) {
  const raw = Math.max(1, max / n);
  const mag = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 2.5, 5, 10]) {
    if (raw <= m * mag) return m * mag;
  }
  return 10 * mag;
}

export class ScoreChart {
  /** canvas: the chart element; onSeek(round) is called on click/drag. */
  constructor(canvas, onSeek) {
    this.canvas = canvas;
    this.onSeek = onSeek;
    this.game = null;
    this.round = 0;
    this.width = 0;
    this.height = 0;
    let dragging = false;
    const seek = (ev) => {
      if (!this.game) return;
      const rect = canvas.getBoundingClientRect();
      const x = ev.clientX - rect.left;
      const last = this.game.lastRound;
      const w = this.width - PAD.left - PAD.right;
      const r = Math.round(((x - PAD.left) / w) * last);
      this.onSeek(Math.max(0, Math.min(last, r)));
    };
    canvas.addEventListener('pointerdown', (ev) => {
      dragging = true;
      canvas.setPointerCapture(ev.pointerId);
      seek(ev);
    });
    canvas.addEventListener('pointermove', (ev) => { if (dragging) seek(ev); });
    canvas.addEventListener('pointerup', () => { dragging = false; });
    canvas.addEventListener('pointercancel', () => { dragging = false; });
  }

  setGame(game) {
    this.game = game;
    let max = 1;
    for (const row of game.scores) for (const v of row) max = Math.max(max, v);
    const step = niceStep(max, 4);
    this.step = step;
    this.max = Math.ceil(max / step) * step;
    this.resize();
  }

  /** Matches the backing store to the CSS size (and device pixel ratio). */
  resize() {
    const dpr = window.devicePixelRatio || 1;
    const rect = this.canvas.getBoundingClientRect();
    this.width = Math.max(100, Math.round(rect.width));
    this.height = Math.max(80, Math.round(rect.height));
    this.canvas.width = this.width * dpr;
    this.canvas.height = this.height * dpr;
    this.dpr = dpr;
    this.draw(this.round);
  }

  draw(round) {
    this.round = round;
    const g = this.game;
    if (!g) return;
    const ctx = this.canvas.getContext('2d');
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    ctx.clearRect(0, 0, this.width, this.height);
    const w = this.width - PAD.left - PAD.right;
    const h = this.height - PAD.top - PAD.bottom;
    const last = Math.max(1, g.lastRound);
    const X = (r) => PAD.left + (r / last) * w;
    const Y = (v) => PAD.top + h - (v / this.max) * h;

    // Grid and axes labels.
    ctx.font = '10px system-ui, "DejaVu Sans", sans-serif';
    ctx.fillStyle = '#8b95a5';
    ctx.strokeStyle = '#2a3342';
    ctx.lineWidth = 1;
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    for (let v = 0; v <= this.max; v += this.step) {
      const y = Math.round(Y(v)) + 0.5;
      ctx.beginPath();
      ctx.moveTo(PAD.left, y);
      ctx.lineTo(PAD.left + w, y);
      ctx.stroke();
      ctx.fillText(String(v), PAD.left - 6, y);
    }
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    const rstep = niceStep(last, 6);
    for (let r = 0; r <= last; r += rstep) {
      ctx.fillText(String(r), X(r), PAD.top + h + 6);
    }

    // One line per player; the current round splits it into bright and dim.
    for (let p = 0; p < g.nbPlayers; p++) {
      ctx.strokeStyle = playerColor(p);
      ctx.lineWidth = 2;
      ctx.lineJoin = 'round';
      ctx.globalAlpha = 1;
      ctx.beginPath();
      for (let r = 0; r <= Math.min(round, g.lastRound); r++) {
        const x = X(r);
        const y = Y(g.scores[r][p]);
        if (r === 0) ctx.moveTo(x, y); else ctx.lineTo(x, y);
      }
      ctx.stroke();
      ctx.globalAlpha = 0.25;
      ctx.beginPath();
      for (let r = round; r <= g.lastRound; r++) {
        const x = X(r);
        const y = Y(g.scores[r][p]);
        if (r === round) ctx.moveTo(x, y); else ctx.lineTo(x, y);
      }
      ctx.stroke();
      ctx.globalAlpha = 1;
    }

    // Current-round cursor with a dot on every line.
    const cx = Math.round(X(round)) + 0.5;
    ctx.strokeStyle = '#e8ecf1';
    ctx.setLineDash([3, 3]);
    ctx.beginPath();
    ctx.moveTo(cx, PAD.top);
    ctx.lineTo(cx, PAD.top + h);
    ctx.stroke();
    ctx.setLineDash([]);
    for (let p = 0; p < g.nbPlayers; p++) {
      ctx.fillStyle = playerColor(p);
      ctx.beginPath();
      ctx.arc(X(round), Y(g.scores[round][p]), 3.5, 0, 2 * Math.PI);
      ctx.fill();
    }
  }
}
