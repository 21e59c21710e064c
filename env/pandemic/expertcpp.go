package pandemic

// expertCC is the exported player's twin of the expert tensor (expert.go):
// Pasteur's decision (pasteur.go, pasteur_map.go) in C++, written against
// the kit's player API only, emitted only in the players of models that
// take the tensor (cppexport.Target.OptIn). It follows Pasteur.Play step
// for step: the same needs, the same pairs sorted by (cost, unit,
// target), the same fields and the same order of the directions, so that
// it writes the tensor the Go encoder writes, element for element. It
// reads the masks in row-major order, as Pasteur does, and the map's
// distance fields are computed in the first round, as Pasteur computes
// them once a game. It uses enc_field, the encoder's breadth-first search
// (the same distances as pasteurMap.field).
const expertCC = `
  // ---------------------------------------------------------------------
  // The expert tensor (opt-in, docs/observation.md): the orders of jgym's
  // Pasteur bot for the units of me(), the twin of env/pandemic/pasteur.go.

  // The walking distances to each city and each path (pasteurMap), made
  // in the first round: the map never changes during a game.
  vector<vector<int> > px_city_, px_path_;
  vector<char> px_wall_;
  vector<int> px_queue_;

  // PxPair is a candidate assignment of a unit to a target (pasteurPair):
  // targets 0..nc-1 are cities, nc..nc+np-1 paths, then masks.
  struct PxPair {
    int cost, unit, target;
  };
  static bool px_less(const PxPair& x, const PxPair& y) {
    if (x.cost != y.cost) return x.cost < y.cost;
    if (x.unit != y.unit) return x.unit < y.unit;
    return x.target < y.target;
  }

  // px_step is Pasteur.step: the direction of one step down field from
  // cell here to a cell no unit of mine holds or claims, preferring less
  // virus (an enemy unit in the way counts 20), NONE when no step gets
  // closer. It claims the cell it steps to.
  int px_step(const vector<Cell>& grid, const vector<int>& field, vector<char>& claimed, int here) {
    const int cur = field[here];
    if (cur <= 0) return NONE;
    const Pos p(here / ENC_COLS, here % ENC_COLS);
    int best = NONE, best_score = 1 << 30, best_cell = -1;
    for (int d = BOTTOM; d < NONE; ++d) {
      const Pos q = p + Dir(d);
      if (!pos_ok(q)) continue;
      const int qi = q.i * ENC_COLS + q.j, f = field[qi];
      if (f < 0 || f >= cur || claimed[qi]) continue;
      int score = grid[qi].virus;
      if (grid[qi].unit_id >= 0) score += 20;
      if (score < best_score) {
        best = d;
        best_score = score;
        best_cell = qi;
      }
    }
    if (best != NONE) claimed[best_cell] = 1;
    return best;
  }

  // encode_expert writes the expert tensor: for each unit of me(), the
  // one-hot of the direction Pasteur orders it, NONE for no order; zero
  // rows for the other slots (Pasteur.Play and expertOrders.write).
  void encode_expert() {
    const int n = ENC_ROWS * ENC_COLS, me_ = me();
    memset(in_expert_, 0, (size_t)U * 5);
    vector<Unit> all(U);
    for (int id = 0; id < U; ++id) all[id] = unit(id);
    vector<Cell> grid(n);
    vector<int> masks;  // the cells with a mask, row-major
    for (int i = 0; i < ENC_ROWS; ++i)
      for (int j = 0; j < ENC_COLS; ++j) {
        grid[i * ENC_COLS + j] = cell(i, j);
        if (grid[i * ENC_COLS + j].mask) masks.push_back(i * ENC_COLS + j);
      }
    const int nc = nb_cities(), np = nb_paths();
    if (px_wall_.empty()) {
      px_wall_.assign(n, 0);
      for (int x = 0; x < n; ++x) px_wall_[x] = grid[x].type == WALL;
      px_city_.assign(nc, vector<int>());
      px_path_.assign(np, vector<int>());
      vector<int> srcs;
      for (int k = 0; k < nc; ++k) {
        const City c = city(k);
        srcs.clear();
        for (size_t e = 0; e < c.size(); ++e) srcs.push_back(c[e].i * ENC_COLS + c[e].j);
        enc_field(px_wall_, srcs, px_city_[k], px_queue_);
      }
      for (int k = 0; k < np; ++k) {
        const Path p = path(k);
        srcs.clear();
        for (size_t e = 0; e < p.second.size(); ++e) srcs.push_back(p.second[e].i * ENC_COLS + p.second[e].j);
        enc_field(px_wall_, srcs, px_path_[k], px_queue_);
      }
    }

    // 1. The units of each player on every city and path, and the units
    // of mine each one needs (count, unitsNeeded).
    vector<int> count((nc + np) * 4, 0), need(nc + np), held(nc + np, 0);
    vector<int> hunt_srcs;
    for (int id = 0; id < U; ++id) {
      const Unit& u = all[id];
      if (u.player != me_) hunt_srcs.push_back(u.pos.i * ENC_COLS + u.pos.j);
      if (!pos_ok(u.pos)) continue;
      const Cell& c = grid[u.pos.i * ENC_COLS + u.pos.j];
      if (c.city_id >= 0)
        ++count[c.city_id * 4 + u.player];
      else if (c.path_id >= 0)
        ++count[(nc + c.path_id) * 4 + u.player];
    }
    for (int t = 0; t < nc + np; ++t) {
      int strongest = 0;
      for (int pl = 0; pl < 4; ++pl)
        if (pl != me_ && count[t * 4 + pl] > strongest) strongest = count[t * 4 + pl];
      const int owner = t < nc ? city_owner(t) : path_owner(t - nc);
      need[t] = owner != me_ ? strongest + 1 : strongest;
    }

    // 2. The units where they are needed stay; my units block my moves.
    vector<int> target(U, -1), free_units;
    vector<char> claimed(n, 0);
    for (int id = 0; id < U; ++id) {
      if (all[id].player != me_) continue;
      const int idx = all[id].pos.i * ENC_COLS + all[id].pos.j;
      claimed[idx] = 1;
      const Cell& c = grid[idx];
      if (c.city_id >= 0 && held[c.city_id] < need[c.city_id]) {
        ++held[c.city_id];
        target[id] = c.city_id;
        continue;
      }
      if (c.path_id >= 0 && held[nc + c.path_id] < need[nc + c.path_id]) {
        ++held[nc + c.path_id];
        target[id] = nc + c.path_id;
        continue;
      }
      free_units.push_back(id);
    }

    // 3. Targets for the others, nearest pair first.
    vector<int> mask_dist, hunt;
    enc_field(px_wall_, masks, mask_dist, px_queue_);
    vector<char> bridge(np);  // the path joins two of my cities
    for (int k = 0; k < np; ++k) {
      const Path p = path(k);
      bridge[k] = city_owner(p.first.first) == me_ && city_owner(p.first.second) == me_;
    }
    vector<PxPair> pairs;
    for (size_t f = 0; f < free_units.size(); ++f) {
      const int id = free_units[f];
      const Unit& u = all[id];
      const int idx = u.pos.i * ENC_COLS + u.pos.j;
      for (int k = 0; k < nc; ++k)
        if (need[k] > held[k] && px_city_[k][idx] >= 0) {
          const PxPair pr = {px_city_[k][idx], id, k};
          pairs.push_back(pr);
        }
      for (int k = 0; k < np; ++k)
        if (need[nc + k] > held[nc + k] && px_path_[k][idx] >= 0) {
          const PxPair pr = {px_path_[k][idx] - (bridge[k] ? 8 : 0), id, nc + k};
          pairs.push_back(pr);
        }
      if (!u.mask && mask_dist[idx] >= 0 && mask_dist[idx] <= 6)
        for (size_t k = 0; k < masks.size(); ++k) {
          const int di = masks[k] / ENC_COLS - u.pos.i, dj = masks[k] % ENC_COLS - u.pos.j;
          if ((di < 0 ? -di : di) + (dj < 0 ? -dj : dj) <= 6) {
            const PxPair pr = {mask_dist[idx] + 3, id, nc + np + int(k)};
            pairs.push_back(pr);
          }
        }
    }
    sort(pairs.begin(), pairs.end(), px_less);
    vector<char> mask_taken(masks.size(), 0);
    for (size_t k = 0; k < pairs.size(); ++k) {
      const PxPair& pr = pairs[k];
      if (target[pr.unit] >= 0) continue;
      if (pr.target < nc + np) {
        if (held[pr.target] >= need[pr.target]) continue;
        ++held[pr.target];
      } else {
        if (mask_taken[pr.target - nc - np]) continue;
        mask_taken[pr.target - nc - np] = 1;
      }
      target[pr.unit] = pr.target;
    }

    // 4. The orders, unit by unit in increasing id (Pasteur.order).
    enc_field(px_wall_, hunt_srcs, hunt, px_queue_);
    for (int id = 0; id < U; ++id) {
      const Unit& u = all[id];
      if (u.player != me_) continue;
      const int here = u.pos.i * ENC_COLS + u.pos.j, t = target[id];
      unsigned char* row = in_expert_ + id * 5;
      const bool stay = t >= 0 && t < nc + np && (t < nc ? grid[here].city_id == t : grid[here].path_id == t - nc);
      int best = NONE, best_health = 1 << 30;
      for (int d = BOTTOM; d < NONE; ++d) {
        const Pos q = u.pos + Dir(d);
        if (!pos_ok(q)) continue;
        const int v = grid[q.i * ENC_COLS + q.j].unit_id;
        if (v < 0 || all[v].player == me_) continue;
        if (all[v].health < best_health) {
          best = d;
          best_health = all[v].health;
        }
      }
      if (best != NONE || stay) {
        row[best] = 1;
        continue;
      }
      const vector<int>* field = &hunt;
      const bool chase = hunt[here] >= 0 && hunt[here] <= 2;
      if (t >= 0 && !chase) field = t < nc ? &px_city_[t] : (t < nc + np ? &px_path_[t - nc] : &mask_dist);
      row[px_step(grid, *field, claimed, here)] = 1;
    }
  }
`
