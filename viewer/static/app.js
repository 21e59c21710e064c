// Main controller of the viewer page: loading, playback, layout and panels.
// Everything game-specific (reading states, drawing boards, panel texts) is
// in the game's module, games/<game>.js, picked by the name in the trace.

import { parseTrace } from './parse.js';
import { drawRulers, playerColor } from './draw.js';
import { ScoreChart } from './chart.js';
import { renderLegend, renderSettings, renderScores, describeCell } from './panels.js';
import { GAMES } from './games/index.js';

const $ = (id) => document.getElementById(id);
const SPEEDS = [1, 2, 4, 8, 16, 32];
const MARGIN = { left: 24, top: 14, right: 6, bottom: 4 }; // room for the rulers

const view = {
  game: null, // the parsed trace (parse.js); game.game is its game module
  nbBoards: 0,
  name: document.body.dataset.name || '',
  pos: 0, // current time in rounds; fractional while animating
  playing: false,
  speed: 4,
  cell: 10,
  lastFrame: 0,
};

const boards = [$('level0'), $('level1')];
const chart = new ScoreChart($('chart'), (r) => { pause(); setRound(r); });

/** Shows one overlay (or none). */
function showOverlay(id) {
  for (const o of ['picker', 'error', 'loading']) $(o).hidden = o !== id;
}

function showError(message) {
  pause();
  $('error-text').textContent = message;
  $('error-close').hidden = !view.game;
  showOverlay('error');
  document.body.dataset.state = 'error';
  document.title = 'jgym viewer - error';
  if (!view.game) $('status').textContent = 'error';
}

/** Sets up the board captions and canvases the game uses. */
function setBoards(game) {
  const specs = game.game.boards(game);
  view.nbBoards = specs.length;
  boards.forEach((cv, b) => {
    const spec = specs[b];
    $(`board${b}`).hidden = !spec;
    if (!spec) return;
    $(`tag${b}`).textContent = spec.tag;
    $(`title${b}`).textContent = spec.title;
    cv.setAttribute('aria-label', `${game.name}: ${spec.title}`);
  });
}

/** Installs a freshly parsed game and renders the requested round. */
function setGame(game, name) {
  pause();
  view.game = game;
  view.name = name;
  showOverlay(null);
  document.body.dataset.game = game.name;
  document.body.dataset.complete = String(game.complete);
  $('game-name').textContent = game.name;
  $('trace-name').textContent = name || 'trace';
  $('trace-name').title = `${name || 'trace'} · ${game.name} · seed ${game.seed} · ${game.names.join(' vs ')}`;
  const warn = $('warning');
  warn.hidden = game.warnings.length === 0;
  warn.textContent = game.warnings.map((w) => `⚠ ${w}`).join('\n');
  const seek = $('seek');
  seek.max = String(game.lastRound);
  for (const el of document.querySelectorAll('.controls button, #seek')) el.disabled = false;
  const cut = $('cut-note');
  cut.hidden = game.complete;
  cut.textContent = game.complete ? '' : game.cut.reason === 'cut short'
    ? `Game cut short: the trace stops after round ${game.cut.round} of ${game.nbRounds}. No winner.`
    : `Trace damaged after round ${game.cut.round} of ${game.nbRounds}. No winner.`;
  setBoards(game);
  renderLegend($('legend'), game);
  renderSettings($('settings'), game);
  $('score-note').textContent = game.game.scoreRule(game);
  chart.setGame(game);
  layout();
  const params = new URLSearchParams(location.search);
  const start = params.has('round') ? parseInt(params.get('round'), 10) : 0;
  setRound(Number.isFinite(start) ? start : 0);
  document.body.dataset.state = 'loaded';
  if (params.get('play') === '1') play();
}

/** Parses trace text and installs it, or shows the error. */
function loadText(text, name) {
  try {
    setGame(parseTrace(text, GAMES), name);
  } catch (err) {
    console.error(err);
    showError(`${name ? `${name}: ` : ''}${err.message}`);
  }
}

/** Reads a File (plain or gzipped) chosen or dropped by the user. */
async function loadFile(file) {
  showOverlay('loading');
  try {
    let bytes = new Uint8Array(await file.arrayBuffer());
    if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
      if (typeof DecompressionStream === 'undefined') {
        throw new Error('this browser cannot decompress .gz files; gunzip the trace first');
      }
      const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
      bytes = new Uint8Array(await new Response(stream).arrayBuffer());
    }
    loadText(new TextDecoder().decode(bytes), file.name);
  } catch (err) {
    showError(`${file.name}: ${err.message}`);
  }
}

