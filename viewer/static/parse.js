// Parser for Crematoria traces (.res files), following SPEC §10.
//
// Like the course viewer (§10.7), the trace is split on whitespace and read as
// a sequence of tokens, so blank lines and spacing do not matter. Every token
// remembers its line so errors can point at the offending place.

export const SETTING_KEYS = [
  'nb_players', 'nb_rounds', 'nb_furyans', 'nb_pioneers', 'max_nb_necromongers',
  'nb_hellhounds', 'nb_elevators', 'gem_value', 'turns_to_land', 'rows', 'cols',
];

const UNIT_TYPES = 'pfnh';
const DIR_CHARS = 'bwrxytlzudn';
const LEVEL0_CHARS = /^[RCE0-9]+$/;
const LEVEL1_CHARS = /^[OGE]+$/;

/** TraceError is thrown for malformed traces; line is 1-based (0 if unknown). */
export class TraceError extends Error {
  constructor(message, line) {
    super(line > 0 ? `line ${line}: ${message}` : message);
    this.name = 'TraceError';
    this.line = line;
  }
}

/** Splits text on whitespace, keeping the line number of every token. */
function tokenize(text) {
  const tokens = [];
  const lines = [];
  const re = /\S+/g;
  let line = 1;
  let last = 0;
  let m;
  while ((m = re.exec(text)) !== null) {
    for (let p = text.indexOf('\n', last); p !== -1 && p < m.index; p = text.indexOf('\n', p + 1)) {
      line++;
    }
    last = m.index;
    tokens.push(m[0]);
    lines.push(line);
  }
  return { tokens, lines };
}

/** Reader walks the token list. */
class Reader {
  constructor(text) {
    const { tokens, lines } = tokenize(text);
    this.tokens = tokens;
    this.lines = lines;
    this.pos = 0;
  }

  line() {
    const p = Math.min(this.pos, this.lines.length - 1);
    return p >= 0 ? this.lines[p] : 0;
  }

  next(what) {
    if (this.pos >= this.tokens.length) {
      throw new TraceError(`unexpected end of file, expected ${what}`, this.line());
    }
    return this.tokens[this.pos++];
  }

  expect(word) {
    const t = this.next(`"${word}"`);
    if (t !== word) {
      this.pos--;
      throw new TraceError(`expected "${word}", found "${short(t)}"`, this.line());
    }
  }

  int(what) {
    const t = this.next(what);
    if (!/^-?\d+$/.test(t)) {
      this.pos--;
      throw new TraceError(`expected an integer (${what}), found "${short(t)}"`, this.line());
    }
    return parseInt(t, 10);
  }

  float(what) {
    const t = this.next(what);
    const v = Number(t);
    if (t === '' || Number.isNaN(v)) {
      this.pos--;
      throw new TraceError(`expected a number (${what}), found "${short(t)}"`, this.line());
    }
    return v;
  }

  done() {
    return this.pos >= this.tokens.length;
  }
}

function short(t) {
  return t.length > 40 ? `${t.slice(0, 40)}…` : t;
}

/** Reads the header, settings and names; returns a game skeleton. */
function readHeader(rd) {
  const kind = rd.next('"Game"');
  if (kind !== 'Game' && kind !== 'SecGame') {
    throw new TraceError(`not a Crematoria trace: it must start with "Game" or "SecGame", found "${short(kind)}"`, 1);
  }
  rd.expect('Seed');
  const seed = rd.int('seed');
  rd.expect('Crematoria');
  const version = rd.next('game version');
  const warnings = [];
  if (version !== '1.2') {
    warnings.push(`trace is for Crematoria ${version}; this viewer knows version 1.2`);
  }
  const settings = {};
  for (const key of SETTING_KEYS) {
    rd.expect(key);
    settings[key] = rd.int(key);
  }
  const s = settings;
  if (s.nb_players < 1 || s.nb_players > 16) throw new TraceError(`bad nb_players ${s.nb_players}`, rd.line());
  if (s.nb_rounds < 0) throw new TraceError(`bad nb_rounds ${s.nb_rounds}`, rd.line());
  if (s.rows < 1 || s.cols < 1 || s.rows * s.cols > 1e6) {
    throw new TraceError(`bad board size ${s.rows}x${s.cols}`, rd.line());
  }
  for (const k of ['nb_furyans', 'nb_pioneers', 'max_nb_necromongers', 'nb_hellhounds']) {
    if (s[k] < 0 || s[k] > 100000) throw new TraceError(`bad ${k} ${s[k]}`, rd.line());
  }
  rd.expect('names');
  const names = [];
  for (let p = 0; p < s.nb_players; p++) names.push(rd.next(`name of player ${p}`));
  const perPlayer = s.nb_furyans + s.nb_pioneers;
  return {
    kind, seed, version, settings, names, warnings,
    rows: s.rows,
    cols: s.cols,
    nbPlayers: s.nb_players,
    nbUnits: s.nb_players * perPlayer + s.max_nb_necromongers + s.nb_hellhounds,
    rounds: [],
    moves: [],
    scores: [],
  };
}

