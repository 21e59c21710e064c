// State.hh: the game state as a player sees it: the rotated copy of the
// board taken at the start of the current round (SPEC §3.4, §6, §11.3).
#ifndef JGYM_KIT_STATE_HH
#define JGYM_KIT_STATE_HH

#include "Structs.hh"

struct jgym_runner;
struct jgym_layout;

// State is the snapshot of the game at the start of the round, as this
// player sees it: every player programs as if it were player 0, its box is
// the top-left one (SPEC §3.4). The queries return copies; on bad input
// they print a warning to stderr and return a default value, as the course
// kit does.
//
// Layout (SPEC §11.7), 200 bytes: grid [row][col], round, units, land,
// total score, CPU status, farmers, knights and witches per player.
class State {
 public:
  // round returns the current round number (0 in the first round).
  int round() const { return round_; }

  // cell returns the cell at p. Off the board it warns and returns the
  // default Cell (Empty, no owner, no unit, not haunted).
  Cell cell(Pos p) const {
    if (on_grid_(p)) return grid_[p.i][p.j];
    cerr << "warning: cell requested for position " << p << endl;
    return Cell();
  }

  // cell returns the cell at (i, j).
  Cell cell(int i, int j) const { return cell(Pos(i, j)); }

  // nb_units returns the size of the unit table (fixed for the game).
  int nb_units() const { return int(unit_.size()); }

  // unit returns the unit with identifier id. An invalid id warns and
  // returns the default Unit.
  Unit unit(int id) const {
    if (id >= 0 and id < nb_units()) return unit_[id];
    cerr << "warning: unit requested for identifier " << id << endl;
    return Unit();
  }

  // land returns the number of cells of player pl's colour (-1 if pl is
  // not a player).
  int land(int pl) const {
    if (player_ok_(pl)) return land_[pl];
    cerr << "warning: score requested for player " << pl << endl;
    return -1;
  }

  // total_score returns the total score of player pl so far: the sum of
  // its land over the states so far, this one included (-1 if pl is not a
  // player).
  int total_score(int pl) const {
    if (player_ok_(pl)) return total_score_[pl];
    cerr << "warning: total score requested for player " << pl << endl;
    return -1;
  }

  // status returns the CPU status of player pl: always 0 in this game (-2
  // if pl is not a player).
  double status(int pl) const {
    if (player_ok_(pl)) return cpu_status_[pl];
    cerr << "warning: status requested for player " << pl << endl;
    return -2;
  }

  // farmers, knights and witches are not const, as in the course kit: a
  // player cannot call them on a const State.

  // farmers returns the ids of the farmers of player pl, increasing.
  vector<int> farmers(int pl) {
    if (player_ok_(pl)) return farmers_[pl];
    cerr << "warning: farmers requested for player " << pl << endl;
    return vector<int>();
  }

  // knights returns the ids of the knights of player pl, increasing.
  vector<int> knights(int pl) {
    if (player_ok_(pl)) return knights_[pl];
    cerr << "warning: knights requested for player " << pl << endl;
    return vector<int>();
  }

  // witches returns the ids of the witches of player pl, in their fixed
  // order.
  vector<int> witches(int pl) {
    if (player_ok_(pl)) return witches_[pl];
    cerr << "warning: witches requested for player " << pl << endl;
    return vector<int>();
  }

  // Helpers of the game program, not meant for players.

  // char2cell returns the cell of a map character: X wall, . empty, 0-4 an
  // empty cell of that owner. Any other character aborts.
  static Cell char2cell(char c) {
    if (c == 'X') return Cell(Wall, -1, -1, false);
    if (c == '.') return Cell(Empty, -1, -1, false);
    _my_assert(c >= '0' and c <= '4', "Unknown cell character " << c << ".");
    return Cell(Empty, c - '0', -1, false);
  }

  // read_grid reads rows map lines of cols characters into the grid.
  void read_grid(istream& is, int rows, int cols) {
    grid_.assign(rows, vector<Cell>(cols));
    for (int i = 0; i < rows; ++i) {
      string line;
      is >> line;
      _my_assert(int(line.size()) == cols, "Wrong map row length " << line.size() << ".");
      for (int j = 0; j < cols; ++j) grid_[i][j] = char2cell(line[j]);
    }
  }

