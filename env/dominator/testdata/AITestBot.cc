// AITestBot.cc: a test bot for jgym's Dominator kit. It checks that the
// view it sees is consistent (aborting with "CHECK FAILED" otherwise),
// exercises the API's warnings, the command filter and its random
// generator, and gives commands that a Go twin (cppbot_test.go) reproduces
// exactly. Its first command each round carries a digest of everything the
// API shows, so that the twin checks the whole view round by round.
#include "Player.hh"

#define PLAYER_NAME TestBot

#define CHECK(cond)                                                              \
  do {                                                                           \
    if (!(cond)) {                                                               \
      cerr << "CHECK FAILED in round " << round() << ": " << #cond << endl;      \
      abort();                                                                   \
    }                                                                            \
  } while (0)

struct PLAYER_NAME : public Player {
  static Player* factory() { return new PLAYER_NAME; }

  int calls;
  unsigned int h;
  PLAYER_NAME() : calls(0), h(0) {}

  virtual void play() {
    CHECK(round() == calls);
    ++calls;
    if (round() == 0) api_checks();
    cout << "TestBot writes to cout in round " << round() << endl;
    state_checks();
    command(-1 - int(digest() & 0x3fffffff), None);
    give_commands();
  }

  void api_checks() {
    CHECK(nb_players() == 4 and rows() == cols() and rows() % 2 == 1);
    CHECK(nb_units() == 4 * (nb_farmers() + nb_knights() + nb_witches()));
    CHECK(version() == "Dominator 4.0");
    CHECK(damage_min() <= damage_max() and farmers_health() >= 1 and knights_health() >= 1);
    CHECK(player_ok(3) and not player_ok(4) and not player_ok(-1));
    CHECK(pos_ok(Pos(rows() - 1, cols() - 1)) and not pos_ok(Pos(rows(), 0)) and not pos_ok(0, -1));
    Cell c = cell(-1, 0);  // warns
    CHECK(c.type == Empty and c.owner == -1 and c.id == -1 and not c.haunted);
    c = cell(Pos(0, cols()));  // warns
    CHECK(c.type == Empty and c.id == -1);
    Unit u = unit(-1);  // warns
    CHECK(u.type == Farmer and u.id == -1 and u.player == -1 and u.health == 0 and u.pos == Pos(0, 0) and
          not u.active);
    u = unit(nb_units());  // warns
    CHECK(u.id == -1);
    CHECK(land(4) == -1 and total_score(-1) == -1 and status(9) == -2);
    CHECK(farmers(7).empty() and knights(-2).empty() and witches(4).empty());
    CHECK(status(0) == 0);
    CHECK(Pos(3, 4) + Right == Pos(3, 5) and Pos(3, 4) + TL == Pos(2, 3) and Pos(3, 4) + LB == Pos(4, 3));
    CHECK(Pos(0, 0) + Top == Pos(-1, 0) and Pos(1, 2) + None == Pos(1, 2) and Pos(1, 2) + Dir(12) == Pos(1, 2));
    CHECK(Pos(1, 2) + Pos(0, -5) == Pos(1, -3));
    Pos p(7, 7);
    p += BR;
    p += Pos(1, 1);
    CHECK(p == Pos(9, 9) and p != Pos(9, 8));
    CHECK(Pos(1, 2) < Pos(1, 3) and Pos(1, 9) < Pos(2, 0) and not(Pos(2, 0) < Pos(1, 9)));
    ostringstream os;
    os << Pos(1, -2);
    CHECK(os.str() == "(1, -2)");
    CHECK(dir_ok(None) and dir_ok(Bottom) and not dir_ok(DirSize));
    CHECK(ut_ok(Witch) and not ut_ok(UnitTypeSize) and ut2char(Knight) == 'k' and char2ut('w') == Witch);
    Unit w(Witch, 3, 1, -1);
    CHECK(w.pos == Pos(0, 0) and not w.active and Movement(5, Left).dir == Left);
    CHECK(Cell(Wall, -1, -1, false).type == Wall);
  }

  // on_grid reports whether unit id stands where it says (lost units of
  // SPEC §8.9 do not).
  bool on_grid(int id) {
    Unit u = unit(id);
    return pos_ok(u.pos) and cell(u.pos).id == id;
  }