/** Reads one grid level (rows tokens of cols characters). */
function readLevel(rd, g, level) {
  const rows = [];
  const valid = level === 0 ? LEVEL0_CHARS : LEVEL1_CHARS;
  for (let i = 0; i < g.rows; i++) {
    const row = rd.next(`row ${i} of level ${level}`);
    if (row.length !== g.cols || !valid.test(row)) {
      rd.pos--;
      const why = row.length !== g.cols ? `has ${row.length} characters instead of ${g.cols}` : 'holds an unknown cell character';
      throw new TraceError(`row ${i} of level ${level} ${why}: "${short(row)}"`, rd.line());
    }
    rows.push(row);
  }
  return rows;
}

/** Reads the state block of round r. */
function readState(rd, g, r) {
  const grid0 = readLevel(rd, g, 0);
  const grid1 = readLevel(rd, g, 1);
  rd.expect('round');
  const got = rd.int('round number');
  if (got !== r) throw new TraceError(`expected round ${r}, found round ${got}`, rd.line());
  const list = (key, read) => {
    rd.expect(key);
    const out = [];
    for (let p = 0; p < g.nbPlayers; p++) out.push(read(`${key} of player ${p}`));
    return out;
  };
  const cells = list('nb_cells', (w) => rd.int(w));
  const gems = list('nb_gems', (w) => rd.int(w));
  const status = list('status', (w) => rd.float(w));
  const units = [];
  for (let id = 0; id < g.nbUnits; id++) {
    const type = rd.next(`type of unit ${id}`);
    if (type.length !== 1 || !UNIT_TYPES.includes(type)) {
      rd.pos--;
      throw new TraceError(`unit ${id}: unknown unit type "${short(type)}" (expected p, f, n or h)`, rd.line());
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

/** Reads the movements block that follows the state of a round. */
function readMoves(rd, g) {
  rd.expect('movements');
  const moves = [];
  for (;;) {
    const id = rd.int('unit id or -1');
    if (id === -1) return moves;
    if (id < 0 || id >= g.nbUnits) throw new TraceError(`movement of unknown unit ${id}`, rd.line());
    const dir = rd.next(`direction of unit ${id}`);
    if (dir.length !== 1 || !DIR_CHARS.includes(dir)) {
      rd.pos--;
      throw new TraceError(`unknown direction "${short(dir)}" for unit ${id}`, rd.line());
    }
    moves.push({ id, dir });
  }
}

/**
 * parseTrace reads a whole trace. Errors in the header or in the first state
 * throw a TraceError. A trace that breaks off later (an aborted game, or a file
 * damaged halfway) is kept up to its last complete state and gets a warning.
 */
export function parseTrace(text) {
  const rd = new Reader(text);
  if (rd.done()) throw new TraceError('the file is empty', 0);
  const g = readHeader(rd);
  const gv = g.settings.gem_value;
  for (let r = 0; r <= g.settings.nb_rounds; r++) {
    let state;
    let moves = null;
    try {
      state = readState(rd, g, r);
      if (r < g.settings.nb_rounds) moves = readMoves(rd, g);
    } catch (err) {
      if (r === 0 || !(err instanceof TraceError)) throw err;
      if (state) {
        g.rounds.push(state);
        g.scores.push(state.cells.map((c, p) => c + gv * state.gems[p]));
      }
      const last = g.rounds.length - 1;
      g.warnings.push(`trace is incomplete or damaged after round ${last} (${err.message}); showing rounds 0-${last}`);
      g.lastRound = last;
      g.moves.length = last;
      return g;
    }
    g.rounds.push(state);
    g.scores.push(state.cells.map((c, p) => c + gv * state.gems[p]));
    if (moves) g.moves.push(moves);
  }
  if (!rd.done()) {
    g.warnings.push(`ignored ${rd.tokens.length - rd.pos} unexpected tokens after the last round (line ${rd.line()})`);
  }
  g.lastRound = g.rounds.length - 1;
  return g;
}

/** Returns true when level-1 column j is in daylight at round r (SPEC §3.3). */
export function isDay(r, j, cols) {
  const half = cols / 2;
  const t1 = (2 * r) % cols;
  if (t1 + half - 1 < cols) return j < t1 || j > t1 + half - 1;
  return t1 + half - 1 - cols < j && j < t1;
}
