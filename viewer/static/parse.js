// Shared trace reader: the tokenizer, the preamble every game writes, the
// round loop and what happens when a trace breaks off.
//
// Like the course viewers, a trace is split on whitespace and read as a
// sequence of tokens, so blank lines and spacing do not matter. Every token
// remembers its line so errors can point at the offending place. After the
// preamble ("Game" or "SecGame", "Seed N") the next token names the game; the
// game's module (games/*.js) reads its settings, names and state blocks.

/** TraceError is thrown for malformed traces; line is 1-based (0 if unknown). */
export class TraceError extends Error {
  /**
   * atEnd is true when the problem is at the last token of the file or past
   * it, which is how a trace that was cut short (an aborted game, a file
   * written halfway) looks.
   */
  constructor(message, line, atEnd = false) {
    super(line > 0 ? `line ${line}: ${message}` : message);
    this.name = 'TraceError';
    this.line = line;
    this.atEnd = atEnd;
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

/** Shortens a token for an error message. */
export function short(t) {
  return t.length > 40 ? `${t.slice(0, 40)}…` : t;
}

/** Reader walks the token list. */
export class Reader {
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

  /** Returns a TraceError at the current token (not thrown). */
  error(message) {
    return new TraceError(message, this.line(), this.pos >= this.tokens.length - 1);
  }

  next(what) {
    if (this.pos >= this.tokens.length) {
      throw this.error(`unexpected end of file, expected ${what}`);
    }
    return this.tokens[this.pos++];
  }

  expect(word) {
    const t = this.next(`"${word}"`);
    if (t !== word) {
      this.pos--;
      throw this.error(`expected "${word}", found "${short(t)}"`);
    }
  }

  int(what) {
    const t = this.next(what);
    if (!/^-?\d+$/.test(t)) {
      this.pos--;
      throw this.error(`expected an integer (${what}), found "${short(t)}"`);
    }
    return parseInt(t, 10);
  }

  float(what) {
    const t = this.next(what);
    const v = Number(t);
    if (t === '' || Number.isNaN(v)) {
      this.pos--;
      throw this.error(`expected a number (${what}), found "${short(t)}"`);
    }
    return v;
  }

  done() {
    return this.pos >= this.tokens.length;
  }

  // Helpers shared by the game modules.

  /** Reads `key` and one value per player with read(what). */
  perPlayer(g, key, read = (w) => this.int(w)) {
    this.expect(key);
    const out = [];
    for (let p = 0; p < g.nbPlayers; p++) out.push(read(`${key} of player ${p}`));
    return out;
  }

  /** Reads `key value` pairs as integers (or floats for keys in floats). */
  settings(keys, floats = []) {
    const out = {};
    for (const key of keys) {
      this.expect(key);
      out[key] = floats.includes(key) ? this.float(key) : this.int(key);
    }
    return out;
  }

  /** Reads "names" and n player names. */
  names(n) {
    this.expect('names');
    const names = [];
    for (let p = 0; p < n; p++) names.push(this.next(`name of player ${p}`));
    return names;
  }

  /** Reads `rows` grid rows of `cols` characters each matching valid. */
  grid(g, valid, what = 'row') {
    const rows = [];
    for (let i = 0; i < g.rows; i++) rows.push(this.gridRow(g, valid, `${what} ${i}`));
    return rows;
  }

  /** Reads one grid row of g.cols characters matching valid (a regexp). */
  gridRow(g, valid, what) {
    const row = this.next(what);
    if (row.length !== g.cols || !valid.test(row)) {
      this.pos--;
      const why = row.length !== g.cols ? `has ${row.length} characters instead of ${g.cols}` : 'holds an unknown cell character';
      throw this.error(`${what} ${why}: "${short(row)}"`);
    }
    return row;
  }

  /** Reads `round r` and checks the number. */
  round(r) {
    this.expect('round');
    const got = this.int('round number');
    if (got !== r) throw this.error(`expected round ${r}, found round ${got}`);
  }
}

/** Checks the board and player counts read from a header. */
export function checkSizes(rd, g) {
  if (g.nbPlayers < 1 || g.nbPlayers > 16) throw rd.error(`bad nb_players ${g.nbPlayers}`);
  if (g.nbRounds < 0) throw rd.error(`bad nb_rounds ${g.nbRounds}`);
  if (g.rows < 1 || g.cols < 1 || g.rows * g.cols > 1e6) {
    throw rd.error(`bad board size ${g.rows}x${g.cols}`);
  }
}

/**
 * Reads the moves that follow the state of a round: the game's keyword, then
 * "id dir" pairs until -1 (dir one of the game's direction letters).
 */
function readMoves(rd, g, game) {
  rd.expect(game.movesWord);
  const moves = [];
  for (;;) {
    const id = rd.int('unit id or -1');
    if (id === -1) return moves;
    if (id < 0 || id >= g.nbUnits) throw rd.error(`movement of unknown unit ${id}`);
    const dir = rd.next(`direction of unit ${id}`);
    if (dir.length !== 1 || !game.dirs.includes(dir)) {
      rd.pos--;
      throw rd.error(`unknown direction "${short(dir)}" for unit ${id}`);
    }
    moves.push({ id, dir });
  }
}

/**
 * parseTrace reads a whole trace with the module games.get(name) of the game
 * it names. Errors in the preamble, the header or the first state throw a
 * TraceError. A trace that breaks off later is kept up to its last complete
 * state, with complete = false and a warning: cut short when it simply ends
 * (an aborted game), damaged when a later token is wrong.
 *
 * The result holds the game module, the header (seed, settings, names, board
 * size, nbRounds), rounds[r] (the game's state of round r), scores[r] (one
 * score per player), moves[r] (the moves between rounds r and r + 1),
 * lastRound, complete, cut ({round, reason} when not complete) and warnings.
 */
export function parseTrace(text, games) {
  const rd = new Reader(text);
  if (rd.done()) throw new TraceError('the file is empty', 0);
  const kind = rd.next('"Game"');
  if (kind !== 'Game' && kind !== 'SecGame') {
    throw new TraceError(`not a game trace: it must start with "Game" or "SecGame", found "${short(kind)}"`, 1);
  }
  rd.expect('Seed');
  const seed = rd.int('seed');
  const name = rd.next('the name of the game');
  const game = games.get(name);
  if (!game) {
    rd.pos--;
    throw rd.error(`unknown game "${short(name)}": this viewer replays ${[...games.keys()].join(', ')}`);
  }
  const version = rd.next('game version');
  const g = {
    game, kind, seed, version,
    name: game.name,
    warnings: [],
    rounds: [],
    moves: [],
    scores: [],
    complete: true,
    cut: null,
  };
  if (version !== game.version) {
    g.warnings.push(`trace is for ${name} ${version}; this viewer knows version ${game.version}`);
  }
  game.readHeader(rd, g);
  let endOfLast = rd.pos; // token index just after the last complete state
  for (let r = 0; r <= g.nbRounds; r++) {
    let state = null;
    let moves = null;
    try {
      state = game.readState(rd, g, r);
      endOfLast = rd.pos;
      if (r < g.nbRounds) moves = readMoves(rd, g, game);
    } catch (err) {
      if (!(err instanceof TraceError)) throw err;
      if (state) {
        g.rounds.push(state);
        g.scores.push(game.score(g, state));
      }
      if (g.rounds.length === 0) {
        if (err.atEnd) throw new TraceError(`the game was cut short before its first complete state: ${err.message}`, 0);
        throw err;
      }
      cutShort(g, rd, text, err, endOfLast);
      break;
    }
    g.rounds.push(state);
    g.scores.push(game.score(g, state));
    if (moves) g.moves.push(moves);
  }
  if (g.complete && !rd.done()) {
    g.warnings.push(`ignored ${rd.tokens.length - rd.pos} unexpected tokens after the last round (line ${rd.line()})`);
  }
  g.lastRound = g.rounds.length - 1;
  g.moves.length = g.lastRound;
  return g;
}

/** Marks g as incomplete after err and explains why in a warning. */
function cutShort(g, rd, text, err, endOfLast) {
  // A file cut in the middle of a line may end with half a token: when the
  // last state used the very last token and no whitespace follows it, that
  // token may be partial, so the state is not trusted.
  if (err.atEnd && endOfLast === rd.tokens.length && !/\s$/.test(text) && g.rounds.length > 1) {
    g.rounds.pop();
    g.scores.pop();
  }
  const last = g.rounds.length - 1;
  g.complete = false;
  if (err.atEnd) {
    g.cut = { round: last, reason: 'cut short' };
    g.warnings.push(`Game cut short: the trace ends after round ${last} of ${g.nbRounds}, as an aborted game's does ` +
      `(${err.message}). Showing rounds 0-${last}; there is no winner.`);
  } else {
    g.cut = { round: last, reason: 'damaged' };
    g.warnings.push(`Trace damaged after round ${last} of ${g.nbRounds} (${err.message}). ` +
      `Showing rounds 0-${last}; there is no winner.`);
  }
}
