package dominator

// expertCC is the exported player's twin of the expert tensor (expert.go):
// Khan's decision (package khan: khan.go, map.go, forecast.go, units.go,
// and DummyPolicy, with which Khan forecasts the other players) in C++,
// written against the kit's player API only, emitted only in the players
// of models that take the tensor (cppexport.Target.OptIn). The player sees
// its rotated view, where it is player 0, as Khan plays on its view: it
// follows Khan.Play step for step, with the same lists in the same order,
// the same float (single precision) arithmetic in the same order of
// operations, the same searches and the same tie-breaks, so that it writes
// the tensor the Go encoder writes, element for element
// (TestCppExportExpertPlaysAsPolicyBot). Names: kx_ for Khan and its map,
// kf_ for its forecast, kd_ for DummyPolicy.
const expertCC = `
  // ---------------------------------------------------------------------
  // The expert tensor (opt-in, docs/observation.md): the orders of jgym's
  // Khan bot for my units, the twin of env/dominator/khan.

  enum { KX_UNREACHABLE = 1 << 14 };  // dominator.Unreachable

  // KxWeights are Khan's weights (khanWeights, khanDefault).
  struct KxWeights {
    float farmer, knight, attack, enemy_cell, near_knight, near_witch, step, sleep, pass_risk, goal_risk, home;
  };
  static KxWeights kx_weights() {
    KxWeights w = {14.0f, 10.0f, 1.5f, 1.2f, 3.0f, 0.8f, 0.3f, 0.5f, 0.3f, 0.2f, 8.0f};
    return w;
  }

  // The round's view: units, cells and the per-player lists.
  vector<Unit> kx_us_;
  vector<Cell> kx_cell_;
  vector<int> kx_wit_[4], kx_far_[4], kx_kni_[4];

  // khanMap.
  int kx_n_, kx_cur_;
  vector<char> kx_wall_, kx_haunt_, kx_taken_, kx_leave_;
  vector<int> kx_unit_, kx_stamp_, kx_first_, kx_dist_, kx_queue_, kx_nb_;

  // Bot.
  vector<float> kx_risk_, kx_dmg_;
  vector<int> kx_edist_, kx_tdist_, kx_kdist_, kx_srcs_, kx_mine_, kx_order_;
  vector<char> kx_open_, kx_pass_, kx_goal_, kx_claim_;
  vector<Pos> kx_wpos_;
  KxWeights kx_w_;

  // khanForecast.
  vector<int> kf_nnext_, kf_next_, kf_touched_;  // kf_next_: 8 per unit
  vector<float> kf_witch_, kf_hit_, kf_near_knight_, kf_near_witch_, kf_pw_;

  // DummyPolicy.
  int kd_me_;
  vector<int> kd_dist_[3], kd_queue_;

  static float kx_min(float a, float b) { return a < b ? a : b; }
  static float kx_max(float a, float b) { return a > b ? a : b; }
  static int kx_abs(int x) { return x < 0 ? -x : x; }
  static int kx_manhattan(Pos a, Pos b) { return kx_abs(a.i - b.i) + kx_abs(a.j - b.j); }

  int kx_idx(Pos p) const { return p.i * kx_n_ + p.j; }
  Pos kx_pos(int c) const { return Pos(c / kx_n_, c % kx_n_); }
  bool kx_in(Pos p) const { return p.i >= 0 && p.i < kx_n_ && p.j >= 0 && p.j < kx_n_; }
  bool kx_free(int c) const { return !kx_wall_[c] && kx_unit_[c] < 0 && !kx_taken_[c]; }
  bool kx_on_grid(int id) const {
    const Pos p = kx_us_[id].pos;
    return kx_in(p) && kx_unit_[kx_idx(p)] == id;
  }
  bool kx_prey(int x) const { return kx_us_[x].player != 0 && kx_us_[x].type != Witch; }
  float kx_value(int type) const { return type == Farmer ? kx_w_.farmer : kx_w_.knight; }

  // kx_reset is khanMap.reset: the picture of the board this round.
  void kx_reset() {
    const int n = rows(), cells = n * n;
    kx_n_ = n;
    if ((int)kx_wall_.size() != cells) {
      kx_wall_.assign(cells, 0);
      kx_haunt_.assign(cells, 0);
      kx_unit_.assign(cells, -1);
      kx_taken_.assign(cells, 0);
      kx_leave_.assign(cells, 0);
      kx_stamp_.assign(cells, 0);
      kx_first_.assign(cells, 0);
      kx_dist_.assign(cells, 0);
      kx_cur_ = 0;
      kx_nb_.assign(8 * cells, -1);
      for (int c = 0; c < cells; ++c)
        for (int d = 0; d < 8; ++d) {
          const Pos q = kx_pos(c) + Dir(d);
          if (kx_in(q)) kx_nb_[8 * c + d] = kx_idx(q);
        }
    }
    for (int c = 0; c < cells; ++c) {
      const Cell& x = kx_cell_[c];
      kx_wall_[c] = x.type == Wall;
      kx_unit_[c] = x.id;
      kx_taken_[c] = 0;
      kx_leave_[c] = 0;
      kx_haunt_[c] = x.haunted;
    }
  }

  // kx_search is khanMap.search (no accept): a breadth-first search from
  // cell s to the first cell marked in goal within max_dist; it sets cell
  // and first (the first direction of a shortest path).
  bool kx_search(int s, bool diag, int max_dist, const vector<char>& pass, const vector<char>& goal, int& cell,
                 int& first) {
    const int step = diag ? 1 : 2;
    const int cur = ++kx_cur_;
    kx_stamp_[s] = cur;
    kx_first_[s] = -1;
    kx_dist_[s] = 0;
    kx_queue_.clear();
    kx_queue_.push_back(s);
    for (size_t h = 0; h < kx_queue_.size(); ++h) {
      const int c = kx_queue_[h];
      if (c != s && goal[c]) {
        cell = c;
        first = kx_first_[c];
        return true;
      }
      if (kx_dist_[c] >= max_dist) continue;
      for (int d = 0; d < 8; d += step) {
        const int nc = kx_nb_[8 * c + d];
        if (nc < 0 || kx_stamp_[nc] == cur || !pass[nc]) continue;
        kx_stamp_[nc] = cur;
        kx_dist_[nc] = kx_dist_[c] + 1;
        kx_first_[nc] = c == s ? d : kx_first_[c];
        kx_queue_.push_back(nc);
      }
    }
    return false;
  }

  // kx_field is dominator.Walker.Field: the distance from every cell to
  // the nearest source over the cells pass allows, KX_UNREACHABLE where
  // none is reached.
  void kx_field(vector<int>& dist, const vector<int>& srcs, bool diag, const vector<char>& pass) {
    const int step = diag ? 1 : 2;
    dist.assign(kx_n_ * kx_n_, KX_UNREACHABLE);
    kx_queue_.clear();
    for (size_t k = 0; k < srcs.size(); ++k)
      if (dist[srcs[k]] != 0) {
        dist[srcs[k]] = 0;
        kx_queue_.push_back(srcs[k]);
      }
    for (size_t h = 0; h < kx_queue_.size(); ++h) {
      const int c = kx_queue_[h];
      for (int d = 0; d < 8; d += step) {
        const int nc = kx_nb_[8 * c + d];
        if (nc < 0 || dist[nc] != KX_UNREACHABLE || !pass[nc]) continue;
        dist[nc] = dist[c] + 1;
        kx_queue_.push_back(nc);
      }
    }
  }

  // DummyPolicy: the course Dummy's candidate moves for player kd_me_.
  bool kd_prey(Pos q) const {
    if (!kx_in(q)) return false;
    const int id = kx_cell_[kx_idx(q)].id;
    return id >= 0 && kx_us_[id].player != kd_me_ && kx_us_[id].type != Witch;
  }
  bool kd_enter(Pos q, int kind) const {
    if (!kx_in(q)) return false;
    const Cell& c = kx_cell_[kx_idx(q)];
    return c.type != Wall && c.id < 0 && (kind != Farmer || !c.haunted);
  }
  bool kd_goal(Pos q, int kind) const {
    if (kind == Farmer) return kd_enter(q, kind) && kx_cell_[kx_idx(q)].owner != kd_me_;
    return kd_prey(q);
  }
  void kd_field(int kind) {
    vector<int>& dist = kd_dist_[kind];
    const int cells = kx_n_ * kx_n_, step = kind == Knight ? 1 : 2;
    dist.assign(cells, -1);
    kd_queue_.clear();
    for (int i = 0; i < cells; ++i)
      if (kd_goal(kx_pos(i), kind)) {
        dist[i] = 0;
        kd_queue_.push_back(i);
      }
    for (size_t h = 0; h < kd_queue_.size(); ++h) {
      const int x = kd_queue_[h];
      for (int d = Bottom; d < None; d += step) {
        const Pos q = kx_pos(x) + Dir(d);
        if (!kd_enter(q, kind)) continue;
        const int ni = kx_idx(q);
        if (dist[ni] >= 0) continue;
        dist[ni] = dist[x] + 1;
        kd_queue_.push_back(ni);
      }
    }
  }
  void kd_prepare(int me, bool& prey, bool& paint) {
    kd_me_ = me;
    prey = paint = false;
    const int cells = kx_n_ * kx_n_;
    for (int i = 0; i < cells; ++i) {
      const Pos q = kx_pos(i);
      prey = prey || kd_prey(q);
      paint = paint || kd_goal(q, Farmer);
      if (prey && paint) break;
    }
    if (prey) {
      kd_field(Witch);
      kd_field(Knight);
    }
    if (paint) kd_field(Farmer);
  }
  int kd_candidates(int id, int* out) const {
    const Unit& u = kx_us_[id];
    const int kind = u.type, step = kind == Knight ? 1 : 2;
    int k = 0, best = 0;
    for (int d = Bottom; d < None; d += step) {
      const Pos t = u.pos + Dir(d);
      int s;
      if (kd_goal(t, kind))
        s = 0;
      else if (kd_enter(t, kind))
        s = kd_dist_[kind][kx_idx(t)];
      else
        continue;
      if (k == 0 || s < best) {
        best = s;
        k = 0;
      }
      if (s == best) out[k++] = d;
    }
    return k;
  }

  // khanForecast.build: the other players' candidate moves and threats.
  void kf_build() {
    const int n = (int)kx_us_.size(), cells = kx_n_ * kx_n_;
    kf_nnext_.assign(n, 0);
    kf_next_.resize(8 * n);
    kf_witch_.assign(cells, 0.0f);
    kf_hit_.assign(cells, 0.0f);
    kf_near_knight_.assign(cells, 0.0f);
    kf_near_witch_.assign(cells, 0.0f);
    if ((int)kf_pw_.size() != cells) kf_pw_.assign(cells, 0.0f);
    for (int q = 1; q < 4; ++q) {
      bool prey, paint;
      kd_prepare(q, prey, paint);
      for (size_t x = 0; x < kx_wit_[q].size(); ++x)
        if (prey) kf_predict(kx_wit_[q][x]);
      for (size_t x = 0; x < kx_far_[q].size(); ++x)
        if (paint) kf_predict(kx_far_[q][x]);
      for (size_t x = 0; x < kx_kni_[q].size(); ++x)
        if (prey) kf_predict(kx_kni_[q][x]);
    }
    for (int q = 1; q < 4; ++q) {
      for (size_t x = 0; x < kx_wit_[q].size(); ++x) kf_witch_threat(kx_wit_[q][x]);
      for (size_t x = 0; x < kx_kni_[q].size(); ++x) kf_knight_threat(kx_kni_[q][x]);
    }
  }
  void kf_predict(int id) {
    if (!kx_on_grid(id)) return;
    int cands[8];
    const int k = kd_candidates(id, cands);
    if (k == 0) return;
    for (int i = 0; i < k; ++i) {
      const Pos t = kx_us_[id].pos + Dir(cands[i]);
      kf_next_[8 * id + i] = kx_in(t) ? kx_idx(t) : -1;
    }
    kf_nnext_[id] = k;
  }
  bool kf_active_at(int id, Pos b) const {
    for (int p = 0; p < 4; ++p)
      for (size_t x = 0; x < kx_wit_[p].size(); ++x) {
        const int w = kx_wit_[p][x];
        if (w != id && kx_manhattan(kx_us_[w].pos, b) <= 2) return false;
      }
    return true;
  }
  // kf_add adds p to kf_pw_ over the cells within r of b, if witch id
  // would be active at b (the add and mark closures).
  void kf_add(int id, Pos b, int r, float p) {
    if (!kf_active_at(id, b)) return;
    for (int x = -r; x <= r; ++x)
      for (int y = -r + kx_abs(x); y <= r - kx_abs(x); ++y) {
        const Pos q(b.i + x, b.j + y);
        if (!kx_in(q)) continue;
        const int c = kx_idx(q);
        if (kf_pw_[c] == 0) kf_touched_.push_back(c);
        kf_pw_[c] += p;
      }
  }
  // kf_flush folds kf_pw_ into into, as a probability, and clears it.
  void kf_flush(vector<float>& into) {
    for (size_t k = 0; k < kf_touched_.size(); ++k) {
      const int c = kf_touched_[k];
      const float p = kx_min(kf_pw_[c], 1.0f);
      into[c] = 1.0f - (1.0f - into[c]) * (1.0f - p);
      kf_pw_[c] = 0;
    }
  }
  void kf_witch_threat(int id) {
    const Unit& u = kx_us_[id];
    if (!kx_in(u.pos)) return;
    kf_reach(id);
    kf_touched_.clear();
    const int k = kf_nnext_[id];
    for (int i = 0; i < k; ++i) {
      const int c = kf_next_[8 * id + i];
      if (c < 0 || kx_wall_[c]) continue;
      float p = 1.0f / (float)k;
      if (kx_unit_[c] >= 0) p /= 2;
      kf_add(id, kx_pos(c), 2, p);
    }
    if (u.active)
      for (int x = -3; x <= 3; ++x)
        for (int y = -3 + kx_abs(x); y <= 3 - kx_abs(x); ++y) {
          const Pos q(u.pos.i + x, u.pos.j + y);
          if (!kx_in(q) || kx_wall_[kx_idx(q)]) continue;
          const int c = kx_idx(q);
          if (kf_pw_[c] == 0) kf_touched_.push_back(c);
          kf_pw_[c] = kx_max(kf_pw_[c], 0.05f);  // witchFloor
        }
    kf_flush(kf_witch_);
  }
  void kf_reach(int id) {
    const Pos a = kx_us_[id].pos;
    kf_touched_.clear();
    const int k = kf_nnext_[id];
    float stay = 1.0f;
    for (int i = 0; i < k; ++i) {
      const int c = kf_next_[8 * id + i];
      if (c < 0 || kx_wall_[c]) continue;
      float p = 1.0f / (float)k;
      if (kx_unit_[c] >= 0) p /= 2;
      stay -= p;
      kf_add(id, kx_pos(c), 3, p);
    }
    kf_add(id, a, 3, stay);
    kf_flush(kf_near_witch_);
  }
  void kf_knight_threat(int id) {
    const Unit& u = kx_us_[id];
    if (!kx_on_grid(id)) return;
    const int k = kf_nnext_[id];
    if (k == 0) {
      const int at = kx_idx(u.pos);
      for (int d = 0; d < 8; ++d) {
        const int x = kx_nb_[8 * at + d];
        if (x >= 0) kf_near_knight_[x] = kx_min(kf_near_knight_[x] + 1.0f, 1.0f);
      }
      return;
    }
    const float p = 1.0f / (float)k;
    for (int i = 0; i < k; ++i) {
      const int c = kf_next_[8 * id + i];
      if (c < 0 || kx_wall_[c]) continue;
      int stand = c;
      if (kx_unit_[c] >= 0) {
        kf_hit_[c] += p;
        stand = kx_idx(u.pos);
      }
      for (int d = 0; d < 8; ++d) {
        const int x = kx_nb_[8 * stand + d];
        if (x >= 0) kf_near_knight_[x] = kx_min(kf_near_knight_[x] + p, 1.0f);
      }
    }
  }
  float kf_moves(int id) const {
    const int k = kf_nnext_[id];
    if (k == 0) return 0;
    int free = 0;
    for (int i = 0; i < k; ++i) {
      const int c = kf_next_[8 * id + i];
      if (c >= 0 && !kx_wall_[c] && kx_unit_[c] < 0) ++free;
    }
    return (float)free / (float)k;
  }
  // kf_next_in is nextIn with in: within 2 of b.
  float kf_next_in(int id, Pos b) const {
    const int k = kf_nnext_[id];
    if (k == 0) return 0;
    int n = 0;
    for (int i = 0; i < k; ++i) {
      const int c = kf_next_[8 * id + i];
      if (c >= 0 && !kx_wall_[c] && kx_unit_[c] < 0 && kx_manhattan(kx_pos(c), b) <= 2) ++n;
    }
    return (float)n / (float)k;
  }

  // Khan's helpers (khan.go).
  void kx_raise(Pos p, int r, float x) {
    for (int i = -r; i <= r; ++i)
      for (int j = -r + kx_abs(i); j <= r - kx_abs(i); ++j) {
        const Pos q(p.i + i, p.j + j);
        if (kx_in(q)) kx_risk_[kx_idx(q)] = kx_max(kx_risk_[kx_idx(q)], x);
      }
  }
  float kx_kill_chance(float h) const {
    const float lo = (float)damage_min(), hi = (float)damage_max();
    if (h <= lo) return 1;
    if (h > hi) return 0;
    return (hi - h + 1) / (hi - lo + 1);
  }
  float kx_attacked(int c, int h) const {
    const float hits = kf_hit_[c];
    if (hits == 0) return 0;
    const float mean = (float)(damage_min() + damage_max()) / 2;
    float p = kx_kill_chance((float)h);
    if (hits > 1) p = kx_max(p, kx_kill_chance((float)h - mean * (hits - 1)));
    return kx_min(hits, 1.0f) * p;
  }
  float kx_walk(int d) const { return d >= KX_UNREACHABLE ? 0.0f : kx_w_.step * (float)d; }
  void kx_walkable(float limit) {
    for (size_t c = 0; c < kx_pass_.size(); ++c)
      kx_pass_[c] = !kx_wall_[c] && kx_risk_[c] < limit && (kx_unit_[c] < 0 || kx_us_[kx_unit_[c]].player == 0);
  }
  bool kx_near_mine(Pos p, int r) const {
    for (size_t k = 0; k < kx_mine_.size(); ++k)
      if (kx_manhattan(kx_us_[kx_mine_[k]].pos, p) <= r) return true;
    return false;
  }
  // kx_order records Khan's order d for unit id in the tensor.
  void kx_order(int id, int d) {
    unsigned char* row = in_expert_ + id * 9;
    for (int k = 0; k < 9; ++k) row[k] = 0;
    row[d] = 1;
  }

  // planWitches.
  void kx_plan_witches() {
    kx_srcs_.clear();
    for (int pass = 0; pass < 2 && kx_srcs_.empty(); ++pass)
      for (int id = 0; id < (int)kx_us_.size(); ++id) {
        if (!kx_prey(id) || !kx_on_grid(id)) continue;
        if (pass == 0 && kx_w_.home > 0 && !kx_near_mine(kx_us_[id].pos, (int)kx_w_.home)) continue;
        kx_srcs_.push_back(kx_idx(kx_us_[id].pos));
      }
    kx_field(kx_edist_, kx_srcs_, false, kx_open_);
    const vector<int>& ws = kx_wit_[0];
    kx_wpos_.clear();
    for (size_t i = 0; i < ws.size(); ++i) kx_wpos_.push_back(kx_us_[ws[i]].pos);
    for (size_t i = 0; i < ws.size(); ++i) {
      const Pos a = kx_us_[ws[i]].pos;
      if (!kx_in(a)) continue;
      int best = None;
      float best_val = kx_witch_value((int)i, a, a);
      for (int d = Bottom; d < None; d += 2) {
        const Pos b = a + Dir(d);
        if (!kx_in(b) || !kx_free(kx_idx(b)) || !kx_witch_safe((int)i, b)) continue;
        const float val = kx_witch_value((int)i, a, b);
        if (val > best_val) {
          best = d;
          best_val = val;
        }
      }
      const Pos b = a + Dir(best);
      kx_wpos_[i] = b;
      kx_taken_[kx_idx(b)] = 1;
      kx_raise(b, 2, 1.0f);
      if (best != None) kx_order(ws[i], best);
    }
  }
  bool kx_witch_safe(int i, Pos b) const {
    for (size_t k = 0; k < kx_mine_.size(); ++k)
      if (kx_manhattan(kx_us_[kx_mine_[k]].pos, b) <= 2) return false;
    for (size_t j = 0; j < kx_wpos_.size(); ++j)
      if ((int)j != i && kx_manhattan(kx_wpos_[j], b) <= 2) return false;
    return true;
  }
  float kx_witch_value(int i, Pos a, Pos b) const {
    float val = 0;
    const int e = kx_edist_[kx_idx(b)];
    if (e < KX_UNREACHABLE) val -= kx_w_.step * (float)e;
    bool asleep = false;
    for (int p = 0; p < 4; ++p)
      for (size_t j = 0; j < kx_wit_[p].size(); ++j) {
        Pos q = kx_us_[kx_wit_[p][j]].pos;
        if (p == 0) {
          if ((int)j == i) continue;
          q = kx_wpos_[j];
        }
        if (kx_manhattan(q, b) <= 2) asleep = true;
      }
    if (asleep) return val;
    for (int id = 0; id < (int)kx_us_.size(); ++id) {
      const Unit& u = kx_us_[id];
      if (u.player == 0 || u.type == Witch || kx_manhattan(u.pos, b) > 3 || !kx_on_grid(id)) continue;
      const float pn = kf_next_in(id, b);
      float p = pn;
      if (b != a && kx_manhattan(u.pos, b) <= 2) p = 0.5f + 0.5f * pn;
      val += p * kx_value(u.type);
    }
    return val;
  }

  // planKnights.
  void kx_plan_knights() {
    const int cells = kx_n_ * kx_n_;
    for (int c = 0; c < cells; ++c) kx_goal_[c] = 0;
    kx_srcs_.clear();
    for (int id = 0; id < (int)kx_us_.size(); ++id) {
      if (!kx_prey(id) || !kx_on_grid(id)) continue;
      const int c = kx_idx(kx_us_[id].pos);
      for (int d = 0; d < 8; ++d) {
        const int x = kx_nb_[8 * c + d];
        if (x >= 0 && !kx_wall_[x] && kx_unit_[x] < 0 && !kx_goal_[x]) {
          kx_goal_[x] = 1;
          kx_srcs_.push_back(x);
        }
      }
    }
    kx_walkable(0.5f);
    kx_field(kx_kdist_, kx_srcs_, true, kx_pass_);
    const float knight = kx_w_.knight;
    for (size_t k = 0; k < kx_kni_[0].size(); ++k) {
      const int id = kx_kni_[0][k];
      if (!kx_on_grid(id)) continue;
      const Unit& u = kx_us_[id];
      const int x = kx_idx(u.pos);
      const float stay = kx_risk_[x] + kx_attacked(x, u.health);
      int best = None, target = -1;
      float best_val = -stay * knight - kx_walk(kx_kdist_[x]);
      for (int d = 0; d < 8; ++d) {
        const Pos t = u.pos + Dir(d);
        if (!kx_in(t) || kx_wall_[kx_idx(t)]) continue;
        const int c = kx_idx(t), e = kx_unit_[c];
        float val;
        if (e >= 0) {
          if (!kx_prey(e)) continue;
          const float there = 1 - 0.5f * kf_moves(e);
          const float cap = kx_kill_chance((float)kx_us_[e].health - kx_dmg_[e]);
          val = there * (cap * kx_value(kx_us_[e].type) + (1 - cap) * kx_w_.attack) - stay * knight;
        } else if (kx_taken_[c] || kx_risk_[c] >= 1) {
          continue;
        } else {
          const float loss = 0.5f * kx_risk_[x] + 0.5f * kx_risk_[c] + 0.5f * kx_attacked(x, u.health);
          val = -loss * knight - kx_walk(kx_kdist_[c]);
        }
        if (val > best_val) {
          best = d;
          best_val = val;
          target = e;
        }
      }
      if (best == None) continue;
      if (target >= 0) {
        const float mean = (float)(damage_min() + damage_max()) / 2;
        kx_dmg_[target] += mean * (1 - 0.5f * kf_moves(target));
      } else {
        kx_taken_[kx_idx(u.pos + Dir(best))] = 1;
        kx_leave_[x] = 1;
      }
      kx_order(id, best);
    }
  }

  // planFarmers.
  struct KxByDist {
    const vector<int>* dist;
    const vector<Unit>* us;
    int n;
    bool operator()(int a, int b) const {
      const Pos pa = (*us)[a].pos, pb = (*us)[b].pos;
      return (*dist)[pa.i * n + pa.j] < (*dist)[pb.i * n + pb.j];
    }
  };
  float kx_farmer_walk(int d, int want, float far) const {
    if (want == None) return 0;
    if (d == want) return kx_w_.step * (far - 1);
    if (d == None) return kx_w_.step * far;
    return kx_w_.step * (far + 1);
  }
  void kx_plan_farmers() {
    const int cells = kx_n_ * kx_n_;
    kx_walkable(kx_w_.pass_risk);
    kx_srcs_.clear();
    for (int c = 0; c < cells; ++c) {
      kx_goal_[c] = kx_cell_[c].owner != 0 && !kx_wall_[c] && kx_unit_[c] < 0 && kx_risk_[c] < kx_w_.goal_risk &&
                    kf_near_knight_[c] < 0.5f;
      if (kx_goal_[c]) kx_srcs_.push_back(c);
    }
    kx_field(kx_tdist_, kx_srcs_, false, kx_pass_);
    kx_order_.clear();
    for (size_t k = 0; k < kx_far_[0].size(); ++k)
      if (kx_on_grid(kx_far_[0][k])) kx_order_.push_back(kx_far_[0][k]);
    KxByDist by = {&kx_tdist_, &kx_us_, kx_n_};
    stable_sort(kx_order_.begin(), kx_order_.end(), by);
    const float farmer = kx_w_.farmer;
    for (size_t k = 0; k < kx_order_.size(); ++k) {
      const int id = kx_order_[k];
      const Unit& u = kx_us_[id];
      const int x = kx_idx(u.pos);
      int want = None;
      float far = 0;
      const int dx = kx_tdist_[x];
      int cell, first;
      if (dx < KX_UNREACHABLE && kx_search(x, false, dx + 6, kx_pass_, kx_goal_, cell, first)) {
        kx_goal_[cell] = 0;  // claimed
        want = first;
        far = (float)(kx_abs(kx_pos(cell).i - u.pos.i) + kx_abs(kx_pos(cell).j - u.pos.j));
      }
      const float stay = kx_risk_[x] + kx_attacked(x, u.health);
      int best = None;
      float best_val = -(stay + kx_w_.near_witch * kf_near_witch_[x]) * farmer -
                       kx_w_.near_knight * kf_near_knight_[x] - kx_farmer_walk(None, want, far);
      const float best_stay = best_val;
      for (int d = Bottom; d < None; d += 2) {
        const Pos t = u.pos + Dir(d);
        if (!kx_in(t)) continue;
        const int c = kx_idx(t);
        const bool follow = kx_unit_[c] >= 0 && kx_leave_[c] && !kx_taken_[c];
        if ((!kx_free(c) && !follow) || kx_risk_[c] >= 1) continue;
        float gain = 0;
        const int owner = kx_cell_[c].owner;
        if (owner != 0 && !kx_claim_[c]) {
          gain = 1;
          if (owner > 0) gain += kx_w_.enemy_cell;
        }
        float loss = 0.5f * kx_risk_[x] + 0.5f * kx_risk_[c] + 0.5f * kx_attacked(x, u.health);
        loss += kx_w_.near_witch * kf_near_witch_[c];
        float val = gain - loss * farmer - kx_w_.near_knight * kf_near_knight_[c] - kx_farmer_walk(d, want, far);
        if (follow) val = (val + best_stay) / 2;
        if (val > best_val) {
          best = d;
          best_val = val;
        }
      }
      if (best == None) continue;
      const int c = kx_idx(u.pos + Dir(best));
      kx_taken_[c] = 1;
      kx_leave_[x] = 1;
      kx_claim_[c] = 1;
      kx_order(id, best);
    }
  }

  // encode_expert writes the expert tensor: None for my units on the
  // board, then Khan's order for those it commands (Khan.Play).
  void encode_expert() {
    if (U == 0) return;
    memset(in_expert_, 0, (size_t)U * 9);
    const int n = rows(), cells = n * n, nu = nb_units();
    kx_w_ = kx_weights();
    kx_us_.resize(nu);
    for (int id = 0; id < nu; ++id) kx_us_[id] = unit(id);
    kx_cell_.resize(cells);
    for (int c = 0; c < cells; ++c) kx_cell_[c] = cell(c / n, c % n);
    for (int p = 0; p < 4; ++p) {
      kx_wit_[p] = witches(p);
      kx_far_[p] = farmers(p);
      kx_kni_[p] = knights(p);
    }
    // setup.
    kx_dmg_.assign(nu, 0.0f);
    kx_claim_.assign(cells, 0);
    kx_open_.resize(cells);
    kx_pass_.resize(cells);
    kx_goal_.resize(cells);
    kx_risk_.resize(cells);
    kx_reset();
    for (int c = 0; c < cells; ++c) kx_open_[c] = !kx_wall_[c];
    kx_mine_.clear();
    for (size_t k = 0; k < kx_far_[0].size(); ++k)
      if (kx_on_grid(kx_far_[0][k])) kx_mine_.push_back(kx_far_[0][k]);
    for (size_t k = 0; k < kx_kni_[0].size(); ++k)
      if (kx_on_grid(kx_kni_[0][k])) kx_mine_.push_back(kx_kni_[0][k]);
    for (int id = 0; id < nu && id < U; ++id)
      if (kx_us_[id].player == 0 && kx_on_grid(id)) in_expert_[id * 9 + None] = 1;
    kf_build();
    // riskMap.
    for (int c = 0; c < cells; ++c) kx_risk_[c] = kf_witch_[c];
    for (int p = 0; p < 4; ++p)
      for (size_t x = 0; x < kx_wit_[p].size(); ++x) {
        const Unit& w = kx_us_[kx_wit_[p][x]];
        if (!kx_in(w.pos) || w.active) continue;
        kx_raise(w.pos, 2, kx_w_.sleep);
      }
    for (int c = 0; c < cells; ++c)
      if (kx_haunt_[c]) kx_risk_[c] = 1;
    kx_plan_witches();
    kx_plan_knights();
    kx_plan_farmers();
  }
`
