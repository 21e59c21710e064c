// State.hh: the game state as a player sees it: a copy of the whole board
// taken at the start of the current round (SPEC §6, §7, §11).
#ifndef JGYM_KIT_STATE_HH
#define JGYM_KIT_STATE_HH

#include "Structs.hh"

struct jgym_runner;
struct jgym_layout;

// State is the snapshot of the game at the start of the round. The queries
// return copies; on bad input they print a warning to stderr and return a
// default value, as the course kit does.
//
// Layout (SPEC §11), 232 bytes: round, grid [row][col], units, dwarves and
// wizards per clan, orcs, trolls, the Balrog's id, cells, treasures and
// status per clan.
class State {
 public:
  // round returns the current round number: the number of the last state
  // written to the trace (0 in the first round).
  int round() const { return round_; }

  // cell returns the cell at p. Off the board it warns and returns the
  // default Cell (Cave, no owner, no unit, 0 turns, no treasure).
  Cell cell(Pos p) const;

  // cell returns the cell at (i, j).
  Cell cell(int i, int j) const { return cell(Pos(i, j)); }

  // nb_units returns the size of the unit table (125 by default).
  int nb_units() const { return int(unit_.size()); }

  // unit returns the unit with identifier id. An invalid id (out of range,
  // or a dead unit that is not the Balrog, such as an orc slot without an
  // orc) warns and returns the default Unit.
  Unit unit(int id) const {
    if (id >= 0 and id < nb_units()) {
      const Unit& u = unit_[id];
      if (u.type == Balrog or u.health > 0) return u;
    }
    cerr << "warning: unit requested for identifier " << id << endl;
    return Unit();
  }

  // nb_cells returns the number of caves conquered by clan pl (-1 if pl
  // is not a clan).
  int nb_cells(int pl) const {
    if (clan_ok(pl)) return nb_cells_[pl];
    cerr << "warning: num_cells requested for player " << pl << endl;
    return -1;
  }

  // nb_treasures returns the number of treasures collected by clan pl (-1
  // if pl is not a clan).
  int nb_treasures(int pl) const {
    if (clan_ok(pl)) return nb_treasures_[pl];
    cerr << "warning: num_treasures requested for player " << pl << endl;
    return -1;
  }

  // status returns the CPU status of clan pl: always 0 in jgym (-1 if pl
  // is not a clan).
  double status(int pl) const {
    if (clan_ok(pl)) return cpu_status_[pl];
    cerr << "warning: status requested for player " << pl << endl;
    return -1;
  }

  // dwarves returns the ids of the dwarves of clan pl, increasing.
  vector<int> dwarves(int pl) const {
    if (clan_ok(pl)) return dwarves_[pl];
    cerr << "warning: dwarves requested for player " << pl << endl;
    return vector<int>();
  }

  // wizards returns the ids of the wizards of clan pl, increasing.
  vector<int> wizards(int pl) const {
    if (clan_ok(pl)) return wizards_[pl];
    cerr << "warning: wizards requested for player " << pl << endl;
    return vector<int>();
  }

  // orcs returns the ids of the living orcs, increasing.
  vector<int> orcs() const { return orcs_; }

  // trolls returns the ids of the trolls, increasing.
  vector<int> trolls() const { return trolls_; }

  // balrog_id returns the id of the Balrog.
  int balrog_id() const { return balrog_id_; }

  State()
      : round_(0), balrog_id_(-1), nb_cells_(4, 0), nb_treasures_(4, 0), cpu_status_(4, 0.0) {}

 private:
  friend struct jgym_runner;
  friend struct jgym_layout;

  int round_;
  vector<vector<Cell> > grid_;
  vector<Unit> unit_;
  vector<vector<int> > dwarves_;
  vector<vector<int> > wizards_;
  vector<int> orcs_;
  vector<int> trolls_;
  int balrog_id_;
  vector<int> nb_cells_;
  vector<int> nb_treasures_;
  vector<double> cpu_status_;

  bool clan_ok(int pl) const { return pl >= 0 and pl < int(nb_cells_.size()); }

  static void static_layout_check_() {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
    static_assert(sizeof(State) == 232, "State size (SPEC 11)");
    static_assert(offsetof(State, round_) == 0, "State layout: round");
    static_assert(offsetof(State, grid_) == 8, "State layout: grid");
    static_assert(offsetof(State, unit_) == 32, "State layout: units");
    static_assert(offsetof(State, dwarves_) == 56, "State layout: dwarves");
    static_assert(offsetof(State, wizards_) == 80, "State layout: wizards");
    static_assert(offsetof(State, orcs_) == 104, "State layout: orcs");
    static_assert(offsetof(State, trolls_) == 128, "State layout: trolls");
    static_assert(offsetof(State, balrog_id_) == 152, "State layout: balrog id");
    static_assert(offsetof(State, nb_cells_) == 160, "State layout: cells");
    static_assert(offsetof(State, nb_treasures_) == 184, "State layout: treasures");
    static_assert(offsetof(State, cpu_status_) == 208, "State layout: status");
    static_assert(sizeof(Pos) == 8 and sizeof(Cell) == 20 and sizeof(Unit) == 24 and sizeof(Movement) == 8,
                  "struct sizes (SPEC 11)");
    static_assert(offsetof(Cell, type) == 0 and offsetof(Cell, owner) == 4 and offsetof(Cell, id) == 8 and
                      offsetof(Cell, turns) == 12 and offsetof(Cell, treasure) == 16,
                  "Cell layout");
    static_assert(offsetof(Unit, type) == 0 and offsetof(Unit, id) == 4 and offsetof(Unit, player) == 8 and
                      offsetof(Unit, health) == 12 and offsetof(Unit, pos) == 16,
                  "Unit layout");
    static_assert(offsetof(Movement, id) == 0 and offsetof(Movement, dir) == 4, "Movement layout");
#pragma GCC diagnostic pop
  }
};

// State::cell is defined out of the class, inline, as in the course kit
// (prebuilt objects carry a weak copy of it).
inline Cell State::cell(Pos p) const {
  if (p.i >= 0 and p.i < int(grid_.size()) and p.j >= 0 and p.j < int(grid_[p.i].size())) return grid_[p.i][p.j];
  cerr << "warning: cell requested for position " << p << endl;
  return Cell();
}

#endif
