package moria

import (
	"jgym/cppexport"
	"jgym/policy"
)

// CppTarget is Moria's side of an exported C++ player (package cppexport,
// "jgym export-cpp --game Moria"): the kit's names, the C++ twin of
// Observer and the C++ twin of PolicyBot's orders (Def.Export adds the
// signature of its policies).
func CppTarget() cppexport.Target {
	return cppexport.Target{
		Game: "Moria",
		Reserved: []string{"Pos", "Cell", "Unit", "Movement", "Dir", "CellType", "UnitType", "Bottom", "BR", "Right",
			"RT", "Top", "TL", "Left", "LB", "None", "DirSize", "Outside", "Cave", "Abyss", "Granite", "Rock",
			"CellTypeSize", "Dwarf", "Wizard", "Orc", "Troll", "Balrog", "UnitTypeSize"},
		Members:   map[string]string{"board": "in_board_", "units": "in_units_", "globals": "in_globals_", "action_mask": "in_mask_"},
		SlotsExpr: "4 * (nb_dwarves() + nb_wizards())",
		Encoder:   encoderCC,
		Act:       actCC,
		ActOrders: map[string]string{policy.OrderAttacksFirst: actAttacksFirstCC},
		Opponents: map[string]string{policy.OpponentsByScore: cppexport.ScoreOrderCC + opponentsByScoreCC},
	}
}

// opponentsByScoreCC relabels the opponents in the network's inputs by
// decreasing score, for a model whose opponent_order is score: the C++
// twin of OrderOpponentsByScore, run right after encode().
const opponentsByScoreCC = `
  // order_opponents: the twin of moria.OrderOpponentsByScore. The
  // opponents take rel 1, 2, 3 by decreasing score (globals 2..5) in
  // board planes 1 (owner) and 4 (dwarves, wizards), the units' owners and
  // the four per-clan blocks of globals.
  void order_opponents() {
    int nr[4];
    if (!opp_score_order(in_globals_ + 2, nr)) return;
    for (int x = 0; x < 3600; ++x) {
      in_board_[3600 + x] = opp_code(nr, in_board_[3600 + x], 1);
      in_board_[14400 + x] = opp_code(nr, opp_code(nr, in_board_[14400 + x], 1), 5);
    }
    for (int id = 0; id < U; ++id) in_units_[id * 10 + 1] = opp_code(nr, in_units_[id * 10 + 1], 0);
    for (int at = 2; at <= 14; at += 4) opp_floats(nr, in_globals_ + at);
  }
`

// actAttacksFirstCC gives the orders as PolicyBot does for a model whose
// action_order is attacks_first: the same directions as actCC, the
// attacks (moria.Attacks) first, then the other commands, each group in
// increasing unit id.
const actAttacksFirstCC = `
vector<int> best(U, None);
for (int id = 0; id < U; ++id) {
  const float* row = logits + id * 9;
  int b = 0;
  for (int d = 1; d < 9; ++d)
    if (row[d] > row[b]) b = d;
  if (unit(id).player == me()) best[id] = b;
}
for (int pass = 0; pass < 2; ++pass)
  for (int id = 0; id < U; ++id) {
    if (best[id] == None) continue;
    Unit u = unit(id);
    bool attack = false;
    if (u.type == Dwarf) {
      Pos t = u.pos + Dir(best[id]);
      if (pos_ok(t)) {
        const int v = cell(t).id;
        attack = v >= 0 && v < U && unit(v).player != me();
      }
    }
    if (attack == (pass == 0)) command(id, Dir(best[id]));
  }
`

// actCC gives the orders from the logits, as PolicyBot does (the decoder
// with no action order): for each unit of mine, the direction with the
// largest logit (the lowest on a tie), None left out, in increasing unit
// id.
const actCC = `
for (int id = 0; id < U; ++id) {
  const float* row = logits + id * 9;
  int best = 0;
  for (int d = 1; d < 9; ++d)
    if (row[d] > row[best]) best = d;
  if (best != None && unit(id).player == me()) command(id, Dir(best));
}
`

