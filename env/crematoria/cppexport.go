package crematoria

import (
	"jgym/cppexport"
	"jgym/policy"
)

// CppTarget is Crematoria's side of an exported C++ player (package
// cppexport, "jgym export-cpp"): the signature of its policies, the kit's
// names, the C++ twin of Observer and the C++ twin of PolicyBot's orders.
func CppTarget() cppexport.Target {
	return cppexport.Target{
		Game: "Crematoria",
		Reserved: []string{"Pos", "Cell", "Unit", "Movement", "Dir", "CellType", "UnitType", "Bottom", "BR", "Right",
			"RT", "Top", "TL", "Left", "LB", "Up", "Down", "None", "DirSize", "Outside", "Cave", "Rock", "Elevator",
			"CellTypeSize", "Pioneer", "Furyan", "Necromonger", "Hellhound", "UnitTypeSize"},
		Members:   map[string]string{"board": "in_board_", "units": "in_units_", "globals": "in_globals_", "action_mask": "in_mask_", "paths": "in_paths_", "sun_paths": "in_sun_paths_"},
		SlotsExpr: "4 * (nb_furyans() + nb_pioneers())",
		Encoder:   encoderCC,
		Act:       actCC,
		ActOrders: map[string]string{policy.OrderAttacksFirst: actAttacksFirstCC},
		Opponents: map[string]string{policy.OpponentsByScore: opponentsByScoreCC},
	}
}

// opponentsByScoreCC relabels the opponents in the network's inputs by
// decreasing score, for a model whose opponent_order is score: the C++
// twin of OrderOpponentsByScore, run right after encode().
const opponentsByScoreCC = `
  // ---------------------------------------------------------------------
  // Opponents by score (opponent_order "score", docs/observation.md): the
  // twin of crematoria.OrderOpponentsByScore. The opponents, rel 1..3,
  // are ordered by decreasing score (globals 3..6, as float), ties by
  // increasing rel, and take rel 1, 2, 3 in that order in the board's
  // level planes, the units' owners and the globals.
  void order_opponents() {
    long long* board = in_board_;
    long long* units = in_units_;
    float* glob = in_globals_;
    int order[3] = {1, 2, 3};
    for (int i = 1; i < 3; ++i)
      for (int j = i; j > 0 && glob[3 + order[j]] > glob[3 + order[j - 1]]; --j) {
        const int o = order[j];
        order[j] = order[j - 1];
        order[j - 1] = o;
      }
    int nr[4] = {0, 0, 0, 0};                                  // new rel by old
    for (int k = 0; k < 3; ++k) nr[order[k]] = 1 + k;
    if (nr[1] == 1 && nr[2] == 2 && nr[3] == 3) return;

    // Planes 0 and 1: terrain | unit << 3; owned caves on level 0 only.
    for (int x = 0; x < 6400; ++x) {
      const long long c = board[x];
      int t = (int)(c & 7), u = (int)((c >> 3) & 15);
      if (u >= 1 && u <= 4) u = 1 + nr[u - 1];                 // Pioneer
      else if (u >= 5 && u <= 8) u = 5 + nr[u - 5];            // Furyan
      if (x < 3200 && t >= 3 && t <= 6) t = 3 + nr[t - 3];     // owned cave
      board[x] = (c & ~127LL) | u << 3 | t;
    }

    // Units: the rel owner.
    for (int id = 0; id < U; ++id) {
      long long* row = units + id * 8;
      if (row[1] >= 0 && row[1] < 4) row[1] = nr[row[1]];
    }

    // Globals: the scores, cells and gems of each rel.
    for (int base = 3; base <= 11; base += 4) {
      float v[4];
      for (int r = 0; r < 4; ++r) v[r] = glob[base + r];
      for (int r = 0; r < 4; ++r) glob[base + nr[r]] = v[r];
    }
  }
`

