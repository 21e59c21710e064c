package pandemic

import (
	"fmt"
	"strings"

	"jgym/cppexport"
	"jgym/policy"
)

// CppTarget is Pandemic's side of an exported C++ player (package
// cppexport, "jgym export-cpp --game pandemic"): the signature of its
// policies, the kit's names, the C++ twin of Observer and the C++ twin of
// PolicyBot's orders, both written against the kit's player API only.
//
// A game on another board than the network's (70 x 70) counts as a game
// of 0 unit slots: the player then warns once and gives no orders, where
// the Go bot stops the game with policy.ErrSignature.
func CppTarget() cppexport.Target {
	sig := signature()
	rows, cols := sig.Inputs[0].Shape[1], sig.Inputs[0].Shape[2] // the board the network takes
	return cppexport.Target{
		Game: "Pandemic",
		// The kit's types, enumerators and free functions, the player API
		// (a player named after a member it calls would not compile), and
		// the encoder's constants.
		Reserved: []string{"Pos", "Cell", "Unit", "Command", "City", "Path", "Dir", "CellType", "BOTTOM", "RIGHT",
			"TOP", "LEFT", "NONE", "DIR_SIZE", "WALL", "GRASS", "CITY", "PATH", "CELL_TYPE_SIZE", "dir_ok",
			"int_to_string", "string_to_int", "me", "play", "factory", "round", "total_score", "status", "cell",
			"total_units", "unit", "nb_cities", "city", "city_owner", "nb_paths", "path", "path_owner", "my_units",
			"nb_players", "rows", "cols", "nb_rounds", "initial_health", "nb_units", "bonus_per_city_cell",
			"bonus_per_path_cell", "factor_connected_component", "infection_factor", "mask_protection",
			"player_ok", "pos_ok", "version", "move", "execute", "random", "random_permutation",
			"set_random_seed", "ENC_ROWS", "ENC_COLS", "ENC_MASK_PERIOD"},
		Members:   map[string]string{"board": "in_board_", "units": "in_units_", "globals": "in_globals_", "action_mask": "in_mask_"},
		SlotsExpr: fmt.Sprintf("rows() == %d && cols() == %d ? total_units() : 0", rows, cols),
		Encoder: strings.NewReplacer("BOARD_ROWS", fmt.Sprint(rows), "BOARD_COLS", fmt.Sprint(cols),
			"MASK_PERIOD", fmt.Sprint(MaskPeriod)).Replace(encoderCC),
		Act:       actCC,
		OptIn:     map[string]string{ExpertTensor: expertCC},
		Opponents: map[string]string{policy.OpponentsByScore: cppexport.ScoreOrderCC + opponentsByScoreCC},
	}
}

// opponentsByScoreCC relabels the opponents in the network's inputs by
// decreasing score, for a model whose opponent_order is score: the C++
// twin of OrderOpponentsByScore, run right after encode().
const opponentsByScoreCC = `
  // order_opponents: the twin of pandemic.OrderOpponentsByScore. The
  // opponents take rel 1, 2, 3 by decreasing score (globals 3..6) in
  // board planes 2 (unit) and 4 (conquest), the units' columns 1 (owner)
  // and 11 (conquest), and the five per-player blocks of globals.
  void order_opponents() {
    int nr[4];
    if (!opp_score_order(in_globals_ + 3, nr)) return;
    const int cells = ENC_ROWS * ENC_COLS;
    for (int x = 0; x < cells; ++x) {
      in_board_[2 * cells + x] = opp_code(nr, in_board_[2 * cells + x], 1);
      in_board_[4 * cells + x] = opp_code(nr, in_board_[4 * cells + x], 1);
    }
    for (int id = 0; id < U; ++id) {
      in_units_[id * 13 + 1] = opp_code(nr, in_units_[id * 13 + 1], 0);
      in_units_[id * 13 + 11] = opp_code(nr, in_units_[id * 13 + 11], 1);
    }
    for (int at = 3; at <= 19; at += 4) opp_floats(nr, in_globals_ + at);
  }
`

// actCC gives the orders from the logits, as PolicyBot does (the env's
// decoding with no action order): for each unit slot the direction with the
// largest logit (the lowest on a tie), given in increasing unit id for the
// units of mine, None left out.
const actCC = `
for (int id = 0; id < U; ++id) {
  const float* row = logits + id * 5;
  int best = 0;
  for (int d = 1; d < 5; ++d)
    if (row[d] > row[best]) best = d;
  if (best != NONE && unit(id).player == me()) move(id, Dir(best));
}
`

