// State.hh: the game state as a player sees it: a copy of the whole board
// taken at the start of the current round (SPEC §6, §7.4.1, §11.5).
#ifndef JGYM_KIT_STATE_HH
#define JGYM_KIT_STATE_HH

#include "Structs.hh"

struct jgym_runner;
struct jgym_layout;

// State is the snapshot of the game at the start of the round. The queries
// return copies; on bad input they print a warning to stderr and return a
// default value, as the course kit does.
//
// Layout (SPEC §11.9), 224 bytes: round, grid [row][col][level], units,
// furyans and pioneers per group, necromongers, hellhounds, cells, gems and
// status per group.
class State {
 public:
  // round returns the current round number (0 in the first round).
  int round() const { return round_; }

  // cell returns the cell at p. Off the board it warns and returns the
  // default Cell (Cave, no owner, no unit, no gem).
  Cell cell(Pos p) const;

  // cell returns the cell at (i, j, k).
  Cell cell(int i, int j, int k) const { return cell(Pos(i, j, k)); }

  // nb_units returns the size of the unit table.
  int nb_units() const { return int(units_.size()); }

  // unit returns the unit with identifier id. An invalid id (out of range,
  // or a dead unit that is not a hellhound) warns and returns the default
  // Unit.
  Unit unit(int id) const {
    if (id >= 0 and id < nb_units()) {
      const Unit& u = units_[id];
      if (u.type == Hellhound or u.health > 0) return u;
    }
    cerr << "warning: unit requested for identifier " << id << endl;
    return Unit();
  }

  // nb_cells returns the number of cells owned by player pl (-1 if pl is
  // not a player).
  int nb_cells(int pl) const {
    if (group_ok(pl)) return nb_cells_[pl];
    cerr << "warning: num_cells requested for player " << pl << endl;
    return -1;
  }

  // nb_gems returns the number of gems collected by player pl (-1 if pl is
  // not a player).
  int nb_gems(int pl) const {
    if (group_ok(pl)) return nb_gems_[pl];
    cerr << "warning: gems requested for player " << pl << endl;
    return -1;
  }

  // status returns the CPU status of player pl: always 0 in this game (-1
  // if pl is not a player).
  double status(int pl) const {
    if (group_ok(pl)) return status_[pl];
    cerr << "warning: status requested for player " << pl << endl;
    return -1;
  }

  // furyans returns the ids of the Furyans of player pl, increasing.
  vector<int> furyans(int pl) const {
    if (group_ok(pl)) return furyans_[pl];
    cerr << "warning: furyans requested for player " << pl << endl;
    return vector<int>();
  }

  // pioneers returns the ids of the Pioneers of player pl, increasing.
  vector<int> pioneers(int pl) const {
    if (group_ok(pl)) return pioneers_[pl];
    cerr << "warning: pioneers requested for player " << pl << endl;
    return vector<int>();
  }

  // necromongers returns the ids of the landed and descending
  // necromongers, increasing.
  vector<int> necromongers() const { return necromongers_; }

  // hellhounds returns the ids of the hellhounds, increasing.
  vector<int> hellhounds() const { return hellhounds_; }

  // daylight reports whether position p is under the sun in this round.
  // Level 0 is never in daylight; the column is not checked.
  bool daylight(Pos p) const {
    if (p.k == 0) return false;
    int t1 = (2 * round_) % 80;
    if (t1 + 39 < 80) return p.j < t1 or p.j > t1 + 39;
    return t1 + 39 - 80 < p.j and p.j < t1;
  }

  // Helpers of the game program, not meant for players.

  // char2cell returns the cell of a map character: R Rock, C Cave, 0-3 a
  // cave owned by that group, E Elevator, O Outside, G Outside with a gem.
  // Any other character aborts.
  static Cell char2cell(char c) {
    switch (c) {
      case 'R': return Cell(Rock, -1, -1, false);
      case 'C': return Cell(Cave, -1, -1, false);
      case 'E': return Cell(Elevator, -1, -1, false);
      case 'O': return Cell(Outside, -1, -1, false);
      case 'G': return Cell(Outside, -1, -1, true);
      default: break;
    }
    _my_assert(c >= '0' and c <= '3', "Unknown cell character " << c << ".");
    return Cell(Cave, c - '0', -1, false);
  }

