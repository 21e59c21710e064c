// AITestBot.cc: a test bot for jgym's C++ kit. It checks that the state it
// sees is consistent (aborting with "CHECK FAILED" otherwise), exercises the
// API's warnings, the command filter and its random generator, and gives
// commands that a Go twin (testbot_test.go) reproduces exactly.
#include "Player.hh"

#include <unistd.h>

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
  PLAYER_NAME() : calls(0) {}

  virtual void play() {
    CHECK(round() == calls);
    ++calls;
    CHECK(me() >= 0 and me() < 4);
    if (round() == 0) {
      CHECK(sleep(1000) == 0);  // the kit's sleep returns at once
      api_checks();
    }
    cout << "TestBot " << me() << " writes to cout in round " << round() << endl;
    state_checks();
    give_commands();
  }

  void api_checks() {
    CHECK(nb_players() == 4 and rows() == 40 and cols() == 80);
    CHECK(nb_units() == 4 * (nb_furyans() + nb_pioneers()) + max_nb_necromongers() + nb_hellhounds());
    CHECK(version() == "Crematoria 1.2");
    CHECK(furyans_health() == 100 and pioneers_health() == 50 and necromongers_health() == 75);
    CHECK(player_ok(3) and not player_ok(4) and not player_ok(-1));
    CHECK(pos_ok(Pos(39, 79, 1)) and not pos_ok(Pos(40, 0, 0)) and not pos_ok(0, 0, 2));
    Cell c = cell(-1, 0, 0);  // warns
    CHECK(c.type == Cave and c.owner == -1 and c.id == -1 and not c.gem);
    Unit u = unit(-1);  // warns
    CHECK(u.id == -1 and u.player == -1 and u.health == 0 and u.turns == -1 and u.pos == Pos(-1, -1, -1));
    CHECK(nb_cells(4) == -1 and nb_gems(-1) == -1 and status(9) == -1);
    CHECK(furyans(7).empty() and pioneers(-2).empty());
    CHECK(status(0) == 0);
    CHECK(Pos(0, 79, 0) + Right == Pos(0, 0, 0));
    CHECK(Pos(5, 0, 0) + TL == Pos(4, 79, 0));
    CHECK(Pos(1, 2, 0) + Pos(0, -5, 0) == Pos(1, 77, 0));
    CHECK(Pos(1, 2, 0) + Up == Pos(1, 2, 1) and Pos(1, 2, 1) + None == Pos(1, 2, 1));
    CHECK(Pos(1, 2, 3) < Pos(1, 3, 0) and not(Pos(2, 0, 0) < Pos(1, 9, 9)));
    ostringstream os;
    os << Pos(1, 2, 3) << " " << Unit(Furyan, 4, 0, 100, -1, Pos(26, 61, 0));
    CHECK(os.str() == "(1, 2, 3) f 0 100 -1 26 61 0");
    CHECK(dir_ok(None) and not dir_ok(DirSize) and ut2char(Hellhound) == 'h' and char2ut('n') == Necromonger);
  }

  bool my_daylight(Pos p) {
    if (p.k == 0) return false;
    int t1 = (2 * round()) % 80;
    for (int x = 0; x < 40; ++x)
      if ((t1 + x) % 80 == p.j) return false;
    return true;
  }

  void state_checks() {
    int n = nb_units();
    vector<int> seen(n, 0);
    int on_grid = 0;
    for (int g = 0; g < 4; ++g) {
      vector<int> F = furyans(g), P = pioneers(g);
      for (int x = 0; x < int(F.size()); ++x) {
        Unit u = unit(F[x]);
        CHECK(u.type == Furyan and u.player == g and u.id == F[x] and u.health > 0 and u.turns == -1);
        CHECK(x == 0 or F[x - 1] < F[x]);
        CHECK(cell(u.pos).id == u.id);
        ++seen[u.id];
        ++on_grid;
      }
      for (int x = 0; x < int(P.size()); ++x) {
        Unit u = unit(P[x]);
        CHECK(u.type == Pioneer and u.player == g and u.id == P[x] and u.health > 0);
        CHECK(x == 0 or P[x - 1] < P[x]);
        CHECK(cell(u.pos).id == u.id);
        if (u.pos.k == 0 and cell(u.pos).type == Cave) CHECK(cell(u.pos).owner == g);
        ++seen[u.id];
        ++on_grid;
      }
    }
    vector<int> N = necromongers(), H = hellhounds();
    for (int x = 0; x < int(N.size()); ++x) {
      Unit u = unit(N[x]);
      CHECK(u.type == Necromonger and u.player == -1 and u.health > 0 and u.pos.k == 1);
      if (u.turns == 0) {
        CHECK(cell(u.pos).id == u.id);
        ++on_grid;
      } else {
        CHECK(u.turns > 0 and cell(u.pos).id != u.id);
      }
      ++seen[u.id];
    }
    for (int x = 0; x < int(H.size()); ++x) {
      Unit u = unit(H[x]);
      CHECK(u.type == Hellhound and u.health == -1 and u.pos.k == 0 and cell(u.pos).id == u.id);
      ++seen[u.id];
      ++on_grid;
    }
    int count = 0;
    for (int id = 0; id < n; ++id) count += seen[id];
    CHECK(count == 4 * (nb_furyans() + nb_pioneers()) + int(N.size()) + nb_hellhounds());
    int ids = 0;
    vector<int> owned(4, 0);
    for (int i = 0; i < rows(); ++i)
      for (int j = 0; j < cols(); ++j)
        for (int k = 0; k < 2; ++k) {
          Cell c = cell(i, j, k);
          if (c.id >= 0) {
            ++ids;
            CHECK(unit(c.id).pos == Pos(i, j, k));
          }
          if (k == 0) CHECK(c.type != Outside and not c.gem);
          if (k == 1) CHECK(c.type == Outside or c.type == Elevator);
          if (c.owner >= 0) {
            CHECK(k == 0 and c.type == Cave);
            ++owned[c.owner];
          }
          CHECK(daylight(Pos(i, j, k)) == my_daylight(Pos(i, j, k)));
        }
    CHECK(ids == on_grid);
    for (int g = 0; g < 4; ++g) CHECK(nb_cells(g) == owned[g] and nb_gems(g) >= 0);
  }

  void give_commands() {
    vector<int> F = furyans(me()), P = pioneers(me());
    for (int x = 0; x < int(F.size()); ++x) {
      command(F[x], Dir(random(0, 10)));
      command(F[x], Dir(random(0, 9)));  // already commanded: warns
    }
    for (int x = 0; x < int(P.size()); ++x) {
      command(P[x], Dir(12));  // wrong direction: warns, unit stays free
      command(Movement(P[x], Dir(15)));
      command(Movement(P[x], Dir(random(0, 8))));
    }
    command(-1, Top);
    command(hellhounds()[0], Top);
    vector<int> E = furyans((me() + 1) % 4);
    if (not E.empty()) command(E[0], Bottom);
    command(nb_units() + 5, Top);
    random_permutation(5);
  }
};

RegisterPlayer(PLAYER_NAME);