  // update_vectors_by_player rebuilds the farmer and knight lists and the
  // land counts from the units and the grid (SPEC §6).
  void update_vectors_by_player() {
    int np = int(land_.size());
    farmers_.assign(np, vector<int>());
    knights_.assign(np, vector<int>());
    for (int id = 0; id < nb_units(); ++id) {
      const Unit& u = unit_[id];
      if (not player_ok_(u.player)) continue;
      if (u.type == Farmer)
        farmers_[u.player].push_back(id);
      else if (u.type == Knight)
        knights_[u.player].push_back(id);
    }
    land_.assign(np, 0);
    for (size_t i = 0; i < grid_.size(); ++i)
      for (size_t j = 0; j < grid_[i].size(); ++j)
        if (player_ok_(grid_[i][j].owner)) ++land_[grid_[i][j].owner];
  }

  // update_haunted recomputes which witches are active and which cells are
  // haunted (SPEC §6): a witch is active unless another witch stands
  // within distance 2 of it; the cells within distance 2 of an active
  // witch are haunted.
  void update_haunted() {
    for (size_t i = 0; i < grid_.size(); ++i)
      for (size_t j = 0; j < grid_[i].size(); ++j) grid_[i][j].haunted = false;
    for (size_t p = 0; p < witches_.size(); ++p)
      for (size_t x = 0; x < witches_[p].size(); ++x) {
        Unit& w = unit_[witches_[p][x]];
        w.active = true;
        for (int a = -2; a <= 2; ++a)
          for (int b = -2; b <= 2; ++b) {
            if (abs(a) + abs(b) > 2 or (a == 0 and b == 0)) continue;
            Pos q(w.pos.i + a, w.pos.j + b);
            if (on_grid_(q) and grid_[q.i][q.j].id >= 0 and unit_[grid_[q.i][q.j].id].type == Witch)
              w.active = false;
          }
        if (not w.active) continue;
        for (int a = -2; a <= 2; ++a)
          for (int b = -2; b <= 2; ++b) {
            Pos q(w.pos.i + a, w.pos.j + b);
            if (abs(a) + abs(b) <= 2 and on_grid_(q)) grid_[q.i][q.j].haunted = true;
          }
      }
  }

  State() : round_(0), land_(4, 0), total_score_(4, 0), cpu_status_(4, 0.0) {}

 private:
  friend struct jgym_runner;
  friend struct jgym_layout;

  vector<vector<Cell> > grid_;
  int round_;
  vector<Unit> unit_;
  vector<int> land_;
  vector<int> total_score_;
  vector<double> cpu_status_;
  vector<vector<int> > farmers_;
  vector<vector<int> > knights_;
  vector<vector<int> > witches_;

  bool player_ok_(int pl) const { return pl >= 0 and pl < int(land_.size()); }

  bool on_grid_(Pos p) const {
    return p.i >= 0 and p.i < int(grid_.size()) and p.j >= 0 and p.j < int(grid_[p.i].size());
  }

  static void static_layout_check_() {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
    static_assert(sizeof(State) == 200, "State size (SPEC 11.7)");
    static_assert(offsetof(State, grid_) == 0, "State layout: grid");
    static_assert(offsetof(State, round_) == 24, "State layout: round");
    static_assert(offsetof(State, unit_) == 32, "State layout: units");
    static_assert(offsetof(State, land_) == 56, "State layout: land");
    static_assert(offsetof(State, total_score_) == 80, "State layout: total score");
    static_assert(offsetof(State, cpu_status_) == 104, "State layout: status");
    static_assert(offsetof(State, farmers_) == 128, "State layout: farmers");
    static_assert(offsetof(State, knights_) == 152, "State layout: knights");
    static_assert(offsetof(State, witches_) == 176, "State layout: witches");
    static_assert(sizeof(Pos) == 8 and sizeof(Cell) == 16 and sizeof(Unit) == 28 and sizeof(Movement) == 8,
                  "struct sizes (SPEC 11.7)");
    static_assert(offsetof(Cell, type) == 0 and offsetof(Cell, owner) == 4 and offsetof(Cell, id) == 8 and
                      offsetof(Cell, haunted) == 12,
                  "Cell layout");
    static_assert(offsetof(Unit, type) == 0 and offsetof(Unit, id) == 4 and offsetof(Unit, player) == 8 and
                      offsetof(Unit, health) == 12 and offsetof(Unit, pos) == 16 and offsetof(Unit, active) == 24,
                  "Unit layout");
    static_assert(offsetof(Movement, id) == 0 and offsetof(Movement, dir) == 4, "Movement layout");
#pragma GCC diagnostic pop
  }
};

#endif