// encoderCC is the observation encoder of the exported player: the C++
// twin of Observer (env/pandemic/obs.go), written against the kit's player
// API only, so that it builds with the course kit as with jgym's. It fills
// the five network inputs exactly as the Go bot does, element for element
// (docs/observation.md, pandemic-obs-2; a network of pandemic-obs-1 takes
// the first four, and its player skips the targets tensor's searches); U is the number of unit slots,
// BOARD_ROWS x BOARD_COLS the network's board, MASK_PERIOD the rounds
// between two masks.
//
// Two globals need care. The list of masks on the ground is not in the
// player API: the encoder counts the cells with a mask, which the engine
// keeps as distinct positions (SPEC §8.11). The scores and the income go
// through log1p, which the encoder computes as Go's math.Log1p does, step
// for step (enc_log1p), rather than with the C library's, which may round
// the last bit differently.
const encoderCC = `
  // ---------------------------------------------------------------------
  // Observation (pandemic-obs-2, docs/observation.md): the twin of the Go
  // encoder, pandemic.Observer.

  enum { ENC_ROWS = BOARD_ROWS, ENC_COLS = BOARD_COLS, ENC_MASK_PERIOD = MASK_PERIOD };

  // enc_rel returns the relative index of player pl seen by me() (Rel).
  // It and its callers are not const: the course kit's me() is not.
  int enc_rel(int pl) { return (pl - me() + 4) % 4; }

  // enc_sat clamps x to 0..255 (sat).
  static int enc_sat(int x) { return x < 0 ? 0 : (x > 255 ? 255 : x); }

  // enc_conquest returns the conquest code of cell c: 0, else 1 + the
  // relative owner of its city or path (conquest).
  int enc_conquest(const Cell& c) {
    int o = -1;
    if (c.city_id >= 0)
      o = city_owner(c.city_id);
    else if (c.path_id >= 0)
      o = path_owner(c.path_id);
    return o < 0 ? 0 : 1 + enc_rel(o);
  }

  // enc_can_move reports whether the engine carries out the move of u in
  // direction d (0..3), executed first in the round (CanMove): the target
  // is on the board, not a wall, and not held by a unit of u's player.
  bool enc_can_move(const vector<Unit>& all, const Unit& u, int d) const {
    if (!pos_ok(u.pos)) return false;
    const Pos q = u.pos + Dir(d);
    if (!pos_ok(q)) return false;
    const Cell c = cell(q);
    if (c.type == WALL) return false;
    return c.unit_id < 0 || all[c.unit_id].player != u.player;
  }

  // enc_frac returns x / n in float, 0 when n is 0.
  static float enc_frac(int x, int n) { return n == 0 ? 0.0f : (float)x / (float)n; }

  // enc_component_points returns factor x 2^size wrapped to 32 bits, 0 from
  // size 63 (ComponentPoints, on Go's 64-bit int).
  static long long enc_component_points(int factor, int size) {
    if (size >= 63) return 0;
    const unsigned long long x = (unsigned long long)(long long)factor * (1ULL << size);
    const unsigned int lo = (unsigned int)x;
    return lo < 0x80000000u ? (long long)lo : (long long)lo - 0x100000000LL;
  }

  // enc_find returns the root of x, halving the path (State.Components).
  static int enc_find(vector<int>& parent, int x) {
    while (parent[x] != x) {
      parent[x] = parent[parent[x]];
      x = parent[x];
    }
    return x;
  }

  // enc_income returns the points player pl would score in a round if the
  // owners stayed as they are (State.Income): its cities, its paths, and
  // the connected components of its cities joined by its paths, found as
  // State.Components finds them.
  long long enc_income(int pl, const vector<int>& cown, const vector<int>& csize, const vector<int>& pown,
                       const vector<int>& pa, const vector<int>& pb, const vector<int>& plen) const {
    const int nc = int(cown.size()), np = int(pown.size());
    long long points = 0;
    for (int k = 0; k < nc; ++k)
      if (cown[k] == pl) points += (long long)bonus_per_city_cell() * csize[k];
    for (int k = 0; k < np; ++k)
      if (pown[k] == pl) points += (long long)bonus_per_path_cell() * plen[k];
    vector<int> parent(nc), size(nc, 0);
    bool owned = false;
    for (int k = 0; k < nc; ++k) {
      parent[k] = k;
      owned = owned || cown[k] == pl;
    }
    if (!owned) return points;
    for (int k = 0; k < np; ++k) {
      if (pown[k] != pl || cown[pa[k]] != pl || cown[pb[k]] != pl) continue;
      // The smaller root wins, so a root is its component's smallest id.
      const int a = enc_find(parent, pa[k]), b = enc_find(parent, pb[k]);
      if (a < b)
        parent[b] = a;
      else if (b < a)
        parent[a] = b;
    }
    for (int k = 0; k < nc; ++k)
      if (cown[k] == pl) ++size[enc_find(parent, k)];
    for (int k = 0; k < nc; ++k)
      if (size[k] > 0) points += enc_component_points(factor_connected_component(), size[k]);
    return points;
  }

  // enc_bits and enc_from_bits reinterpret a double.
  static unsigned long long enc_bits(double x) {
    unsigned long long b;
    memcpy(&b, &x, 8);
    return b;
  }
  static double enc_from_bits(unsigned long long b) {
    double x;
    memcpy(&x, &b, 8);
    return x;
  }

  // enc_log1p is Go's math.Log1p (FreeBSD's s_log1p.c as Go writes it),
  // operation for operation, for x >= 0 and finite, the only arguments
  // here, so that the globals are Go's to the last bit.
  static double enc_log1p(double x) {
    const double Sqrt2M1 = 4.142135623730950488017e-01;
    const double Small = 1.0 / 536870912.0;        // 2^-29
    const double Tiny = 1.0 / 18014398509481984.0;  // 2^-54
    const double Two53 = 9007199254740992.0;        // 2^53
    const double Ln2Hi = 6.93147180369123816490e-01;
    const double Ln2Lo = 1.90821492927058770002e-10;
    const double Lp1 = 6.666666666666735130e-01, Lp2 = 3.999999999940941908e-01, Lp3 = 2.857142874366239149e-01,
                 Lp4 = 2.222219843214978396e-01, Lp5 = 1.818357216161805012e-01, Lp6 = 1.531383769920937332e-01,
                 Lp7 = 1.479819860511658591e-01;
    double f = 0, c = 0;
    unsigned long long iu = 0;
    int k = 1;
    if (x < Sqrt2M1) {  // 0 <= x < sqrt(2) - 1
      if (x < Small) {
        if (x < Tiny) return x;
        return x - x * x * 0.5;
      }
      k = 0;
      f = x;
      iu = 1;
    }
    if (k != 0) {
      double u;
      if (x < Two53) {
        u = 1.0 + x;
        iu = enc_bits(u);
        k = int(iu >> 52) - 1023;
        if (k > 0)
          c = 1.0 - (u - x);
        else
          c = x - (u - 1.0);
        c /= u;
      } else {
        u = x;
        iu = enc_bits(u);
        k = int(iu >> 52) - 1023;
        c = 0;
      }
      iu &= 0x000fffffffffffffULL;
      if (iu < 0x0006a09e667f3bcdULL) {
        u = enc_from_bits(iu | 0x3ff0000000000000ULL);
      } else {
        ++k;
        u = enc_from_bits(iu | 0x3fe0000000000000ULL);
        iu = (0x0010000000000000ULL - iu) >> 2;
      }
      f = u - 1.0;
    }
    const double hfsq = 0.5 * f * f;
    if (iu == 0) {
      if (f == 0) {
        if (k == 0) return 0;
        c += double(k) * Ln2Lo;
        return double(k) * Ln2Hi + c;
      }
      const double R = hfsq * (1.0 - 0.66666666666666666 * f);
      if (k == 0) return f - R;
      return double(k) * Ln2Hi - ((R - (double(k) * Ln2Lo + c)) - f);
    }
    const double s = f / (2.0 + f);
    const double z = s * s;
    const double R = z * (Lp1 + z * (Lp2 + z * (Lp3 + z * (Lp4 + z * (Lp5 + z * (Lp6 + z * Lp7))))));
    if (k == 0) return f - (hfsq - s * (hfsq + R));
    return double(k) * Ln2Hi - ((hfsq - (s * (hfsq + R) + (double(k) * Ln2Lo + c))) - f);
  }

  // encode writes the observation of player me() into the network's inputs.
  void encode() {
    const int n = ENC_ROWS * ENC_COLS;
    vector<Unit> all(U);
    for (int id = 0; id < U; ++id) all[id] = unit(id);

    // Board: terrain, virus, unit, health, conquest, flags.
    long long* terrain = in_board_;
    long long* virus = in_board_ + n;
    long long* occupant = in_board_ + 2 * n;
    long long* health = in_board_ + 3 * n;
    long long* conq = in_board_ + 4 * n;
    long long* flags = in_board_ + 5 * n;
    int masks = 0;
    for (int i = 0; i < ENC_ROWS; ++i)
      for (int j = 0; j < ENC_COLS; ++j) {
        const int idx = i * ENC_COLS + j;
        const Cell c = cell(i, j);
        const bool ring = i >= 1 && i <= ENC_ROWS - 2 && j >= 1 && j <= ENC_COLS - 2 &&
                          (i == 1 || j == 1 || i == ENC_ROWS - 2 || j == ENC_COLS - 2);
        terrain[idx] = c.type;
        virus[idx] = c.virus;
        conq[idx] = enc_conquest(c);
        int f = (c.mask ? 1 : 0) | (ring ? 4 : 0);
        occupant[idx] = 0;
        health[idx] = 0;
        if (c.unit_id >= 0) {
          const Unit& u = all[c.unit_id];
          occupant[idx] = 1 + enc_rel(u.player);
          health[idx] = enc_sat(u.health);
          f |= (u.mask ? 2 : 0) | (u.damage > 0 ? 8 : 0) | (u.immune ? 16 : 0);
        }
        flags[idx] = f;
        if (c.mask) ++masks;
      }

    // Units: one row per slot, the unit with that id.
    for (int id = 0; id < U; ++id) {
      const Unit& u = all[id];
      long long* row = in_units_ + id * 13;
      const int r = enc_rel(u.player);
      row[0] = r == 0;
      row[1] = r;
      row[2] = enc_sat(u.health);
      row[5] = enc_sat(u.damage);
      row[6] = enc_sat(u.turns);
      row[7] = u.immune;
      row[8] = u.mask;
      row[3] = row[4] = row[9] = row[10] = row[11] = row[12] = 0;
      if (!pos_ok(u.pos)) continue;
      const Cell c = cell(u.pos);
      row[3] = enc_sat(u.pos.i);
      row[4] = enc_sat(u.pos.j);
      row[9] = c.type;
      row[10] = c.virus;
      row[11] = enc_conquest(c);
      int enemies = 0;
      for (int d = BOTTOM; d < NONE; ++d) {
        const Pos q = u.pos + Dir(d);
        if (!pos_ok(q)) continue;
        const int v = cell(q).unit_id;
        if (v >= 0 && all[v].player != u.player) ++enemies;
      }
      row[12] = enemies;
    }

    // Globals, in float and double as the Go encoder computes them.
    float* glob = in_globals_;
    const float nr = (float)nb_rounds();
    glob[0] = (float)round() / nr;
    glob[1] = (float)(nb_rounds() - round()) / nr;
    glob[2] = (round() + 1) % ENC_MASK_PERIOD == 0 && round() + 1 < nb_rounds() ? 1.0f : 0.0f;
    const int nc = nb_cities(), np = nb_paths();
    vector<int> cown(nc), csize(nc), pown(np), pa(np), pb(np), plen(np);
    int cities[4] = {0, 0, 0, 0}, paths[4] = {0, 0, 0, 0};
    for (int k = 0; k < nc; ++k) {
      cown[k] = city_owner(k);
      csize[k] = int(city(k).size());
      if (cown[k] >= 0) ++cities[cown[k]];
    }
    for (int k = 0; k < np; ++k) {
      const Path p = path(k);
      pown[k] = path_owner(k);
      pa[k] = p.first.first;
      pb[k] = p.first.second;
      plen[k] = int(p.second.size());
      if (pown[k] >= 0) ++paths[pown[k]];
    }
    for (int pl = 0; pl < 4; ++pl) {
      const int r = enc_rel(pl);
      const int score = total_score(pl);
      const long long income = enc_income(pl, cown, csize, pown, pa, pb, plen);
      glob[3 + r] = (float)(enc_log1p((double)(score > 0 ? score : 0)) / 16);
      glob[7 + r] = enc_frac(cities[pl], nc);
      glob[11 + r] = enc_frac(paths[pl], np);
      glob[15 + r] = enc_frac(int(my_units(pl).size()), U);
      glob[19 + r] = (float)(enc_log1p((double)(income > 0 ? income : 0)) / 16);
    }
    glob[23] = (float)masks / 10.0f;

    // Action mask: the moves CanMove accepts for the units of mine, None
    // always.
    for (int id = 0; id < U; ++id) {
      unsigned char* row = in_mask_ + id * 5;
      const Unit& u = all[id];
      for (int d = BOTTOM; d < NONE; ++d) row[d] = u.player == me() && enc_can_move(all, u, d);
      row[NONE] = 1;
    }

    // The targets tensor's searches: a network that does not take it
    // (pandemic-obs-1) skips them (cppexport.SkipMacro).
#ifndef JGYM_SKIP_TARGETS
    enc_targets(in_targets_, all);
#endif
  }

  // enc_field writes the walking distance from every cell to the nearest
  // of srcs (cell indices) into dist, -1 where unreachable: the
  // breadth-first search through non-wall cells of pasteurMap.field.
  static void enc_field(const vector<char>& wall, const vector<int>& srcs, vector<int>& dist, vector<int>& queue) {
    const int n = ENC_ROWS * ENC_COLS;
    dist.assign(n, -1);
    queue.clear();
    for (size_t k = 0; k < srcs.size(); ++k)
      if (dist[srcs[k]] < 0) {
        dist[srcs[k]] = 0;
        queue.push_back(srcs[k]);
      }
    for (size_t h = 0; h < queue.size(); ++h) {
      const int idx = queue[h], i = idx / ENC_COLS, j = idx % ENC_COLS, d = dist[idx] + 1;
      const int next[4] = {i + 1 < ENC_ROWS ? idx + ENC_COLS : -1, i > 0 ? idx - ENC_COLS : -1,
                           j + 1 < ENC_COLS ? idx + 1 : -1, j > 0 ? idx - 1 : -1};
      for (int k = 0; k < 4; ++k)
        if (next[k] >= 0 && dist[next[k]] < 0 && !wall[next[k]]) {
          dist[next[k]] = d;
          queue.push_back(next[k]);
        }
    }
  }

  // enc_targets writes the targets tensor (pandemic-obs-2): the twin of
  // Observer.Targets (targets.go). Per unit of mine on the board and per
  // target kind (cities needing units, paths needing units, such paths
  // between two of my cities, masks, enemy units): the steps that near
  // the kind's nearest cell, and whether it is within 2, 6 and 15 steps.
  void enc_targets(unsigned char* out, const vector<Unit>& all) {
    const int n = ENC_ROWS * ENC_COLS, K = 5, C = 7;
    memset(out, 0, (size_t)U * K * C);
    bool any = false;
    for (int id = 0; id < U; ++id) any = any || all[id].player == me();
    if (!any) return;
    vector<char> wall(n);
    vector<int> src[5];
    for (int i = 0; i < ENC_ROWS; ++i)
      for (int j = 0; j < ENC_COLS; ++j) {
        const Cell c = cell(i, j);
        wall[i * ENC_COLS + j] = c.type == WALL;
        if (c.mask) src[3].push_back(i * ENC_COLS + j);
      }
    const int nc = nb_cities(), np = nb_paths();
    vector<int> count((nc + np) * 4, 0);
    for (int id = 0; id < U; ++id) {
      const Unit& u = all[id];
      if (!pos_ok(u.pos)) continue;
      const Cell c = cell(u.pos);
      if (c.city_id >= 0)
        ++count[c.city_id * 4 + u.player];
      else if (c.path_id >= 0)
        ++count[(nc + c.path_id) * 4 + u.player];
      if (u.player != me()) src[4].push_back(u.pos.i * ENC_COLS + u.pos.j);
    }
    for (int t = 0; t < nc + np; ++t) {
      int strongest = 0;
      for (int pl = 0; pl < 4; ++pl)
        if (pl != me() && count[t * 4 + pl] > strongest) strongest = count[t * 4 + pl];
      const int owner = t < nc ? city_owner(t) : path_owner(t - nc);
      if (owner != me()) ++strongest;
      if (count[t * 4 + me()] >= strongest) continue;
      if (t < nc) {
        const City cells = city(t);
        for (size_t k = 0; k < cells.size(); ++k) src[0].push_back(cells[k].i * ENC_COLS + cells[k].j);
        continue;
      }
      const Path p = path(t - nc);
      const bool bridge = city_owner(p.first.first) == me() && city_owner(p.first.second) == me();
      for (size_t k = 0; k < p.second.size(); ++k) {
        const int idx = p.second[k].i * ENC_COLS + p.second[k].j;
        src[1].push_back(idx);
        if (bridge) src[2].push_back(idx);
      }
    }
    vector<int> dist, queue;
    for (int k = 0; k < K; ++k) {
      enc_field(wall, src[k], dist, queue);
      for (int id = 0; id < U; ++id) {
        const Unit& u = all[id];
        if (u.player != me() || !pos_ok(u.pos)) continue;
        const int cur = dist[u.pos.i * ENC_COLS + u.pos.j];
        if (cur < 0) continue;
        unsigned char* g = out + id * K * C + k * C;
        g[4] = cur <= 2;
        g[5] = cur <= 6;
        g[6] = cur <= 15;
        for (int d = BOTTOM; d < NONE; ++d) {
          const Pos q = u.pos + Dir(d);
          if (!pos_ok(q)) continue;
          const int f = dist[q.i * ENC_COLS + q.j];
          g[d] = f >= 0 && f < cur;
        }
      }
    }
  }
`
