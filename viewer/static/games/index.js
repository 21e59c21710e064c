// The games the viewer replays, registered by the name a trace gives after
// its "Game" / "Seed N" preamble.
//
// A game module is a plain object:
//
//   name, version      the word and version written in the trace
//                      ("Moria", "1.1"); another version only warns
//   movesWord, dirs    the keyword of the moves block between two states
//                      ("movements" or "commands") and its direction letters
//   readHeader(rd, g)  reads the settings and names with the Reader rd
//                      (parse.js) and sets g.settings, g.names, g.nbPlayers,
//                      g.nbRounds, g.rows, g.cols and g.nbUnits
//   readState(rd, g, r)  reads the state block of round r and returns it
//                      (any object; it is handed back to the functions below)
//   score(g, st)       the players' scores in state st (the chart, the panel)
//   scoreRule(g)       how the score is made, shown next to "Scores"
//   boards(g)          the boards to draw: [{tag, title}], one or two
//   boardHint(g, r, b) the caption hint of board b at round r
//   drawBoard(ctx, g, a, b, f, board, s, ox, oy)
//                      paints board `board` (cells of s pixels, top-left cell
//                      at ox, oy) at time a + f, where a and b are the states
//                      of the round and of the next one (b null at the end)
//   legend(g)          {groups: [[icon, label], ...][], note}; the icon
//                      'owned' stands for the four owned-cell tints
//   settings(g)        [[label, value], ...] for the Game panel
//   scoreDetail(g, r, p)   one line under player p's name at round r
//   describeCell(g, r, i, j, board)  {pos, what, units: [{group, text}]}
//                      for the tooltip
//
// Colours come from ../draw.js (PLAYER, OWNED) so the four players look the
// same in every game.

import crematoria from './crematoria.js';
import dominator from './dominator.js';
import pandemic from './pandemic.js';
import moria from './moria.js';

/** GAMES maps a game's name, as written in traces, to its module. */
export const GAMES = new Map();

/** Registers a game module under its name. */
export function registerGame(game) {
  GAMES.set(game.name, game);
}

for (const game of [crematoria, dominator, pandemic, moria]) registerGame(game);
