package dominator

import (
	"fmt"
	"strings"

	"jgym/cppexport"
	"jgym/policy"
)

// CppTarget is Dominator's side of an exported C++ player (package
// cppexport, "jgym export-cpp"; Def.Export adds the signature of its
// policies): the kit's names, the C++ twin of Observer and the C++ twin of PolicyBot's orders,
// both written against the kit's public API only, on the rotated view the
// player sees (SPEC §3.4).
//
// A game on another board than the network's (37 x 37) counts as a game
// of 0 unit slots: the player then warns once and gives no orders, where
// the Go bot stops the game with an error.
func CppTarget() cppexport.Target {
	n := signature().Inputs[0].Shape[1] // the board side the network takes
	return cppexport.Target{
		Game: "Dominator",
		Reserved: []string{"Pos", "Cell", "Unit", "Movement", "Dir", "CellType", "UnitType", "Bottom", "BR", "Right",
			"RT", "Top", "TL", "Left", "LB", "None", "DirSize", "Empty", "Wall", "CellTypeSize", "Farmer", "Knight",
			"Witch", "UnitTypeSize", "BOARD_N"},
		Members: map[string]string{"board": "in_board_", "units": "in_units_", "globals": "in_globals_",
			"action_mask": "in_mask_", "move_mask": "in_move_mask_", "targets": "in_targets_"},
		SlotsExpr: fmt.Sprintf("rows() == %d && cols() == %d ? 4 * (nb_farmers() + nb_knights() + nb_witches()) : 0", n, n),
		Encoder:   strings.ReplaceAll(encoderCC, "BOARD_SIDE", fmt.Sprint(n)),
		Act:       actCC,
		OptIn:     map[string]string{ExpertTensor: expertCC},
		Opponents: map[string]string{policy.OpponentsByScore: cppexport.ScoreOrderCC + opponentsByScoreCC},
	}
}

// opponentsByScoreCC relabels the opponents in the network's inputs by
// decreasing score, for a model whose opponent_order is score: the C++
// twin of OrderOpponentsByScore, run right after encode().
const opponentsByScoreCC = `
  // order_opponents: the twin of dominator.OrderOpponentsByScore. The
  // opponents take rel 1, 2, 3 by decreasing total score (globals 6..9)
  // in board planes 1 (owner) and 2 (unit 1 + 3 rel + type), the units'
  // owners and the four per-player blocks of globals.
  void order_opponents() {
    int nr[4];
    if (!opp_score_order(in_globals_ + 6, nr)) return;
    const int cells = BOARD_N * BOARD_N;
    for (int x = 0; x < cells; ++x) {
      long long* owner = in_board_ + cells + x;
      long long* unit = in_board_ + 2 * cells + x;
      *owner = opp_code(nr, *owner, 1);
      if (*unit >= 1 && *unit <= 12) *unit = 1 + 3 * nr[(*unit - 1) / 3] + (*unit - 1) % 3;
    }
    for (int id = 0; id < U; ++id) in_units_[id * 8 + 1] = opp_code(nr, in_units_[id * 8 + 1], 0);
    for (int at = 2; at <= 14; at += 4) opp_floats(nr, in_globals_ + at);
  }
`

// actCC gives the orders from the logits, as PolicyBot does (the env's
// decoder with no action_order): for every unit slot the direction with the largest
// logit (the lowest on a tie); the legal ones other than None, in
// increasing unit id.
const actCC = `
for (int id = 0; id < U; ++id) {
  const float* row = logits + id * 9;
  int best = 0;
  for (int d = 1; d < 9; ++d)
    if (row[d] > row[best]) best = d;
  if (best != None && enc_legal(id, best)) command(id, Dir(best));
}
`