// actAttacksFirstCC gives the orders as PolicyBot does for a model whose
// action_order is attacks_first: the same directions as actCC, the
// attacks (crematoria.Attacks) first, then the other commands, each group
// in increasing unit id.
const actAttacksFirstCC = `
vector<int> best(U, None);
for (int id = 0; id < U; ++id) {
  const float* row = logits + id * 11;
  int b = 0;
  for (int d = 1; d < 11; ++d)
    if (row[d] > row[b]) b = d;
  if (unit(id).player == me()) best[id] = b;
}
for (int pass = 0; pass < 2; ++pass)
  for (int id = 0; id < U; ++id) {
    if (best[id] == None) continue;
    Unit u = unit(id);
    bool attack = false;
    if (u.type == Furyan) {
      Pos t = u.pos + Dir(best[id]);
      if (pos_ok(t)) {
        Cell c = cell(t);
        attack = c.id >= 0 && c.id < U && unit(c.id).player != me();
      }
    }
    if (attack == (pass == 0)) command(id, Dir(best[id]));
  }
`

// actCC gives the orders from the logits, as PolicyBot does: for each unit
// of mine, the direction with the largest logit (the lowest on a tie),
// None left out, in increasing unit id.
const actCC = `
for (int id = 0; id < U; ++id) {
  const float* row = logits + id * 11;
  int best = 0;
  for (int d = 1; d < 11; ++d)
    if (row[d] > row[best]) best = d;
  if (best != None && unit(id).player == me()) command(id, Dir(best));
}
`

