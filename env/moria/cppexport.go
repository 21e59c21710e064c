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
		OptIn:     map[string]string{ExpertTensor: expertCC},
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
// the five network inputs exactly as the Go bot does, element for element
// (docs/observation.md, moria-obs-2; a network of moria-obs-1 takes the
// first four, and its player skips the targets tensor's searches); U is
// the number of unit slots.
//
// The unit table is read once per round. unit() is asked only for the
// units alive in the observed state (every dwarf and wizard, the trolls,
// the living orcs, the Balrog), so that the kit never prints a warning;
// a cell may hold the id of another unit (a dead orc slot, in principle),
// which reads as the Go encoder reads it: its type from the id ranges of
// SPEC §5.1, no clan, no health.
const encoderCC = `
  // ---------------------------------------------------------------------
  // Observation (moria-obs-2, docs/observation.md): the twin of the Go
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

    // The targets tensor's searches: a network that does not take it
    // (moria-obs-1) skips them (cppexport.SkipMacro).
#ifndef JGYM_SKIP_TARGETS
    tg_targets(in_targets_, all, b);
#endif
  }

  // ---------------------------------------------------------------------
  // The targets tensor (moria-obs-2): the twin of Observer.Targets
  // (targets.go), which runs the Balin bot's own code (balin.go,
  // balin_moves.go, balin_search.go): the same costs, the same searches
  // with the same bucket queue, in the same order, so that ties go the
  // same way.

  // tg_search is Balin's search: Dijkstra over the board with a ring of
  // 64 buckets (Dial's algorithm).
  struct tg_search {
    vector<int> dist, parent, src;
    vector<vector<int> > buckets;
    int n;
    const vector<char>* need;  // with left > 0: run stops once left of these are popped
    int left;
    tg_search() : dist(3600), parent(3600), src(3600), buckets(64), n(0), need(0), left(0) {}
    void reset() {
      for (int k = 0; k < 3600; ++k) dist[k] = 1 << 30;
      for (int k = 0; k < 64; ++k) buckets[k].clear();
      n = 0;
      need = 0;
      left = 0;
    }
    void push(int idx, int d, int par, int s) {
      if (d >= dist[idx]) return;
      dist[idx] = d;
      parent[idx] = par;
      src[idx] = s;
      buckets[d % 64].push_back(idx);
      ++n;
    }
    // run: enter[idx] is the cost of stepping into cell idx (0:
    // impossible); reverse runs from the targets towards the walkers; orth
    // allows orthogonal steps only; limit stops at that distance.
    void run(const vector<int>& enter, bool reverse, bool orth, int limit) {
      const int DI[8] = {1, 1, 0, -1, -1, -1, 0, 1};
      const int DJ[8] = {0, 1, 1, 1, 0, -1, -1, -1};
      const int step = orth ? 2 : 1;
      for (int d = 0; n > 0 && d <= limit; ++d) {
        vector<int>& b = buckets[d % 64];
        for (size_t k = 0; k < b.size(); ++k) {
          const int idx = b[k];
          --n;
          if (dist[idx] != d) continue;
          if (left > 0 && (*need)[idx]) {
            if (--left == 0) return;
          }
          int w = enter[idx];
          if (reverse && w == 0) continue;
          const int i = idx / 60, j = idx % 60;
          for (int dir = 0; dir < 8; dir += step) {
            const int a = i + DI[dir], c = j + DJ[dir];
            if (a < 0 || a >= 60 || c < 0 || c >= 60) continue;
            const int nb = a * 60 + c;
            if (!reverse) {
              w = enter[nb];
              if (w == 0) continue;
            }
            push(nb, d + w, idx, src[idx]);
          }
        }
        b.clear();
      }
    }
  };

  // tg_dir returns the direction from cell a to its neighbour c (8: none).
  static int tg_dir(int a, int c) {
    const int DI[8] = {1, 1, 0, -1, -1, -1, 0, 1};
    const int DJ[8] = {0, 1, 1, 1, 0, -1, -1, -1};
    for (int d = 0; d < 8; ++d)
      if (a / 60 + DI[d] == c / 60 && a % 60 + DJ[d] == c % 60) return d;
    return 8;
  }

  // BlBoard is the board as Balin reads it, once a round: each cell's
  // type, owner, turns, unit id and treasure, and Balin.markDanger's two
  // maps (where the Balrog at b may kill, and next to a troll). The targets
  // tensor and the expert tensor both start from it.
  struct BlBoard {
    vector<int> type, owner, turns, cid;
    vector<char> treasure, lethal, troll_adj;
  };

  // bl_board_now is bl_board of this round, made once whichever of the
  // two encoders asks first (all and b: the units and the Balrog's cell
  // of this round).
  BlBoard bl_;
  int bl_round_ = -1;
  const BlBoard& bl_board_now(const vector<Unit>& all, Pos b) {
    if (bl_round_ != round()) bl_board(bl_, all, b), bl_round_ = round();
    return bl_;
  }

  void bl_board(BlBoard& g, const vector<Unit>& all, Pos b) {
    const int DI[8] = {1, 1, 0, -1, -1, -1, 0, 1};
    const int DJ[8] = {0, 1, 1, 1, 0, -1, -1, -1};
    g.type.assign(3600, 0), g.owner.assign(3600, 0), g.turns.assign(3600, 0), g.cid.assign(3600, 0);
    g.treasure.assign(3600, 0), g.lethal.assign(3600, 0), g.troll_adj.assign(3600, 0);
    for (int i = 0; i < 60; ++i)
      for (int j = 0; j < 60; ++j) {
        const Cell c = cell(i, j);
        const int idx = i * 60 + j;
        g.type[idx] = c.type;
        g.owner[idx] = c.owner;
        g.turns[idx] = c.turns;
        g.cid[idx] = c.id;
        g.treasure[idx] = c.treasure;
      }
    const int bd[5] = {8, 0, 2, 4, 6};
    for (int k = 0; k < 5; ++k) {
      const int ci = b.i + (bd[k] == 8 ? 0 : DI[bd[k]]), cj = b.j + (bd[k] == 8 ? 0 : DJ[bd[k]]);
      if (ci < 0 || ci >= 60 || cj < 0 || cj >= 60) continue;
      for (int i = max(ci - 1, 0); i <= min(ci + 1, 59); ++i)
        for (int j = max(cj - 1, 0); j <= min(cj + 1, 59); ++j) g.lethal[i * 60 + j] = 1;
    }
    const vector<int> tr = trolls();
    for (size_t k = 0; k < tr.size(); ++k) {
      const Pos p = all[tr[k]].pos;
      for (int i = max(p.i - 1, 0); i <= min(p.i + 1, 59); ++i)
        for (int j = max(p.j - 1, 0); j <= min(p.j + 1, 59); ++j) g.troll_adj[i * 60 + j] = 1;
    }
  }

  // tg_targets writes the targets tensor: per unit slot of mine, for
  // Balin's assigned target (dwarves), the nearest target of any kind
  // (dwarves) and the wizards' way to the dwarves, the steps along it and
  // the bands of its cost.
  void tg_targets(unsigned char* out, const vector<Unit>& all, Pos b) {
    const int DI[8] = {1, 1, 0, -1, -1, -1, 0, 1};
    const int DJ[8] = {0, 1, 1, 1, 0, -1, -1, -1};
    const int K = 3, C = 11, F = K * C;
    memset(out, 0, (size_t)U * F);
    vector<int> dw, wz;  // my dwarves and wizards, in id order
    for (int id = 0; id < U; ++id)
      if (all[id].player == me()) (all[id].type == Dwarf ? dw : wz).push_back(id);
    if (dw.empty() && wz.empty()) return;
    const int left = nb_rounds() - round() - 1;

    // The board, once, and Balin.markDanger (bl_board).
    const BlBoard& g = bl_board_now(all, b);
    const vector<int>&type = g.type, &owner = g.owner, &turns = g.turns, &cid = g.cid;
    const vector<char>&treasure = g.treasure, &lethal = g.lethal, &troll_adj = g.troll_adj;

    // Balin.flee (the dwarves; the wizards flee after them and change
    // nothing below): a dwarf in danger with a free cell to flee to is busy.
    vector<char> busy(all.size(), 0), taken(3600, 0);
    for (size_t k = 0; k < dw.size(); ++k) {
      const Unit& u = all[dw[k]];
      const int here = u.pos.i * 60 + u.pos.j;
      if (!lethal[here] && !troll_adj[here]) continue;
      int best = 8, best_score = -(1 << 30);
      for (int d = 0; d < 8; ++d) {
        const int ti = u.pos.i + DI[d], tj = u.pos.j + DJ[d];
        if (ti < 0 || ti >= 60 || tj < 0 || tj >= 60) continue;
        const int t = ti * 60 + tj;
        if (cid[t] >= 0 || (type[t] != Cave && type[t] != Outside) || taken[t] ||
            max(abs(ti - b.i), abs(tj - b.j)) <= 1)
          continue;
        int score = 4 * (abs(ti - b.i) + abs(tj - b.j));
        if (lethal[t]) score -= 1000;
        if (troll_adj[t]) score -= 500;
        if (score > best_score) {
          best = d;
          best_score = score;
        }
      }
      if (best != 8) {
        taken[(u.pos.i + DI[best]) * 60 + u.pos.j + DJ[best]] = 1;
        busy[dw[k]] = 1;
      }
    }

    // Balin.attacks: a dwarf out of danger next to an enemy dwarf or
    // wizard (or, healthy, an orc) attacks and is busy.
    for (size_t k = 0; k < dw.size(); ++k) {
      const Unit& u = all[dw[k]];
      const int here = u.pos.i * 60 + u.pos.j;
      if (lethal[here] || troll_adj[here]) continue;
      bool found = false;
      for (int d = 0; d < 8 && !found; ++d) {
        const int ti = u.pos.i + DI[d], tj = u.pos.j + DJ[d];
        if (ti < 0 || ti >= 60 || tj < 0 || tj >= 60) continue;
        const int vid = cid[ti * 60 + tj];
        if (vid < 0) continue;
        const Unit& v = all[vid];
        const bool enemy = (v.type == Dwarf || v.type == Wizard) && v.player != me() && v.pos.i == ti && v.pos.j == tj;
        found = enemy || (v.type == Orc && u.health > 45);
      }
      if (found) busy[dw[k]] = 1;
    }

    // Balin.costs: the cost of a dwarf entering each cell and the value
    // of each target.
    vector<int> enter(3600, 0);
    vector<float> value(3600, 0.0f);
    const float late = (float)left / (float)nb_rounds();
    for (int idx = 0; idx < 3600; ++idx) {
      const int i = idx / 60, j = idx % 60;
      int cost = 0;
      if (type[idx] == Cave || type[idx] == Outside)
        cost = 1;
      else if (type[idx] == Rock)
        cost = turns[idx] + 1;
      if (cost == 0 || lethal[idx]) continue;
      if (abs(i - b.i) + abs(j - b.j) <= 6) cost += 4;
      if (troll_adj[idx]) cost += 8;
      if (cid[idx] >= 0) {
        const Unit& u = all[cid[idx]];
        if (u.type == Troll || u.type == Balrog || u.pos.i != i || u.pos.j != j)
          cost = 0;
        else if (u.player == me())
          cost += 1;
        else if (u.type == Orc)
          cost += 4;
        else {
          cost += 3;
          float v = 9.0f * (0.3f + late);
          if (u.type == Wizard) v *= 0.6f;
          value[idx] = v;
        }
      }
      enter[idx] = min(cost, 63);
      if (cost == 0) continue;
      if (type[idx] == Cave && treasure[idx])
        value[idx] += 11.0f;
      else if (type[idx] == Cave && owner[idx] != me() && owner[idx] >= 0)
        value[idx] += 1.3f;
      else if (type[idx] == Cave && owner[idx] < 0)
        value[idx] += 1.0f;
      else if (type[idx] == Rock) {
        bool cave = false;
        for (int d = 0; d < 8; d += 2) {
          const int a = i + DI[d], c = j + DJ[d];
          if (a >= 0 && a < 60 && c >= 0 && c < 60 && type[a * 60 + c] == Cave) cave = true;
        }
        if (cave) value[idx] += 0.8f;
      }
    }

    // Balin.assign: the search from the dwarves that are not busy; each
    // takes the best target, value over cost, of the cells it reaches first.
    tg_search q;
    q.reset();
    vector<int> free_dw;
    for (size_t k = 0; k < dw.size(); ++k)
      if (!busy[dw[k]]) {
        q.push(all[dw[k]].pos.i * 60 + all[dw[k]].pos.j, 0, -1, (int)free_dw.size());
        free_dw.push_back(dw[k]);
      }
    if (!free_dw.empty()) {
      q.run(enter, false, false, min(80, 2 * left + 2));
      vector<float> best(free_dw.size(), 0.0f);
      vector<int> target(free_dw.size(), -1);
      for (int idx = 0; idx < 3600; ++idx) {
        const int d = q.dist[idx];
        if (value[idx] == 0.0f || d == 0 || d == (1 << 30) || d > left + 1) continue;
        const int k = q.src[idx];
        const float sc = value[idx] / (float)(d + 1);
        if (sc > best[k]) {
          best[k] = sc;
          target[k] = idx;
        }
      }
      for (size_t k = 0; k < free_dw.size(); ++k) {
        int t = target[k];
        if (t < 0) continue;
        const int cost = q.dist[t];
        while (q.parent[t] >= 0 && q.parent[q.parent[t]] >= 0) t = q.parent[t];
        const Unit& u = all[free_dw[k]];
        unsigned char* g = out + free_dw[k] * F;
        const int d = tg_dir(u.pos.i * 60 + u.pos.j, t);
        if (d < 8) g[d] = 1;
        g[8] = cost <= 2;
        g[9] = cost <= 6;
        g[10] = cost <= 15;
      }
    }

    // Balin.targetSearch: from every target towards the dwarves, stopped
    // once every dwarf of mine is reached.
    if (!dw.empty()) {
      vector<char> need(3600, 0);
      for (size_t k = 0; k < dw.size(); ++k) need[all[dw[k]].pos.i * 60 + all[dw[k]].pos.j] = 1;
      q.reset();
      for (int idx = 0; idx < 3600; ++idx)
        if (value[idx] > 0.0f && enter[idx] > 0) q.push(idx, 0, -1, 0);
      q.need = &need;
      q.left = (int)dw.size();
      q.run(enter, true, false, 80);
      for (size_t k = 0; k < dw.size(); ++k) {
        const Unit& u = all[dw[k]];
        const int cur = q.dist[u.pos.i * 60 + u.pos.j];
        if (cur == (1 << 30) || cur == 0) continue;
        unsigned char* g = out + dw[k] * F + C;
        g[8] = cur <= 2;
        g[9] = cur <= 6;
        g[10] = cur <= 15;
        for (int d = 0; d < 8; ++d) {
          const int ti = u.pos.i + DI[d], tj = u.pos.j + DJ[d];
          if (ti < 0 || ti >= 60 || tj < 0 || tj >= 60) continue;
          const int t = ti * 60 + tj, w = enter[t];
          g[d] = w > 0 && q.dist[t] < (1 << 30) && w + q.dist[t] == cur;
        }
      }
    }

    // Balin.wizardSearch: from the free cells next to my dwarves (the
    // healthy ones 6 farther), orthogonal steps onto empty or my cells.
    if (!wz.empty()) {
      vector<int> wenter(3600, 0);
      for (int idx = 0; idx < 3600; ++idx)
        wenter[idx] = (type[idx] == Cave || type[idx] == Outside) && !lethal[idx] && !troll_adj[idx] &&
                      (cid[idx] < 0 || all[cid[idx]].player == me());
      q.reset();
      for (size_t k = 0; k < dw.size(); ++k) {
        const Unit& u = all[dw[k]];
        const int start = u.health >= 100 ? 6 : 0;
        for (int d = 0; d < 8; d += 2) {
          const int ti = u.pos.i + DI[d], tj = u.pos.j + DJ[d];
          if (ti >= 0 && ti < 60 && tj >= 0 && tj < 60 && wenter[ti * 60 + tj] > 0) q.push(ti * 60 + tj, start, -1, 0);
        }
      }
      vector<char> need(3600, 0);
      for (size_t k = 0; k < wz.size(); ++k) need[all[wz[k]].pos.i * 60 + all[wz[k]].pos.j] = 1;
      q.need = &need;
      q.left = (int)wz.size();
      q.run(wenter, true, true, 24);
      for (size_t k = 0; k < wz.size(); ++k) {
        const Unit& u = all[wz[k]];
        const int cur = q.dist[u.pos.i * 60 + u.pos.j];
        if (cur == (1 << 30)) continue;
        unsigned char* g = out + wz[k] * F + 2 * C;
        g[8] = cur <= 2;
        g[9] = cur <= 6;
        g[10] = cur <= 15;
        for (int d = 0; d < 8; d += 2) {
          const int ti = u.pos.i + DI[d], tj = u.pos.j + DJ[d];
          if (ti < 0 || ti >= 60 || tj < 0 || tj >= 60) continue;
          const int t = ti * 60 + tj;
          g[d] = wenter[t] > 0 && cid[t] < 0 && q.dist[t] < cur;
        }
      }
    }
  }
`