// encoderCC is the observation encoder of the exported player: the C++
// twin of Observer (env/dominator/obs.go), written against the kit's
// player API only, so that it builds with the course kit as with jgym's.
// It fills the six network inputs exactly as the Go bot does, element
// for element (docs/observation.md, dominator-obs-2; a network of
// dominator-obs-1 takes the first five, and its player skips the targets
// tensor's searches); U is the number of unit slots, BOARD_SIDE the
// network's board side.
//
// The player sees its rotated view, where it is player 0 and its box the
// top-left one: that is the egocentric frame of the observation, so most
// values are read as they are. Only lost units (SPEC §8.9), which the view
// leaves with their real player number, need the player's seat; it is
// the block of ids its first witch belongs to (SPEC §5.1). With no
// witches and a lost unit the units tensor would differ from the Go bot's.
const encoderCC = `
  // ---------------------------------------------------------------------
  // Observation (dominator-obs-2, docs/observation.md): the twin of the
  // Go encoder, dominator.Observer, on the rotated view.

  enum { BOARD_N = BOARD_SIDE };  // the board side of the network

  // enc_on_grid reports whether unit u stands on the board where it says
  // (lost units do not).
  bool enc_on_grid(const Unit& u) const { return pos_ok(u.pos) && cell(u.pos).id == u.id; }

  // enc_health returns the health of u in percent of its type's maximum.
  int enc_health(const Unit& u) const {
    if (u.type == Witch) return 100;
    int h = 100 * (u.health < 0 ? 0 : u.health) / (u.type == Farmer ? farmers_health() : knights_health());
    return h < 100 ? h : 100;
  }

  // enc_legal reports whether the engine keeps direction d for unit id:
  // None always; for my units on the board the orthogonal directions, and
  // the diagonal ones for knights (dominator.Legal).
  bool enc_legal(int id, int d) const {
    if (d == None) return true;
    if (d < 0 || d > None) return false;
    Unit u = unit(id);
    return u.player == 0 && enc_on_grid(u) && (d % 2 == 0 || u.type == Knight);
  }

  // enc_works reports whether the legal move of unit u in direction d
  // would be printed if it were the only command (dominator.Works).
  bool enc_works(const Unit& u, int d) const {
    if (d == None) return true;
    if (!enc_legal(u.id, d)) return false;
    Pos t = u.pos + Dir(d);
    if (!pos_ok(t)) return false;
    Cell c = cell(t);
    if (c.type == Wall) return false;
    if (c.id < 0) return u.type == Witch || !c.haunted;
    Unit v = unit(c.id);
    return u.type == Knight && v.type != Witch && v.player != u.player;
  }

  // enc_stamp ors bit into the threat flags of the cells within Manhattan
  // distance r of p.
  void enc_stamp(vector<int>& threat, Pos p, int r, int bit) const {
    for (int x = -r; x <= r; ++x) {
      int ax = x < 0 ? -x : x;
      for (int y = -r + ax; y <= r - ax; ++y)
        if (pos_ok(p.i + x, p.j + y)) threat[(p.i + x) * BOARD_N + p.j + y] |= bit;
    }
  }

  // encode writes the observation of this player into the network's
  // inputs.
  void encode() {
    const int n = BOARD_N, cells = BOARD_N * BOARD_N;
    vector<Unit> us(U);
    for (int id = 0; id < U; ++id) us[id] = unit(id);
    vector<bool> on(U);
    for (int id = 0; id < U; ++id) on[id] = enc_on_grid(us[id]);

    // Threat flags: 1 near a sleeping witch, 2 within reach of an enemy
    // witch, 4 next to an enemy knight, 8 my box.
    vector<int> threat(cells, 0);
    for (int p = 0; p < 4; ++p) {
      const vector<int> W = witches(p);
      for (size_t x = 0; x < W.size(); ++x) {
        const Unit& w = us[W[x]];
        if (!on[W[x]]) continue;
        if (!w.active) enc_stamp(threat, w.pos, 2, 1);
        if (p != 0) enc_stamp(threat, w.pos, 3, 2);
      }
    }
    for (int id = 0; id < U; ++id) {
      const Unit& u = us[id];
      if (u.type != Knight || u.player == 0 || !on[id]) continue;
      for (int d = 0; d < 8; ++d) {
        Pos q = u.pos + Dir(d);
        if (pos_ok(q)) threat[q.i * n + q.j] |= 4;
      }
    }
    for (int i = 1; i <= n / 2 - 2; ++i)
      for (int j = 1; j <= n / 2 - 2; ++j) threat[i * n + j] |= 8;

    // Board planes: terrain, owner, unit, health, haunted, threat.
    long long* b = in_board_;
    int open = 0;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        const int k = i * n + j;
        Cell c = cell(i, j);
        b[k] = c.type != Wall;
        open += c.type != Wall;
        b[cells + k] = c.owner < 0 ? 0 : 1 + c.owner;
        b[2 * cells + k] = 0;
        b[3 * cells + k] = 0;
        if (c.id >= 0) {
          const Unit& u = us[c.id];
          b[2 * cells + k] = 1 + 3 * u.player + u.type;
          b[3 * cells + k] = enc_health(u);
        }
        b[4 * cells + k] = c.haunted;
        b[5 * cells + k] = threat[k];
      }

    // Units: one row per unit id. A lost unit keeps its real player
    // number in the view: turn it with my seat.
    int me = 0;
    if (nb_witches() > 0) me = witches(0)[0] / (nb_witches() + nb_knights() + nb_farmers());
    for (int id = 0; id < U; ++id) {
      const Unit& u = us[id];
      long long* row = in_units_ + id * 8;
      const int r = on[id] ? u.player : (u.player - me + 8) % 4;
      row[0] = r == 0;
      row[1] = r;
      row[2] = u.type;
      row[3] = enc_health(u);
      row[4] = on[id] ? u.pos.i : 0;
      row[5] = on[id] ? u.pos.j : 0;
      row[6] = on[id];
      row[7] = u.type == Witch && u.active;
    }

    // Globals, in float as the Go encoder computes them.
    float* g = in_globals_;
    const float nr = (float)nb_rounds();
    g[0] = (float)round() / nr;
    g[1] = (float)(nb_rounds() - round()) / nr;
    if (open < 1) open = 1;
    const float units = (float)(U > 0 ? U : 1);
    for (int p = 0; p < 4; ++p) {
      g[2 + p] = (float)land(p) / (float)open;
      g[6 + p] = (float)total_score(p) / ((float)open * (nr + 1));
      g[10 + p] = (float)farmers(p).size() / units;
      g[14 + p] = (float)knights(p).size() / units;
    }

    // Masks: the directions the engine keeps, and those that would work.
    for (int id = 0; id < U; ++id)
      for (int d = 0; d < 9; ++d) {
        in_mask_[id * 9 + d] = enc_legal(id, d);
        in_move_mask_[id * 9 + d] = enc_works(us[id], d);
      }

    // The targets tensor's searches: a network that does not take it
    // (dominator-obs-1) skips them (cppexport.SkipMacro).
#ifndef JGYM_SKIP_TARGETS
    enc_targets(in_targets_, us, on);
#endif
  }

  // enc_field writes into dist the walking distance from every cell to
  // the nearest of srcs (cell indices) over the cells pass allows (the
  // sources always count), orthogonally or in eight directions, -1 where
  // unreachable: dominator.Walker.Field.
  void enc_field(const vector<char>& pass, const vector<int>& srcs, bool diag, vector<int>& dist,
                 vector<int>& queue) const {
    const int n = BOARD_N;
    dist.assign(n * n, -1);
    queue.clear();
    for (size_t k = 0; k < srcs.size(); ++k)
      if (dist[srcs[k]] < 0) {
        dist[srcs[k]] = 0;
        queue.push_back(srcs[k]);
      }
    for (size_t h = 0; h < queue.size(); ++h) {
      const int c = queue[h];
      for (int d = 0; d < 8; d += diag ? 1 : 2) {
        Pos q = Pos(c / n, c % n) + Dir(d);
        if (!pos_ok(q)) continue;
        const int x = q.i * n + q.j;
        if (dist[x] >= 0 || !pass[x]) continue;
        dist[x] = dist[c] + 1;
        queue.push_back(x);
      }
    }
  }

  // enc_nearest returns the Manhattan distance from p to the nearest of
  // ps (1 << 30 if none).
  static int enc_nearest(Pos p, const vector<Pos>& ps) {
    int best = 1 << 30;
    for (size_t k = 0; k < ps.size(); ++k) {
      const int di = p.i - ps[k].i, dj = p.j - ps[k].j;
      const int d = (di < 0 ? -di : di) + (dj < 0 ? -dj : dj);
      if (d < best) best = d;
    }
    return best;
  }

  // enc_targets writes the targets tensor (dominator-obs-2): the twin of
  // Observer.Targets (targets.go). Per unit of mine on the board, by its
  // type: farmers walk to cells to paint, knights to the cells next to
  // prey (eight directions), witches to the enemy farmers and knights
  // near my farmers and knights (Manhattan); the directions that step
  // one nearer, and whether the nearest is within 1, 3, 7 and 15 steps.
  void enc_targets(unsigned char* out, const vector<Unit>& us, const vector<bool>& on) {
    const int n = BOARD_N, cells = BOARD_N * BOARD_N, F = 12, MAXD = 40;
    memset(out, 0, (size_t)U * F);
    bool has[3] = {false, false, false};
    for (int id = 0; id < U; ++id)
      if (on[id] && us[id].player == 0) has[us[id].type] = true;
    if (!has[0] && !has[1] && !has[2]) return;
    // Flags: 1 within 2 of a sleeping witch, 2 within 3 of an active
    // enemy witch, 4 next to an enemy knight, 8 haunted (within 2 of an
    // active witch). at: the unit on the board standing on each cell.
    vector<int> flag(cells, 0), at(cells, -1);
    for (int p = 0; p < 4; ++p) {
      const vector<int> W = witches(p);
      for (size_t x = 0; x < W.size(); ++x) {
        const Unit& w = us[W[x]];
        if (!on[W[x]]) continue;
        if (!w.active) {
          enc_stamp(flag, w.pos, 2, 1);
          continue;
        }
        enc_stamp(flag, w.pos, 2, 8);
        if (p != 0) enc_stamp(flag, w.pos, 3, 2);
      }
    }
    for (int id = 0; id < U; ++id)
      if (on[id]) at[us[id].pos.i * n + us[id].pos.j] = id;
    vector<Pos> prey, hunted;
    for (int id = 0; id < U; ++id) {
      const Unit& u = us[id];
      if (!on[id] || u.player == 0 || u.type == Witch) continue;
      prey.push_back(u.pos);
      if (u.type == Knight)
        for (int d = 0; d < 8; ++d) {
          Pos q = u.pos + Dir(d);
          if (pos_ok(q)) flag[q.i * n + q.j] |= 4;
        }
    }
    vector<char> pass(cells);
    vector<int> srcs, dist, queue;
    for (int k = Farmer; k <= Knight; ++k) {
      if (!has[k]) continue;
      srcs.clear();
      for (int c = 0; c < cells; ++c) {
        const Cell x = cell(c / n, c % n);
        const bool open = x.type != Wall;
        const int f = flag[c], a = at[c];
        const bool mine = a >= 0 && us[a].player == 0 && us[a].type == k;
        const bool enemy = a >= 0 && us[a].player != 0;
        pass[c] = mine || (open && !(f & 9) && !enemy);
        bool src = false;
        if (k == Farmer)
          src = open && a < 0 && x.owner != 0 && !(f & 15);
        else if (open && a < 0)
          for (int d = 0; d < 8 && !src; ++d) {
            Pos q = Pos(c / n, c % n) + Dir(d);
            if (!pos_ok(q)) continue;
            const int v = at[q.i * n + q.j];
            src = v >= 0 && us[v].player != 0 && us[v].type != Witch;
          }
        if (src) srcs.push_back(c);
      }
      enc_field(pass, srcs, k == Knight, dist, queue);
      for (int id = 0; id < U; ++id) {
        const Unit& u = us[id];
        if (!on[id] || u.player != 0 || u.type != k) continue;
        const int d = dist[u.pos.i * n + u.pos.j];
        if (d < 0 || d > MAXD) continue;
        unsigned char* row = out + id * F;
        for (int v = 0; v < 8 && d > 0; v += k == Knight ? 1 : 2) {
          Pos q = u.pos + Dir(v);
          if (pos_ok(q) && dist[q.i * n + q.j] == d - 1) row[v] = 1;
        }
        row[8] = d <= 1;
        row[9] = d <= 3;
        row[10] = d <= 7;
        row[11] = d <= 15;
      }
    }
    if (!has[Witch]) return;
    for (size_t x = 0; x < prey.size(); ++x) {
      bool near = false;
      for (int id = 0; id < U && !near; ++id) {
        const Unit& u = us[id];
        if (!on[id] || u.player != 0 || u.type == Witch) continue;
        const int di = u.pos.i - prey[x].i, dj = u.pos.j - prey[x].j;
        near = (di < 0 ? -di : di) + (dj < 0 ? -dj : dj) <= 8;
      }
      if (near) hunted.push_back(prey[x]);
    }
    if (hunted.empty()) hunted = prey;
    for (int id = 0; id < U; ++id) {
      const Unit& u = us[id];
      if (!on[id] || u.player != 0 || u.type != Witch) continue;
      const int d = enc_nearest(u.pos, hunted);
      if (d > MAXD) continue;
      unsigned char* row = out + id * F;
      for (int v = 0; v < 8 && d > 0; v += 2) {
        Pos q = u.pos + Dir(v);
        if (pos_ok(q) && cell(q).type != Wall && enc_nearest(q, hunted) == d - 1) row[v] = 1;
      }
      row[8] = d <= 1;
      row[9] = d <= 3;
      row[10] = d <= 7;
      row[11] = d <= 15;
    }
  }
`