/** Fetches the trace served next to the page. */
async function loadServed() {
  showOverlay('loading');
  try {
    const resp = await fetch('trace.res', { cache: 'no-store' });
    if (!resp.ok) throw new Error(`server answered ${resp.status} ${resp.statusText}`);
    loadText(await resp.text(), view.name);
  } catch (err) {
    showError(`could not load the trace: ${err.message}`);
  }
}

/** Chooses the cell size and stacked/side-by-side arrangement to fit the window. */
function layout() {
  const g = view.game;
  if (!g) return;
  const area = $('boards');
  const rect = area.getBoundingClientRect();
  const capH = document.querySelector('.board figcaption').offsetHeight || 20;
  const w = Math.max(200, rect.width - 4);
  const h = Math.max(200, window.innerHeight - rect.top - 12 - $('keys').offsetHeight - 8);
  const bw = (n) => (w - (n - 1) * 16) / n - MARGIN.left - MARGIN.right;
  const single = Math.min(Math.floor(bw(1) / g.cols),
    Math.floor((h - capH - MARGIN.top - MARGIN.bottom) / g.rows));
  if (view.nbBoards === 1) {
    view.cell = Math.max(4, Math.min(24, single));
    area.classList.remove('side-by-side');
  } else {
    // Two boards: stacked, or side by side when that gives bigger cells.
    const stacked = Math.min(Math.floor(bw(1) / g.cols),
      Math.floor((h - 2 * (capH + MARGIN.top + MARGIN.bottom) - 8) / (2 * g.rows)));
    const side = Math.min(Math.floor(bw(2) / g.cols), single);
    const sideBySide = side > stacked;
    view.cell = Math.max(4, Math.min(24, sideBySide ? side : stacked));
    area.classList.toggle('side-by-side', sideBySide);
  }
  const dpr = window.devicePixelRatio || 1;
  for (const cv of boards) {
    const cw = MARGIN.left + g.cols * view.cell + MARGIN.right;
    const ch = MARGIN.top + g.rows * view.cell + MARGIN.bottom;
    cv.style.width = `${cw}px`;
    cv.style.height = `${ch}px`;
    cv.width = Math.round(cw * dpr);
    cv.height = Math.round(ch * dpr);
  }
  chart.resize();
  render();
}

/** Draws the boards at the current (possibly fractional) time. */
function render() {
  const g = view.game;
  if (!g) return;
  const r = Math.floor(view.pos);
  const f = view.pos - r;
  const a = g.rounds[r];
  const b = r < g.lastRound ? g.rounds[r + 1] : null;
  const s = view.cell;
  const dpr = window.devicePixelRatio || 1;
  for (let board = 0; board < view.nbBoards; board++) {
    const cv = boards[board];
    const ctx = cv.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, cv.width, cv.height);
    ctx.save();
    g.game.drawBoard(ctx, g, a, b, f, board, s, MARGIN.left, MARGIN.top);
    ctx.restore();
    drawRulers(ctx, g, s, MARGIN.left, MARGIN.top);
  }
}

/** Updates everything that depends on the integer round. */
function updatePanels(r) {
  const g = view.game;
  $('seek').value = String(r);
  $('status').textContent = `round ${r}/${g.lastRound}`;
  document.title = `jgym viewer - round ${r} - loaded`;
  renderScores($('scores'), g, r);
  chart.draw(r);
  for (let board = 0; board < view.nbBoards; board++) {
    $(`hint${board}`).textContent = g.game.boardHint(g, r, board);
  }
}

/** Jumps to integer round r (clamped) and redraws. */
function setRound(r) {
  const g = view.game;
  if (!g) return;
  r = Math.max(0, Math.min(g.lastRound, Math.round(r)));
  view.pos = r;
  updatePanels(r);
  render();
}

function play() {
  const g = view.game;
  if (!g || view.playing) return;
  if (view.pos >= g.lastRound) setRound(0);
  view.playing = true;
  $('btn-play').classList.add('playing');
  view.lastFrame = performance.now();
  requestAnimationFrame(tick);
}

function pause() {
  if (!view.playing) return;
  view.playing = false;
  $('btn-play').classList.remove('playing');
  setRound(Math.floor(view.pos));
}

function tick(now) {
  if (!view.playing) return;
  const g = view.game;
  const dt = Math.max(0, Math.min(0.25, (now - view.lastFrame) / 1000));
  view.lastFrame = now;
  const before = Math.floor(view.pos);
  view.pos = Math.min(g.lastRound, view.pos + dt * view.speed);
  const r = Math.floor(view.pos);
  if (r !== before) updatePanels(r);
  render();
  if (view.pos >= g.lastRound) {
    pause();
    return;
  }
  requestAnimationFrame(tick);
}

function step(delta) {
  pause();
  setRound(Math.floor(view.pos) + delta);
}

function setSpeed(v) {
  view.speed = v;
  $('speed').value = String(v);
}