  void state_checks() {
    int n = nb_units(), upp = nb_farmers() + nb_knights() + nb_witches();
    vector<int> seen(n, 0);
    int land_count[4] = {0, 0, 0, 0};
    for (int i = 0; i < rows(); ++i)
      for (int j = 0; j < cols(); ++j) {
        Cell c = cell(i, j);
        CHECK(c.owner >= -1 and c.owner < 4);
        if (c.type == Wall) CHECK(c.owner == -1 and c.id == -1);
        if (c.owner >= 0) ++land_count[c.owner];
        if (c.id >= 0) {
          CHECK(c.id < n);
          Unit u = unit(c.id);
          CHECK(u.id == c.id and u.pos == Pos(i, j));
          if (u.type == Farmer and round() == 0) CHECK(c.owner == u.player);
        }
      }
    for (int pl = 0; pl < 4; ++pl) {
      CHECK(land(pl) == land_count[pl]);
      CHECK(total_score(pl) >= land(pl) and status(pl) == 0);
      vector<int> F = farmers(pl), K = knights(pl), W = witches(pl);
      CHECK(int(W.size()) == nb_witches());
      for (int x = 0; x < int(F.size()); ++x) {
        Unit u = unit(F[x]);
        CHECK(u.type == Farmer and u.id == F[x] and (x == 0 or F[x - 1] < F[x]));
        CHECK(u.health > 0 and u.health <= farmers_health());
        if (on_grid(F[x])) CHECK(u.player == pl);
        ++seen[F[x]];
      }
      for (int x = 0; x < int(K.size()); ++x) {
        Unit u = unit(K[x]);
        CHECK(u.type == Knight and u.id == K[x] and (x == 0 or K[x - 1] < K[x]));
        CHECK(u.health > 0 and u.health <= knights_health());
        if (on_grid(K[x])) CHECK(u.player == pl);
        ++seen[K[x]];
      }
      for (int x = 0; x < int(W.size()); ++x) {
        Unit u = unit(W[x]);
        CHECK(u.type == Witch and u.health == -1 and on_grid(W[x]) and u.player == pl);
        ++seen[W[x]];
      }
    }
    for (int id = 0; id < n; ++id) {
      CHECK(seen[id] == 1);
      CHECK(unit(id).type == (id % upp < nb_witches() ? Witch : id % upp < nb_witches() + nb_knights() ? Knight
                                                                                                    : Farmer));
    }
    // My witches are the first ones of my block of ids, and my box is the
    // top-left one: in round 0 every unit of mine stands in it.
    if (round() == 0) {
      int h = rows() / 2;
      for (int id = 0; id < n; ++id) {
        Unit u = unit(id);
        if (u.player == 0 and on_grid(id)) CHECK(u.pos.i >= 1 and u.pos.i <= h - 2 and u.pos.j >= 1 and u.pos.j <= h - 2);
      }
    }
    // A cell is haunted exactly when an active witch is within distance 2
    // (in every game without lost units).
    for (int i = 0; i < rows(); ++i)
      for (int j = 0; j < cols(); ++j) {
        bool near = false;
        for (int pl = 0; pl < 4; ++pl) {
          vector<int> W = witches(pl);
          for (int x = 0; x < int(W.size()); ++x) {
            Unit w = unit(W[x]);
            if (w.active and abs(w.pos.i - i) + abs(w.pos.j - j) <= 2) near = true;
          }
        }
        CHECK(cell(i, j).haunted == near);
      }
  }

  void add(int x) {
    h ^= (unsigned int)x;
    h *= 16777619u;
  }

  // digest hashes everything the API shows (FNV-1a on 32-bit words).
  unsigned int digest() {
    h = 2166136261u;
    int s[13] = {nb_players(),     nb_rounds(),     nb_farmers(),    nb_knights(), nb_witches(),
                 farmers_health(), knights_health(), farmers_regen(), knights_regen(),
                 damage_min(),     damage_max(),     rows(),          cols()};
    for (int i = 0; i < 13; ++i) add(s[i]);
    add(round());
    add(nb_units());
    for (int i = 0; i < rows(); ++i)
      for (int j = 0; j < cols(); ++j) {
        Cell c = cell(i, j);
        add(c.type);
        add(c.owner);
        add(c.id);
        add(c.haunted);
      }
    for (int id = 0; id < nb_units(); ++id) {
      Unit u = unit(id);
      add(u.type);
      add(u.id);
      add(u.player);
      add(u.health);
      add(u.pos.i);
      add(u.pos.j);
      add(u.active);
    }
    for (int pl = 0; pl < 4; ++pl) {
      add(land(pl));
      add(total_score(pl));
      add(int(status(pl)));
      vector<int> F = farmers(pl), K = knights(pl), W = witches(pl);
      add(F.size());
      for (int x = 0; x < int(F.size()); ++x) add(F[x]);
      add(K.size());
      for (int x = 0; x < int(K.size()); ++x) add(K[x]);
      add(W.size());
      for (int x = 0; x < int(W.size()); ++x) add(W[x]);
    }
    return h;
  }

  void give_commands() {
    vector<int> F = farmers(0), K = knights(0), W = witches(0);
    for (int x = 0; x < int(F.size()); ++x) command(F[x], Dir(random(0, 9)));  // 9 is dropped by the engine
    for (int x = 0; x < int(K.size()); ++x) command(Movement(K[x], Dir(random(-1, 8))));
    for (int x = 0; x < int(W.size()); ++x) command(W[x], Dir(random(0, 8)));
    for (int x = 0; x < int(F.size()); ++x) command(F[x], Top);  // duplicates: warned and ignored
    vector<int> E = farmers(1);
    if (not E.empty()) command(E[0], Bottom);  // not mine: dropped by the engine
    command(nb_units() + 3, Left);
    command(-7, Dir(100));
    random_permutation(5);
  }
};

RegisterPlayer(PLAYER_NAME);
