// State.hh: the game state as a player sees it: a copy of the whole game
// taken at the start of the current round (SPEC §6, §7, §11.3).
#ifndef JGYM_KIT_STATE_HH
#define JGYM_KIT_STATE_HH

#include "Structs.hh"

struct jgym_runner;
struct jgym_layout;

// State is the snapshot of the game at the start of the round. The queries
// return copies; on a bad argument they print a warning to stderr and
// return a default value, as the course kit does.
//
// Layout (SPEC §11.7), 248 bytes: cities, paths, grid [i][j], city owners,
// path owners, units, the unit list of each player, the masks on the
// ground, round, scores and CPU status.
class State {
 public:
  // round returns the number of rounds already played (0 in the first
  // call of play()).
  int round() const { return round_; }

  // total_score returns the score of player pl (-1 if pl is not a
  // player).
  int total_score(int pl) const {
    if (pl >= 0 and pl < int(score_.size())) return score_[pl];
    cerr << "warning: total_score requested for player " << pl << endl;
    return -1;
  }

  // status returns the CPU status of player pl: always 0 in jgym, as in
  // the course program run locally (-2 if pl is not a player).
  double status(int pl) const {
    if (pl >= 0 and pl < int(status_.size())) return status_[pl];
    cerr << "warning: status requested for player " << pl << endl;
    return -2;
  }

  // cell returns the cell at p. Off the board it warns and returns the
  // default Cell.
  Cell cell(Pos p) const {
    if (p.i >= 0 and p.i < int(grid_.size()) and p.j >= 0 and p.j < int(grid_[p.i].size()))
      return grid_[p.i][p.j];
    cerr << "warning: cell requested for position " << p << endl;
    return Cell();
  }

  // cell returns the cell at (i, j).
  Cell cell(int i, int j) const { return cell(Pos(i, j)); }

  // total_units returns the number of units (4 nb_units); unit ids are
  // 0..total_units()-1.
  int total_units() const { return int(units_.size()); }

  // unit returns the unit with identifier id (the default Unit, with a
  // warning, if there is none).
  Unit unit(int id) const {
    if (id >= 0 and id < total_units()) return units_[id];
    cerr << "warning: unit requested for identifier " << id << endl;
    return Unit();
  }

  // nb_cities returns the number of cities; their ids are 0..nb_cities()-1.
  int nb_cities() const { return int(cities_.size()); }

  // city returns the cells of city id, in row-major order.
  City city(int id) const {
    if (id >= 0 and id < nb_cities()) return cities_[id];
    cerr << "warning: city requested for identifier " << id << endl;
    return City();
  }

  // city_owner returns the player owning city id (-1 if none).
  int city_owner(int id) const {
    if (id >= 0 and id < int(city_owners_.size())) return city_owners_[id];
    cerr << "warning: city_owner requested for identifier " << id << endl;
    return -1;
  }

  // nb_paths returns the number of paths; their ids are 0..nb_paths()-1.
  int nb_paths() const { return int(paths_.size()); }

  // path returns path id: the ids of the two cities it joins and its
  // cells.
  Path path(int id) const {
    if (id >= 0 and id < nb_paths()) return paths_[id];
    cerr << "warning: path requested for identifier " << id << endl;
    return Path();
  }

  // path_owner returns the player owning path id (-1 if none).
  int path_owner(int id) const {
    if (id >= 0 and id < int(path_owners_.size())) return path_owners_[id];
    cerr << "warning: path_owner requested for identifier " << id << endl;
    return -1;
  }

  // my_units returns the ids of the units of player pl, in increasing
  // order. It is not const, as in the course kit.
  vector<int> my_units(int pl) {
    if (pl >= 0 and pl < int(player_units_.size())) return player_units_[pl];
    cerr << "warning: my_units requested for player " << pl << endl;
    return vector<int>();
  }

  State() : round_(0), score_(4, 0), status_(4, 0.0) {}

 private:
  friend struct jgym_runner;
  friend struct jgym_layout;

  vector<City> cities_;
  vector<Path> paths_;
  vector<vector<Cell> > grid_;
  vector<int> city_owners_;
  vector<int> path_owners_;
  vector<Unit> units_;
  vector<vector<int> > player_units_;
  vector<Pos> masks_;  // the masks on the ground, in the engine's order
  int round_;
  vector<int> score_;
  vector<double> status_;

  static void static_layout_check_() {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
    static_assert(sizeof(State) == 248, "State size (SPEC 11.7)");
    static_assert(offsetof(State, cities_) == 0, "State layout: cities");
    static_assert(offsetof(State, paths_) == 24, "State layout: paths");
    static_assert(offsetof(State, grid_) == 48, "State layout: grid");
    static_assert(offsetof(State, city_owners_) == 72, "State layout: city owners");
    static_assert(offsetof(State, path_owners_) == 96, "State layout: path owners");
    static_assert(offsetof(State, units_) == 120, "State layout: units");
    static_assert(offsetof(State, player_units_) == 144, "State layout: unit lists");
    static_assert(offsetof(State, masks_) == 168, "State layout: masks");
    static_assert(offsetof(State, round_) == 192, "State layout: round");
    static_assert(offsetof(State, score_) == 200, "State layout: scores");
    static_assert(offsetof(State, status_) == 224, "State layout: status");
    static_assert(sizeof(Pos) == 8 and sizeof(Cell) == 24 and sizeof(Unit) == 32 and sizeof(Command) == 8,
                  "struct sizes (SPEC 11.7)");
    static_assert(offsetof(Cell, type) == 0 and offsetof(Cell, unit_id) == 4 and offsetof(Cell, city_id) == 8 and
                      offsetof(Cell, path_id) == 12 and offsetof(Cell, virus) == 16 and offsetof(Cell, mask) == 20,
                  "Cell layout");
    static_assert(offsetof(Unit, id) == 0 and offsetof(Unit, player) == 4 and offsetof(Unit, pos) == 8 and
                      offsetof(Unit, health) == 16 and offsetof(Unit, damage) == 20 and offsetof(Unit, turns) == 24 and
                      offsetof(Unit, immune) == 28 and offsetof(Unit, mask) == 29,
                  "Unit layout");
    static_assert(offsetof(Command, id) == 0 and offsetof(Command, dir) == 4, "Command layout");
    static_assert(sizeof(Dir) == 4 and sizeof(CellType) == 4, "enums are int-sized");
#pragma GCC diagnostic pop
  }
};

#endif