// encoderCC is the observation encoder of the exported player: the C++
// twin of Observer (env/moria/obs.go), written against the kit's player
// API only, so that it builds with the course kit as with jgym's. It fills
// the four network inputs exactly as the Go bot does, element for element
// (docs/rules/moria.md, moria-obs-1); U is the number of unit slots.
//
// The unit table is read once per round. unit() is asked only for the
// units alive in the observed state (every dwarf and wizard, the trolls,
// the living orcs, the Balrog), so that the kit never prints a warning;
// a cell may hold the id of another unit (a dead orc slot, in principle),
// which reads as the Go encoder reads it: its type from the id ranges of
// SPEC §5.1, no clan, no health.
const encoderCC = `
  // ---------------------------------------------------------------------
  // Observation (moria-obs-1, docs/rules/moria.md): the twin of the Go
  // encoder, moria.Observer.

  // rel returns the relative index of clan g as seen by me().
  int rel(int g) const { return ((g - me() + 4) % 4 + 4) % 4; }

  // units_now returns the unit table of the round: unit() for the units
  // alive, the type of the id's range and no clan, health or position for
  // the others (empty orc slots).
  vector<Unit> units_now() const {
    const int n = nb_units();
    vector<char> alive(n, 0);
    for (int p = 0; p < 4; ++p) {
      const vector<int> d = dwarves(p), w = wizards(p);
      for (size_t k = 0; k < d.size(); ++k) alive[d[k]] = 1;
      for (size_t k = 0; k < w.size(); ++k) alive[w[k]] = 1;
    }
    const vector<int> o = orcs(), t = trolls();
    for (size_t k = 0; k < o.size(); ++k) alive[o[k]] = 1;
    for (size_t k = 0; k < t.size(); ++k) alive[t[k]] = 1;
    alive[balrog_id()] = 1;
    const int first_orc = 4 * (nb_dwarves() + nb_wizards());
    const int first_troll = first_orc + max_nb_orcs();
    vector<Unit> all(n);
    for (int id = 0; id < n; ++id) {
      if (alive[id]) {
        all[id] = unit(id);
        continue;
      }
      UnitType ty = Balrog;
      if (id < first_orc) ty = id % (nb_dwarves() + nb_wizards()) < nb_dwarves() ? Dwarf : Wizard;
      else if (id < first_troll) ty = Orc;
      else if (id < first_troll + nb_trolls()) ty = Troll;
      all[id] = Unit(ty, id, -1, 0, Pos(-1, -1));
    }
    return all;
  }

  // unit_code returns the board code of unit u (plane 4).
  int unit_code(const Unit& u) const {
    switch (u.type) {
      case Dwarf: return 1 + rel(u.player);
      case Wizard: return 5 + rel(u.player);
      case Orc: return 9;
      case Troll: return 10;
      default: return 11;
    }
  }

  // health_byte scales the health of u to 0..250 of its maximum (the
  // Balrog: 250) (plane 5).
  static int health_byte(const Unit& u) {
    int mx = 0;
    switch (u.type) {
      case Dwarf: mx = 100; break;
      case Wizard: mx = 50; break;
      case Orc: mx = 75; break;
      case Troll: mx = 500; break;
      default: return 250;
    }
    return max(0, min(u.health, mx)) * 250 / mx;
  }

  // stamp ors f into the flags of the cells within Chebyshev distance r of
  // p, clipped to the board.
  static void stamp(long long* flags, Pos p, int r, int f) {
    for (int i = max(p.i - r, 0); i <= min(p.i + r, 59); ++i)
      for (int j = max(p.j - r, 0); j <= min(p.j + r, 59); ++j) flags[i * 60 + j] |= f;
  }

  static int manhattan(Pos a, Pos b) { return abs(a.i - b.i) + abs(a.j - b.j); }

  // can_move reports whether the engine accepts and prints the move of u
  // in direction d, executed first in the round (moria.CanMove).
  bool can_move(const vector<Unit>& all, const Unit& u, int d) const {
    if (d == None) return true;
    if (u.health <= 0 || (u.type != Dwarf && u.type != Wizard) || (u.type == Wizard && d % 2 == 1)) return false;
    Pos t = u.pos + Dir(d);
    if (!pos_ok(t)) return false;
    Cell c = cell(t);
    if (c.id >= 0) {
      const Unit& v = all[c.id];
      return u.type == Dwarf && v.player != u.player && v.type != Balrog;
    }
    if (c.type == Granite) return false;
    if (c.type == Rock) return u.type == Dwarf;
    return true;
  }

  // encode writes the observation of clan me() into the network's inputs.
  void encode() {
    const vector<Unit> all = units_now();
    long long* board = in_board_;
    long long* units = in_units_;
    float* glob = in_globals_;
    unsigned char* mask = in_mask_;
    const Pos b = all[balrog_id()].pos;

    // Planes 0..5: terrain, owner, treasure, rock, unit, health.
    int treasures_left = 0;
    for (int i = 0; i < 60; ++i)
      for (int j = 0; j < 60; ++j) {
        const int idx = i * 60 + j;
        Cell c = cell(i, j);
        board[idx] = c.type;
        board[3600 + idx] = c.owner >= 0 ? 1 + rel(c.owner) : 0;
        board[7200 + idx] = c.treasure ? 1 : 0;
        board[10800 + idx] = c.type == Rock ? c.turns : 0;
        board[14400 + idx] = c.id >= 0 ? unit_code(all[c.id]) : 0;
        board[18000 + idx] = c.id >= 0 ? health_byte(all[c.id]) : 0;
        if (c.treasure) ++treasures_left;
      }

    // Plane 6: flags.
    long long* flags = board + 21600;
    for (int idx = 0; idx < 3600; ++idx) flags[idx] = 0;
    const int ds[5] = {None, Bottom, Right, Top, Left};
    for (int k = 0; k < 5; ++k) {
      Pos c = b + Dir(ds[k]);
      if (ds[k] == None || (pos_ok(c) && cell(c).type != Outside)) stamp(flags, c, 1, 1);
    }
    stamp(flags, b, 1, 2);
    for (int i = max(b.i - 4, 0); i <= min(b.i + 4, 59); ++i) {
      const int w = 4 - abs(i - b.i);
      for (int j = max(b.j - w, 0); j <= min(b.j + w, 59); ++j) flags[i * 60 + j] |= 16;
    }
    const vector<int> tr = trolls(), oc = orcs();
    for (size_t k = 0; k < tr.size(); ++k) stamp(flags, all[tr[k]].pos, 1, 4);
    for (size_t k = 0; k < oc.size(); ++k) stamp(flags, all[oc[k]].pos, 1, 8);
    for (int i = 0; i < 60; ++i)
      for (int j = 0; j < 60; ++j) {
        Cell c = cell(i, j);
        if (c.type == Abyss && c.id < 0 && manhattan(Pos(i, j), b) > 2) flags[i * 60 + j] |= 32;
      }

    // Units: one row per slot.
    for (int id = 0; id < U; ++id) {
      const Unit& u = all[id];
      long long* row = units + id * 10;
      const int r = rel(u.player);
      row[0] = r == 0;
      row[1] = r;
      row[2] = u.type;
      row[3] = max(0, min(u.health, 255));
      for (int k = 4; k < 10; ++k) row[k] = 0;
      if (!pos_ok(u.pos)) continue;
      row[4] = u.pos.i;
      row[5] = u.pos.j;
      row[6] = cell(u.pos).type;
      row[7] = min(manhattan(u.pos, b), 255);
      int enemies = 0, own = 0;
      for (int d = 0; d < 8; ++d) {
        Pos t = u.pos + Dir(d);
        if (!pos_ok(t)) continue;
        const int vid = cell(t).id;
        if (vid < 0) continue;
        const Unit& v = all[vid];
        if (v.player == u.player)
          ++own;
        else if (v.type != Balrog)
          ++enemies;
      }
      row[8] = enemies;
      row[9] = own;
    }

    // Globals, in float as the Go encoder computes them.
    const float nr = (float)nb_rounds();
    for (int k = 0; k < 24; ++k) glob[k] = 0.0f;
    glob[0] = (float)round() / nr;
    glob[1] = (float)(nb_rounds() - round()) / nr;
    for (int g = 0; g < 4; ++g) {
      const int r = rel(g);
      glob[2 + r] = (float)(nb_cells(g) + treasure_value() * nb_treasures(g)) / 1000.0f;
      glob[6 + r] = (float)nb_cells(g) / 1000.0f;
      glob[10 + r] = (float)nb_treasures(g) / 80.0f;
      glob[14 + r] = (float)(dwarves(g).size() + wizards(g).size()) / (float)(nb_dwarves() + nb_wizards());
    }
    glob[18] = (float)oc.size() / (float)max_nb_orcs();
    glob[19] = (float)b.i / 60.0f;
    glob[20] = (float)b.j / 60.0f;
    glob[21] = (float)treasures_left / 80.0f;
    glob[22] = (float)treasure_value() / 10.0f;
    glob[23] = (float)rock_resistance() / 5.0f;

    // Action mask: None always, the other directions for the units of mine.
    for (int id = 0; id < U; ++id) {
      unsigned char* row = mask + id * 9;
      const Unit& u = all[id];
      for (int d = 0; d < 8; ++d) row[d] = u.player == me() && can_move(all, u, d);
      row[8] = 1;
    }
  }
`