// encoderCC is the observation encoder of the exported player: the C++
// twin of Observer (env/crematoria/obs.go), written against the
// kit's player API only, so that it builds with the course kit as with
// jgym's. It fills the six network inputs exactly as the Go bot does,
// element for element (docs/observation.md, crematoria-obs-3); U is the
// number of unit slots.
//
// Unit codes come from the id ranges of SPEC §5.1 (ids below U are the
// Pioneers and Furyans, then the necromonger slots, then the hellhounds)
// and from unit() only for Pioneers and Furyans, which are alive in every
// observed state, so that the kit never prints a warning.
const encoderCC = `
  // ---------------------------------------------------------------------
  // Observation (crematoria-obs-3, docs/observation.md): the twin of the
  // Go encoder, crematoria.Observer.

  // rel returns the relative index of group g as seen by me().
  int rel(int g) const { return (g - me() + 4) % 4; }

  // unit_code returns the board code (bits 3-6) of the unit with id.
  int unit_code(int id) const {
    if (id < U) {
      Unit u = unit(id);
      return (u.type == Furyan ? 5 : 1) + rel(u.player);
    }
    return id >= U + max_nb_necromongers() ? 9 : 10;  // hellhound, necromonger
  }

  // stamp ors f into the flags of the cells within Chebyshev distance r of
  // p (rows clipped, columns wrapped).
  static void stamp(long long* flags, Pos p, int r, int f) {
    for (int a = -r; a <= r; ++a) {
      int i = p.i + a;
      if (i < 0 || i >= 40) continue;
      for (int b = -r; b <= r; ++b) flags[i * 80 + (p.j + b + 160) % 80] |= f;
    }
  }

  // can_move reports whether the engine accepts moving u in direction d,
  // executed first in the round (crematoria.CanMove).
  bool can_move(const Unit& u, Dir d) const {
    Pos t = u.pos + d;
    if (!pos_ok(t)) return false;
    if ((d == Up || d == Down) && cell(u.pos).type != Elevator) return false;
    Cell tc = cell(t);
    if (tc.id < 0) return tc.type != Rock;
    if (tc.id >= U) {                                          // no group
      if (tc.id >= U + max_nb_necromongers()) return true;   // hellhound
      return u.type != Pioneer;                              // necromonger
    }
    if (unit(tc.id).player == u.player) return false;
    return u.type != Pioneer;
  }

  // cells_ is the board of this round, cell k * 3200 + i * 80 + j, read
  // from the kit once per round by encode: the searches below read each
  // cell many times.
  Cell cells_[6400];

  // at returns the cell at (i, j, k) of cells_.
  const Cell& at(int i, int j, int k) const { return cells_[k * 3200 + i * 80 + j]; }

  // encode writes the observation of seat me() into the network's inputs.
  void encode() {
    for (int x = 0; x < 6400; ++x) cells_[x] = cell(x % 3200 / 80, x % 80, x / 3200);
    long long* board = in_board_;
    long long* units = in_units_;
    float* glob = in_globals_;
    unsigned char* mask = in_mask_;

    // Planes 0 and 1: terrain | unit << 3.
    for (int i = 0; i < 40; ++i)
      for (int j = 0; j < 80; ++j) {
        const Cell& c = at(i, j, 0);
        int t = 0;                                             // Rock
        if (c.type == Cave) t = c.owner >= 0 ? 3 + rel(c.owner) : 1;
        else if (c.type == Elevator) t = 2;
        if (c.id >= 0) t |= unit_code(c.id) << 3;
        board[i * 80 + j] = t;
        const Cell& d = at(i, j, 1);
        int s = d.type == Elevator ? 2 : (d.gem ? 1 : 0);      // Outside: 0
        if (d.id >= 0) s |= unit_code(d.id) << 3;
        board[3200 + i * 80 + j] = s;
      }

    // Plane 2: flags.
    long long* flags = board + 6400;
    int col[80];
    for (int j = 0; j < 80; ++j) col[j] = daylight(Pos(0, j, 1)) ? 1 : 0;
    const int t1 = (2 * round()) % 80, n1 = (t1 + 40) % 80;
    col[t1] |= 2;
    col[(t1 + 1) % 80] |= 2;
    col[n1] |= 4;
    col[(n1 + 1) % 80] |= 4;
    for (int i = 0; i < 40; ++i)
      for (int j = 0; j < 80; ++j) flags[i * 80 + j] = col[j];
    const vector<int> necros = necromongers();
    for (size_t q = 0; q < necros.size(); ++q) {
      Unit u = unit(necros[q]);
      if (u.turns <= 0 || u.health <= 0 || !pos_ok(u.pos)) continue;
      flags[u.pos.i * 80 + u.pos.j] |= u.turns == 1 ? 24 : 8;  // descending (8), lands now (16)
    }
    const vector<int> hounds = hellhounds();
    for (size_t q = 0; q < hounds.size(); ++q) {
      Pos p = unit(hounds[q]).pos;
      if (!pos_ok(p)) continue;
      stamp(flags, p, 3, 64);
      stamp(flags, p, 1, 32);
    }

    // Units: one row per slot.
    for (int id = 0; id < U; ++id) {
      Unit u = unit(id);
      long long* row = units + id * 8;
      const int r = rel(u.player);
      row[0] = r == 0;
      row[1] = r;
      row[2] = u.type == Furyan;
      row[3] = u.health < 0 ? 0 : u.health;
      if (pos_ok(u.pos)) {
        row[4] = u.pos.i;
        row[5] = u.pos.j;
        row[6] = u.pos.k;
        row[7] = cell(u.pos).type == Elevator;
      } else {
        row[4] = row[5] = row[6] = row[7] = 0;
      }
    }

    // Globals, in float as the Go encoder computes them.
    const float nr = (float)nb_rounds();
    glob[0] = (float)round() / nr;
    glob[1] = (float)(nb_rounds() - round()) / nr;
    glob[2] = (float)t1 / 80.0f;
    for (int g = 0; g < 4; ++g) {
      const int r = rel(g);
      glob[3 + r] = (float)(nb_cells(g) + gem_value() * nb_gems(g)) / 1000.0f;
      glob[7 + r] = (float)nb_cells(g) / 1000.0f;
      glob[11 + r] = (float)nb_gems(g) / 10.0f;
    }
    glob[15] = (float)necros.size() / (float)max_nb_necromongers();

    // The searches of paths and sun_paths are most of the encoder's work:
    // a network that does not take them skips them (cppexport.SkipMacro).
#ifndef JGYM_SKIP_PATHS
    paths(in_paths_);
#endif
#ifndef JGYM_SKIP_SUN_PATHS
    sun_paths(in_sun_paths_);
#endif

    // Action mask: None always, the rest for the units of mine.
    for (int id = 0; id < U; ++id) {
      unsigned char* row = mask + id * 11;
      Unit u = unit(id);
      const bool mine = u.player == me() && u.health > 0 && pos_ok(u.pos);
      for (int d = 0; d < 10; ++d) row[d] = mine && can_move(u, Dir(d));
      row[10] = 1;
    }
  }

  // ---------------------------------------------------------------------
  // The paths tensor (crematoria-obs-2): the twin of Observer.Paths
  // (env/crematoria/paths.go), with a queue instead of bitboards. Cell
  // index k * 3200 + i * 80 + j; dist_ is 255 beyond 63 moves.
  unsigned char dist_[6][6400];
  int queue_[6400];

  // is_source reports whether cell x (level k) is a source of field f.
  bool is_source(int f, const Cell& c, int k) const {
    switch (f) {
      case 0: return k == 0 && c.type == Cave && c.owner != me();  // a cave not mine
      case 1: return k == 1 && c.gem;                              // a gem
      case 2: return k == 0 && c.type == Cave && c.owner < 0;      // an unowned cave
      case 3: case 4:                                              // an enemy Pioneer, Furyan
        if (c.id < 0 || c.id >= U) return false;
        return unit(c.id).player != me() && (unit(c.id).type == Furyan) == (f == 4);
      default: return c.type == Elevator;
    }
  }

  void search(int f) {
    unsigned char* d = dist_[f];
    int n = 0;
    for (int x = 0; x < 6400; ++x) {
      const Cell& c = cells_[x];
      d[x] = 255;
      if (c.type != Rock && is_source(f, c, x / 3200)) {
        d[x] = 0;
        queue_[n++] = x;
      }
    }
    for (int h = 0; h < n; ++h) {
      const int x = queue_[h], k = x / 3200, i = x % 3200 / 80, j = x % 80;
      if (d[x] >= 63) break;
      const int cols[3] = {j == 0 ? 79 : j - 1, j, j == 79 ? 0 : j + 1};  // columns wrap
      for (int a = -1; a <= 1; ++a) {
        if (i + a < 0 || i + a >= 40) continue;
        const int base = k * 3200 + (i + a) * 80;
        for (int b = 0; b < 3; ++b) {
          const int y = base + cols[b];
          if (d[y] == 255 && cells_[y].type != Rock) {
            d[y] = d[x] + 1;
            queue_[n++] = y;
          }
        }
      }
      if (cells_[x].type == Elevator) {
        const int y = x + (k == 0 ? 3200 : -3200);
        if (d[y] == 255) {
          d[y] = d[x] + 1;
          queue_[n++] = y;
        }
      }
    }
  }

  // paths writes the paths tensor: for each unit of mine and field f, the
  // directions 0..9 onto nearer cells (columns f*11+d), then the distance
  // thresholds reached (columns 66+f*11+k).
  void paths(unsigned char* out) {
    const int thresholds[11] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48};
    for (int x = 0; x < U * 132; ++x) out[x] = 0;
    for (int f = 0; f < 6; ++f) search(f);
    for (int id = 0; id < U; ++id) {
      Unit u = unit(id);
      if (u.player != me() || u.health <= 0 || !pos_ok(u.pos)) continue;
      unsigned char* row = out + id * 132;
      const int i = u.pos.i, j = u.pos.j, k = u.pos.k, x = k * 3200 + i * 80 + j;
      const bool elevator = cell(u.pos).type == Elevator;
      const int di[8] = {1, 1, 0, -1, -1, -1, 0, 1}, dj[8] = {0, 1, 1, 1, 0, -1, -1, -1};
      for (int f = 0; f < 6; ++f) {
        const unsigned char* d = dist_[f];
        for (int q = 0; q < 8; ++q) {
          if (i + di[q] < 0 || i + di[q] >= 40) continue;
          row[f * 11 + q] = d[k * 3200 + (i + di[q]) * 80 + (j + dj[q] + 80) % 80] < d[x];
        }
        if (elevator) row[f * 11 + (k == 0 ? 8 : 9)] = d[k == 0 ? x + 3200 : x - 3200] < d[x];
        for (int q = 0; q < 11; ++q) row[66 + f * 11 + q] = d[x] >= thresholds[q];
      }
    }
  }

  // ---------------------------------------------------------------------
  // The sun_paths tensor (crematoria-obs-3): the twin of Observer.SunPaths
  // (env/crematoria/sunpaths.go). Values are 127 beyond 63 or never
  // reached; left_[j] is the rounds before level-1 column j burns, -1 in
  // daylight.
  signed char left_[80];
  bool allowed_[6400];
  signed char escape_[6400], trip_[6400];
  vector<int> src_[21];

  // run fills val with the delayed-source search from src_ (start values
  // -20..0 at index v + 20), clearing src_; on level 1 only unless levels.
  void run(signed char* val, bool levels) {
    for (int x = 0; x < 6400; ++x) val[x] = 127;
    vector<int> cur, next;
    int pending = 0;
    for (int b = 0; b <= 20; ++b) pending += src_[b].size();
    for (int v = -20; v <= 63; ++v) {
      if (v <= 0) {
        vector<int>& b = src_[v + 20];
        for (int x : b)
          if (val[x] == 127) {
            val[x] = v;
            cur.push_back(x);
          }
        pending -= b.size();
        b.clear();
      }
      if ((cur.empty() && pending == 0) || v == 63) break;
      next.clear();
      for (int x : cur) {
        const int k = x / 3200, i = x % 3200 / 80, j = x % 80;
        const int cols[3] = {j == 0 ? 79 : j - 1, j, j == 79 ? 0 : j + 1};  // columns wrap
        for (int a = -1; a <= 1; ++a) {
          if (i + a < 0 || i + a >= 40) continue;
          const int base = k * 3200 + (i + a) * 80;
          for (int b = 0; b < 3; ++b) {
            const int y = base + cols[b];
            if (allowed_[y] && val[y] == 127) {
              val[y] = v + 1;
              next.push_back(y);
            }
          }
        }
        if (levels && cells_[x].type == Elevator) {
          const int y = k == 0 ? x + 3200 : x - 3200;
          if (allowed_[y] && val[y] == 127) {
            val[y] = v + 1;
            next.push_back(y);
          }
        }
      }
      cur.swap(next);
    }
    for (int b = 0; b <= 20; ++b) src_[b].clear();
  }

  // sun_write sets field f's columns of the unit at (i, j, k).
  void sun_write(int f, const signed char* val, int i, int j, int k, unsigned char* row) {
    const int thresholds[11] = {-16, -12, -8, -6, -4, -3, -2, -1, 0, 1, 4};
    const int di[8] = {1, 1, 0, -1, -1, -1, 0, 1}, dj[8] = {0, 1, 1, 1, 0, -1, -1, -1};
    const int x = k * 3200 + i * 80 + j, v = val[x];
    for (int q = 0; q < 8; ++q) {
      if (i + di[q] < 0 || i + di[q] >= 40) continue;
      const int w = val[k * 3200 + (i + di[q]) * 80 + (j + dj[q] + 80) % 80];
      row[f * 11 + q] = w != 127 && w < v;
    }
    if (cells_[x].type == Elevator) {
      if (k == 1) row[f * 11 + 9] = f == 0 || (val[x - 3200] != 127 && val[x - 3200] < v);  // Down escapes
      else row[f * 11 + 8] = val[x + 3200] != 127 && val[x + 3200] < v;
    }
    for (int q = 0; q < 11; ++q) row[22 + f * 11 + q] = v >= thresholds[q];
  }

  // sun_paths writes the sun_paths tensor: for each unit of mine, the
  // escape field (level 1 only) and the gem trip field.
  void sun_paths(unsigned char* out) {
    for (int x = 0; x < U * 44; ++x) out[x] = 0;
    bool any = false;
    for (int id = 0; id < U; ++id) {
      Unit u = unit(id);
      if (u.player == me() && u.health > 0 && pos_ok(u.pos)) any = true;
    }
    if (!any) return;
    const int t1 = 2 * round() % 80;
    for (int j = 0; j < 80; ++j) {
      const int o = (j - t1 + 80) % 80;
      left_[j] = o < 40 ? o / 2 : -1;
    }
    for (int x = 0; x < 3200; ++x) {
      allowed_[x] = cells_[x].type != Rock;
      allowed_[3200 + x] = cells_[3200 + x].type != Rock && left_[x % 80] >= 0;
    }
    for (int j = 0; j < 80; ++j)
      if (left_[j] >= 0)
        for (int i = 0; i < 40; ++i)
          if (at(i, j, 1).type == Elevator) src_[20 - left_[j]].push_back(3200 + i * 80 + j);
    run(escape_, false);
    for (int x = 3200; x < 6400; ++x) {
      const int j = x % 80;
      if (!cells_[x].gem || left_[j] < 0 || escape_[x] > 0) continue;
      const int latest = min((int)left_[j], -(int)escape_[x]);
      src_[20 - latest].push_back(x);
    }
    run(trip_, true);
    for (int id = 0; id < U; ++id) {
      Unit u = unit(id);
      if (u.player != me() || u.health <= 0 || !pos_ok(u.pos)) continue;
      unsigned char* row = out + id * 44;
      if (u.pos.k == 1) sun_write(0, escape_, u.pos.i, u.pos.j, 1, row);
      sun_write(1, trip_, u.pos.i, u.pos.j, u.pos.k, row);
    }
  }
`
