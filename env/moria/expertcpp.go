package moria

// expertCC is the exported player's twin of the expert tensor (expert.go):
// Balin's decision (balin.go, balin_moves.go, balin_search.go) in C++,
// written against the kit's player API only, emitted only in the players
// of models that take the tensor (cppexport.Target.OptIn). It follows
// Balin.Play step for step for clan me(): the danger, the flights (dwarves
// then wizards), the attacks, the costs and values of the cells, the
// dwarves' search and targets, the idle dwarves' search from every target,
// the wizards' search, with the same lists in the same order, the same
// single-precision values and the same tie-breaks. It uses the targets
// tensor's search (tg_search: Dial's algorithm with the same bucket
// order, equal to Balin's searches, fwdSearch included: a cell's cost of
// entering does not depend on where it is entered from, so the first
// cell to reach it is on a cheapest way) and computes the cells' costs
// anew every round, as Balin's costsCell does (Balin's cache between
// rounds, balinCells, gives the same numbers). The directions it finds
// are the tensor: TestCppExportExpertPlaysAsPolicyBot compares it with the
// Go encoder's, element for element, every round. Names: bx_.
const expertCC = `
  // ---------------------------------------------------------------------
  // The expert tensor (opt-in, docs/observation.md): the orders of jgym's
  // Balin bot for my dwarves and wizards, the twin of env/moria/balin*.go.

  // bx_order records Balin's order for unit id (Balin.add).
  void bx_order(vector<char>& busy, int id, int d) {
    busy[id] = 1;
    unsigned char* row = in_expert_ + id * 9;
    memset(row, 0, 9);
    row[d] = 1;
  }

  // encode_expert writes the expert tensor: None for my dwarves and
  // wizards, then Balin's order for those it commands (Balin.Play).
  void encode_expert() {
    if (U == 0) return;
    const int DI[8] = {1, 1, 0, -1, -1, -1, 0, 1};
    const int DJ[8] = {0, 1, 1, 1, 0, -1, -1, -1};
    memset(in_expert_, 0, (size_t)U * 9);
    const vector<Unit> all = units_now();
    const Pos b = all[balrog_id()].pos;
    const int left = nb_rounds() - round() - 1;
    vector<int> dw, wz;  // my dwarves and wizards, in id order (State.Dwarves, Wizards)
    for (int id = 0; id < U; ++id)
      if (all[id].player == me()) {
        (all[id].type == Dwarf ? dw : wz).push_back(id);
        in_expert_[id * 9 + 8] = 1;
      }

    // The board, and Balin.markDanger (bl_board, shared with the targets encoder).
    const BlBoard& g = bl_board_now(all, b);
    const vector<int>&type = g.type, &owner = g.owner, &turns = g.turns, &cid = g.cid;
    const vector<char>&treasure = g.treasure, &lethal = g.lethal, &troll_adj = g.troll_adj;

    // Balin.flee: the dwarves, then the wizards (orthogonal steps only).
    vector<char> busy(all.size(), 0), taken(3600, 0);
    for (int pass = 0; pass < 2; ++pass) {
      const vector<int>& list = pass == 0 ? dw : wz;
      for (size_t k = 0; k < list.size(); ++k) {
        const Unit& u = all[list[k]];
        const int here = u.pos.i * 60 + u.pos.j;
        if (busy[list[k]] || (!lethal[here] && !troll_adj[here])) continue;
        int best = 8, best_score = -(1 << 30);
        for (int d = 0; d < 8; ++d) {
          if (u.type == Wizard && d % 2 == 1) continue;
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
          bx_order(busy, list[k], best);
        }
      }
    }

    // Balin.attacks: the weakest enemy dwarf or wizard next to a dwarf out
    // of danger, else (healthy) the weakest orc.
    for (size_t k = 0; k < dw.size(); ++k) {
      const Unit& u = all[dw[k]];
      const int here = u.pos.i * 60 + u.pos.j;
      if (lethal[here] || troll_adj[here]) continue;
      int best = 8, best_hp = 1 << 30;
      for (int d = 0; d < 8; ++d) {
        const int ti = u.pos.i + DI[d], tj = u.pos.j + DJ[d];
        if (ti < 0 || ti >= 60 || tj < 0 || tj >= 60) continue;
        const int vid = cid[ti * 60 + tj];
        int hp = 1 << 30;
        if (vid >= 0) {
          const Unit& v = all[vid];
          if ((v.type == Dwarf || v.type == Wizard) && v.player != me() && v.pos.i == ti && v.pos.j == tj)
            hp = v.health;
          else if (v.type == Orc && u.health > 45)
            hp = 1000 + v.health;
        }
        if (hp < best_hp) {
          best = d;
          best_hp = hp;
        }
      }
      if (best != 8) bx_order(busy, dw[k], best);
    }

    // Balin.costs (costsCell): the cost of a dwarf entering each cell and
    // the value of each target.
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
      float v = 0.0f;
      if (cid[idx] >= 0) {
        const Unit& u = all[cid[idx]];
        if (u.type == Troll || u.type == Balrog || u.pos.i != i || u.pos.j != j) continue;
        if (u.player == me())
          cost += 1;
        else if (u.type == Orc)
          cost += 4;
        else {
          cost += 3;
          v = 9.0f * (0.3f + late);
          if (u.type == Wizard) v *= 0.6f;
        }
      }
      enter[idx] = min(cost, 63);
      if (type[idx] == Cave && treasure[idx])
        v += 11.0f;
      else if (type[idx] == Cave && owner[idx] != me() && owner[idx] >= 0)
        v += 1.3f;
      else if (type[idx] == Cave && owner[idx] < 0)
        v += 1.0f;
      else if (type[idx] == Rock) {
        bool cave = false;
        for (int d = 0; d < 8; d += 2) {
          const int a = i + DI[d], c = j + DJ[d];
          if (a >= 0 && a < 60 && c >= 0 && c < 60 && type[a * 60 + c] == Cave) cave = true;
        }
        if (cave) v += 0.8f;
      }
      value[idx] = v;
    }

    vector<int> idle;                 // the dwarves whose region holds no target
    vector<int> go(all.size(), -1);  // the first step of the others
    vector<int> order;                // the others, in id order
    tg_search q;
    q.reset();
    vector<int> free_dw;
    for (size_t k = 0; k < dw.size(); ++k)
      if (!busy[dw[k]]) {
        q.push(all[dw[k]].pos.i * 60 + all[dw[k]].pos.j, 0, -1, (int)free_dw.size());
        free_dw.push_back(dw[k]);
      }
    // Balin.moveDwarves: Balin.assign, then each dwarf's step towards its
    // target, then the idle dwarves down the gradient of the search from
    // every target.
    if (!free_dw.empty()) {
      q.run(enter, false, false, min(80, left + 1));
      vector<float> best(free_dw.size(), 0.0f);
      vector<int> target(free_dw.size(), -1);
      for (int idx = 0; idx < 3600; ++idx) {
        const int d = q.dist[idx];
        if (!(value[idx] > 0.0f) || d == 0 || d == (1 << 30) || d > left + 1) continue;
        const int k = q.src[idx];
        const float sc = value[idx] / (float)(d + 1);
        if (sc > best[k]) {
          best[k] = sc;
          target[k] = idx;
        }
      }
      for (size_t k = 0; k < free_dw.size(); ++k) {
        int t = target[k];
        if (t < 0) {
          idle.push_back(free_dw[k]);
          continue;
        }
        while (q.parent[t] >= 0 && q.parent[q.parent[t]] >= 0) t = q.parent[t];
        order.push_back(free_dw[k]);
        go[free_dw[k]] = t;
      }
    }
    for (size_t k = 0; k < order.size(); ++k) bx_step(busy, taken, lethal, troll_adj, cid, type, all, order[k], go[order[k]]);
    if (!idle.empty()) {
      q.reset();
      for (int idx = 0; idx < 3600; ++idx)
        if (value[idx] > 0.0f && enter[idx] > 0) q.push(idx, 0, -1, 0);
      q.run(enter, true, false, 80);
      for (size_t k = 0; k < idle.size(); ++k) {
        const Unit& u = all[idle[k]];
        int best_n = -1, best_d = 1 << 30;
        for (int d = 0; d < 8; ++d) {
          const int ti = u.pos.i + DI[d], tj = u.pos.j + DJ[d];
          if (ti < 0 || ti >= 60 || tj < 0 || tj >= 60) continue;
          const int t = ti * 60 + tj, w = enter[t];
          if (w > 0 && q.dist[t] < (1 << 30) && w + q.dist[t] < best_d) {
            best_n = t;
            best_d = w + q.dist[t];
          }
        }
        if (best_n >= 0) bx_step(busy, taken, lethal, troll_adj, cid, type, all, idle[k], best_n);
      }
    }

    // Balin.moveWizards: the search from the free cells next to my dwarves
    // (the healthy ones 6 farther), each wizard to the nearest free
    // neighbour.
    if (wz.empty()) return;
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
    q.run(wenter, true, true, 24);
    for (size_t k = 0; k < wz.size(); ++k) {
      const Unit& u = all[wz[k]];
      const int p = u.pos.i * 60 + u.pos.j;
      if (busy[wz[k]] || q.dist[p] == (1 << 30)) continue;
      int best_n = -1, best_d = q.dist[p];
      for (int d = 0; d < 8; d += 2) {
        const int ti = u.pos.i + DI[d], tj = u.pos.j + DJ[d];
        if (ti < 0 || ti >= 60 || tj < 0 || tj >= 60) continue;
        const int t = ti * 60 + tj;
        if (wenter[t] > 0 && cid[t] < 0 && !taken[t] && q.dist[t] < best_d) {
          best_n = t;
          best_d = q.dist[t];
        }
      }
      if (best_n >= 0) {
        taken[best_n] = 1;
        bx_order(busy, wz[k], tg_dir(p, best_n));
      }
    }
  }

  // bx_step is Balin.step: dwarf id attacks the unit on its neighbour
  // cell t, digs its rock, or moves in, if that is safe.
  void bx_step(vector<char>& busy, vector<char>& taken, const vector<char>& lethal, const vector<char>& troll_adj,
               const vector<int>& cid, const vector<int>& type, const vector<Unit>& all, int id, int t) {
    const Unit& u = all[id];
    const int from = u.pos.i * 60 + u.pos.j;
    const int d = tg_dir(from, t);
    if (d == 8) return;
    const bool safe_t = !lethal[t] && !troll_adj[t], safe_from = !lethal[from] && !troll_adj[from];
    if (cid[t] >= 0 && all[cid[t]].player == me()) {
      if (safe_t && !taken[t]) {
        taken[t] = 1;
        bx_order(busy, id, d);
      }
    } else if (cid[t] >= 0) {
      bx_order(busy, id, d);
    } else if (type[t] == Rock) {
      if (safe_from) bx_order(busy, id, d);
    } else if (safe_t && !taken[t]) {
      taken[t] = 1;
      bx_order(busy, id, d);
    }
  }
`