  // read_grid reads the 80 map rows (level 0, then level 1) into the grid.
  void read_grid(istream& is) {
    grid_.assign(40, vector<vector<Cell> >(80, vector<Cell>(2)));
    for (int k = 0; k < 2; ++k)
      for (int i = 0; i < 40; ++i) {
        string line;
        is >> line;
        _my_assert(line.size() == 80, "Wrong map row length " << line.size() << ".");
        for (int j = 0; j < 80; ++j) grid_[i][j][k] = char2cell(line[j]);
      }
  }

  // update_vectors_by_player rebuilds the id lists and the cell counts from
  // the units and the grid.
  void update_vectors_by_player() {
    int np = int(nb_cells_.size());
    furyans_.assign(np, vector<int>());
    pioneers_.assign(np, vector<int>());
    necromongers_.clear();
    hellhounds_.clear();
    for (int id = 0; id < nb_units(); ++id) {
      const Unit& u = units_[id];
      if (u.type == Furyan and group_ok(u.player))
        furyans_[u.player].push_back(id);
      else if (u.type == Pioneer and group_ok(u.player))
        pioneers_[u.player].push_back(id);
      else if (u.type == Necromonger and u.health > 0)
        necromongers_.push_back(id);
      else if (u.type == Hellhound)
        hellhounds_.push_back(id);
    }
    nb_cells_.assign(np, 0);
    for (size_t i = 0; i < grid_.size(); ++i)
      for (size_t j = 0; j < grid_[i].size(); ++j)
        if (not grid_[i][j].empty() and group_ok(grid_[i][j][0].owner)) ++nb_cells_[grid_[i][j][0].owner];
  }

  State() : round_(0), nb_cells_(4, 0), nb_gems_(4, 0), status_(4, 0.0) {}

 private:
  friend struct jgym_runner;
  friend struct jgym_layout;

  int round_;
  vector<vector<vector<Cell> > > grid_;
  vector<Unit> units_;
  vector<vector<int> > furyans_;
  vector<vector<int> > pioneers_;
  vector<int> necromongers_;
  vector<int> hellhounds_;
  vector<int> nb_cells_;
  vector<int> nb_gems_;
  vector<double> status_;

  bool group_ok(int pl) const { return pl >= 0 and pl < int(nb_cells_.size()); }

  static void static_layout_check_() {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
    static_assert(sizeof(State) == 224, "State size (SPEC 11.9)");
    static_assert(offsetof(State, round_) == 0, "State layout: round");
    static_assert(offsetof(State, grid_) == 8, "State layout: grid");
    static_assert(offsetof(State, units_) == 32, "State layout: units");
    static_assert(offsetof(State, furyans_) == 56, "State layout: furyans");
    static_assert(offsetof(State, pioneers_) == 80, "State layout: pioneers");
    static_assert(offsetof(State, necromongers_) == 104, "State layout: necromongers");
    static_assert(offsetof(State, hellhounds_) == 128, "State layout: hellhounds");
    static_assert(offsetof(State, nb_cells_) == 152, "State layout: cells");
    static_assert(offsetof(State, nb_gems_) == 176, "State layout: gems");
    static_assert(offsetof(State, status_) == 200, "State layout: status");
    static_assert(sizeof(Pos) == 12 and sizeof(Cell) == 16 and sizeof(Unit) == 32 and sizeof(Movement) == 8,
                  "struct sizes (SPEC 11.9)");
    static_assert(offsetof(Cell, type) == 0 and offsetof(Cell, owner) == 4 and offsetof(Cell, id) == 8 and
                      offsetof(Cell, gem) == 12,
                  "Cell layout");
    static_assert(offsetof(Unit, type) == 0 and offsetof(Unit, id) == 4 and offsetof(Unit, player) == 8 and
                      offsetof(Unit, health) == 12 and offsetof(Unit, turns) == 16 and offsetof(Unit, pos) == 20,
                  "Unit layout");
    static_assert(offsetof(Movement, id) == 0 and offsetof(Movement, dir) == 4, "Movement layout");
#pragma GCC diagnostic pop
  }
};

// State::cell is defined out of the class, inline, as in the course kit
// (prebuilt objects carry a weak copy of it).
inline Cell State::cell(Pos p) const {
  if (p.i >= 0 and p.i < int(grid_.size()) and p.j >= 0 and p.j < int(grid_[p.i].size()) and p.k >= 0 and
      p.k < int(grid_[p.i][p.j].size()))
    return grid_[p.i][p.j][p.k];
  cerr << "warning: cell requested for position " << p << endl;
  return Cell();
}

#endif
