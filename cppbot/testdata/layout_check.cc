// layout_check.cc: checks the memory layout of jgym's kit against SPEC
// §11.9 (Itanium C++ ABI, x86-64, libstdc++). Prints "OK" and exits 0, or
// lists the mismatches and exits 1.
#include "Player.hh"

#include <cstddef>

struct jgym_layout {
  static int run() {
    int bad = 0;
#define EXPECT(what, got, want)                                                         \
  do {                                                                                  \
    long g = long(got), w = long(want);                                                 \
    if (g != w) {                                                                       \
      cout << what << ": " << g << ", want " << w << endl;                              \
      ++bad;                                                                            \
    }                                                                                   \
  } while (0)
    Player p;
    const char* base = reinterpret_cast<const char*>(&p);
#define OFF(ptr) (reinterpret_cast<const char*>(ptr) - base)
    EXPECT("sizeof(Player)", sizeof(Player), 376);
    EXPECT("sizeof(Info)", sizeof(Info), 272);
    EXPECT("sizeof(Settings)", sizeof(Settings), 44);
    EXPECT("sizeof(State)", sizeof(State), 224);
    EXPECT("sizeof(Random_generator)", sizeof(Random_generator), 8);
    EXPECT("sizeof(Action)", sizeof(Action), 80);
    EXPECT("sizeof(Cell)", sizeof(Cell), 16);
    EXPECT("sizeof(Unit)", sizeof(Unit), 32);
    EXPECT("sizeof(Pos)", sizeof(Pos), 12);
    EXPECT("sizeof(Movement)", sizeof(Movement), 8);
    EXPECT("sizeof(Dir)", sizeof(Dir), 4);
    EXPECT("sizeof(CellType)", sizeof(CellType), 4);
    EXPECT("sizeof(UnitType)", sizeof(UnitType), 4);
    EXPECT("Info", OFF(static_cast<Info*>(&p)), 8);
    EXPECT("Settings", OFF(static_cast<Settings*>(&p)), 8);
    EXPECT("State", OFF(static_cast<State*>(&p)), 56);
    EXPECT("Random_generator", OFF(static_cast<Random_generator*>(&p)), 280);
    EXPECT("Action", OFF(static_cast<Action*>(&p)), 288);
    EXPECT("me", OFF(&p.me_), 368);
    const int* settings[11] = {&p.nb_players_,    &p.nb_rounds_,     &p.nb_furyans_, &p.nb_pioneers_,
                               &p.max_nb_necromongers_, &p.nb_hellhounds_, &p.nb_elevators_, &p.gem_value_,
                               &p.turns_to_land_, &p.rows_,          &p.cols_};
    for (int i = 0; i < 11; ++i) EXPECT("setting " << i, OFF(settings[i]), 8 + 4 * i);
    EXPECT("round", OFF(&p.round_), 56);
    EXPECT("grid", OFF(&p.grid_), 64);
    EXPECT("units", OFF(&p.units_), 88);
    EXPECT("furyans", OFF(&p.furyans_), 112);
    EXPECT("pioneers", OFF(&p.pioneers_), 136);
    EXPECT("necromongers", OFF(&p.necromongers_), 160);
    EXPECT("hellhounds", OFF(&p.hellhounds_), 184);
    EXPECT("nb_cells", OFF(&p.nb_cells_), 208);
    EXPECT("nb_gems", OFF(&p.nb_gems_), 232);
    EXPECT("status", OFF(&p.status_), 256);
    EXPECT("random state", OFF(&p.s_), 280);
    EXPECT("command counter", OFF(&p.q_), 288);
    EXPECT("commanded ids", OFF(&p.u_), 296);
    EXPECT("commands", OFF(&p.v_), 344);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
    EXPECT("Cell.owner", offsetof(Cell, owner), 4);
    EXPECT("Cell.id", offsetof(Cell, id), 8);
    EXPECT("Cell.gem", offsetof(Cell, gem), 12);
    EXPECT("Unit.pos", offsetof(Unit, pos), 20);
    EXPECT("Movement.dir", offsetof(Movement, dir), 4);
#pragma GCC diagnostic pop
    // The grid is indexed [row][col][level]; the containers are libstdc++'s.
    EXPECT("sizeof(vector<int>)", sizeof(vector<int>), 24);
    EXPECT("sizeof(set<int>)", sizeof(set<int>), 48);
    if (bad == 0) cout << "OK" << endl;
    return bad == 0 ? 0 : 1;
  }
};

int main() { return jgym_layout::run(); }
