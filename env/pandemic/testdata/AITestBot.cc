// AITestBot.cc: a test bot with a Go twin (cppbot_test.go). Every round
// it gives a digest of everything it sees through the API as the id of a
// command the engine ignores, so the twin can check that the runner
// rebuilt the state exactly; then it draws random numbers and gives
// commands the kit's filter or the engine must drop (duplicates, units of
// another player, ids out of range, bad directions). In round 0 it asks
// the accessors for things that do not exist, and in the last round it
// writes to cout.
#include "Player.hh"

#define PLAYER_NAME TestBot

struct PLAYER_NAME : public Player {
  static Player* factory() { return new PLAYER_NAME; }

  unsigned int h;

  void add(int x) {
    h ^= (unsigned int)x;
    h *= 16777619u;
  }

  void add(double x) {
    unsigned long long b;
    memcpy(&b, &x, sizeof b);
    add(int(b & 0xffffffffu));
    add(int(b >> 32));
  }

  void add(Pos p) {
    add(p.i);
    add(p.j);
  }

  // digest hashes what the player sees (FNV-1a over ints).
  unsigned int digest() {
    h = 2166136261u;
    add(nb_players()), add(rows()), add(cols()), add(nb_rounds()), add(initial_health()), add(nb_units());
    add(bonus_per_city_cell()), add(bonus_per_path_cell()), add(factor_connected_component());
    add(infection_factor()), add(mask_protection());
    add(me()), add(round()), add(total_units());
    for (int i = 0; i < rows(); ++i)
      for (int j = 0; j < cols(); ++j) {
        Cell c = cell(i, j);
        add(int(c.type)), add(c.unit_id), add(c.city_id), add(c.path_id), add(c.virus), add(int(c.mask));
      }
    for (int id = 0; id < total_units(); ++id) {
      Unit u = unit(id);
      add(u.id), add(u.player), add(u.pos), add(u.health), add(u.damage), add(u.turns);
      add(int(u.immune)), add(int(u.mask));
    }
    for (int pl = 0; pl < nb_players(); ++pl) {
      vector<int> v = my_units(pl);
      add(int(v.size()));
      for (int k = 0; k < int(v.size()); ++k) add(v[k]);
      add(total_score(pl));
      add(status(pl));
    }
    add(nb_cities());
    for (int c = 0; c < nb_cities(); ++c) {
      City x = city(c);
      add(int(x.size()));
      for (int k = 0; k < int(x.size()); ++k) add(x[k]);
      add(city_owner(c));
    }
    add(nb_paths());
    for (int c = 0; c < nb_paths(); ++c) {
      Path x = path(c);
      add(x.first.first), add(x.first.second), add(int(x.second.size()));
      for (int k = 0; k < int(x.second.size()); ++k) add(x.second[k]);
      add(path_owner(c));
    }
    return h;
  }

  virtual void play() {
    move(-1 - int(digest() & 0x3fffffff), NONE);
    if (round() == 0) {
      cell(-1, 0), cell(Pos(0, cols())), unit(-1), unit(total_units()), total_score(4), status(9);
      city(-1), city_owner(nb_cities()), path(-2), path_owner(nb_paths()), my_units(7);
    }
    vector<int> U = my_units(me());
    for (int k = 0; k < int(U.size()); ++k) move(U[k], Dir(random(0, 5)));
    for (int k = 0; k < int(U.size()); ++k) execute(Command(U[k], TOP));
    vector<int> O = my_units((me() + 1) % 4);
    if (O.size() > 0) move(O[0], BOTTOM);
    if (O.size() > 1) move(O[1], Dir(-1));
    if (O.size() > 2) move(O[2], Dir(300));
    move(-3, TOP);
    move(total_units() + 2, LEFT);
    move(total_units() + 5, Dir(7));
    random_permutation(3);
    random(5, 4);
    random(0, 2000000);
    if (round() == nb_rounds() - 1) cout << "TestBot " << me() << " writes to cout in round " << round() << endl;
  }
};

RegisterPlayer(PLAYER_NAME);