function changeSpeed(dir) {
  const i = SPEEDS.indexOf(view.speed);
  setSpeed(SPEEDS[Math.max(0, Math.min(SPEEDS.length - 1, i + dir))]);
}

/** Shows what is under the pointer on a board. */
function hover(ev, board) {
  const g = view.game;
  const tip = $('tooltip');
  if (!g) return;
  const rect = boards[board].getBoundingClientRect();
  const j = Math.floor((ev.clientX - rect.left - MARGIN.left) / view.cell);
  const i = Math.floor((ev.clientY - rect.top - MARGIN.top) / view.cell);
  if (i < 0 || j < 0 || i >= g.rows || j >= g.cols) {
    tip.hidden = true;
    return;
  }
  tip.replaceChildren(...describeCell(g, Math.floor(view.pos), i, j, board));
  tip.hidden = false;
  const x = Math.min(ev.clientX + 14, window.innerWidth - tip.offsetWidth - 8);
  const y = Math.min(ev.clientY + 14, window.innerHeight - tip.offsetHeight - 8);
  tip.style.left = `${x}px`;
  tip.style.top = `${y}px`;
}

function wire() {
  $('btn-play').addEventListener('click', () => (view.playing ? pause() : play()));
  $('btn-back').addEventListener('click', () => step(-1));
  $('btn-fwd').addEventListener('click', () => step(1));
  $('btn-first').addEventListener('click', () => { pause(); setRound(0); });
  $('btn-last').addEventListener('click', () => { pause(); setRound(view.game.lastRound); });
  $('seek').addEventListener('input', (ev) => { pause(); setRound(Number(ev.target.value)); });
  $('speed').addEventListener('change', (ev) => setSpeed(Number(ev.target.value)));
  $('error-close').addEventListener('click', () => {
    showOverlay(null);
    document.body.dataset.state = 'loaded';
    setRound(view.pos);
  });
  $('file-input').addEventListener('change', (ev) => {
    const file = ev.target.files[0];
    if (file) loadFile(file);
    ev.target.value = '';
  });
  boards.forEach((cv, board) => {
    cv.addEventListener('mousemove', (ev) => hover(ev, board));
    cv.addEventListener('mouseleave', () => { $('tooltip').hidden = true; });
  });
  // Mouse clicks must not leave focus on a button: Space would then both
  // click it and toggle playback.
  for (const b of document.querySelectorAll('.controls button')) {
    b.addEventListener('mousedown', (ev) => ev.preventDefault());
  }
  document.addEventListener('keyup', (ev) => {
    if (ev.key === ' ' && view.game && ev.target instanceof HTMLButtonElement) ev.preventDefault();
  });
  document.addEventListener('keydown', (ev) => {
    if (!view.game || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.target instanceof HTMLSelectElement) return;
    const big = ev.shiftKey ? 10 : 1;
    const actions = {
      ' ': () => (view.playing ? pause() : play()),
      ArrowRight: () => step(big),
      ArrowLeft: () => step(-big),
      ArrowUp: () => changeSpeed(1),
      ArrowDown: () => changeSpeed(-1),
      Home: () => { pause(); setRound(0); },
      End: () => { pause(); setRound(view.game.lastRound); },
    };
    const act = actions[ev.key];
    if (!act) return;
    ev.preventDefault();
    act();
  });
  let depth = 0;
  window.addEventListener('dragenter', (ev) => { ev.preventDefault(); depth++; $('drop').hidden = false; });
  window.addEventListener('dragleave', () => { if (--depth <= 0) { depth = 0; $('drop').hidden = true; } });
  window.addEventListener('dragover', (ev) => ev.preventDefault());
  window.addEventListener('drop', (ev) => {
    ev.preventDefault();
    depth = 0;
    $('drop').hidden = true;
    const file = ev.dataTransfer.files[0];
    if (file) loadFile(file);
  });
  let pending = 0;
  window.addEventListener('resize', () => {
    cancelAnimationFrame(pending);
    pending = requestAnimationFrame(layout);
  });
}

wire();
const params = new URLSearchParams(location.search);
if (params.has('speed')) setSpeed(SPEEDS.includes(Number(params.get('speed'))) ? Number(params.get('speed')) : 4);
if (document.body.dataset.hasTrace === 'true') {
  loadServed();
} else {
  showOverlay('picker');
  document.body.dataset.state = 'empty';
  document.title = 'jgym viewer - open a trace';
}
// Hooks for debugging from the browser console (and for the Go tests, which
// read the board geometry to sample the canvases).
window.jgymViewer = {
  view, setRound, render, play, pause, playerColor,
  geometry: () => ({ cell: view.cell, left: MARGIN.left, top: MARGIN.top, dpr: window.devicePixelRatio || 1 }),
};
