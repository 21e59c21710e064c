// Structs.hh: directions, cell and unit types, positions, cells, units and
// movements (SPEC §0, §3, §11).
//
// Every struct here is trivially copyable with the size of the course kit
// (Pos 8, Cell 20, Unit 24, Movement 8 bytes), so that prebuilt objects
// such as AIDummy.o pass and return them the same way (SPEC §11).
#ifndef JGYM_KIT_STRUCTS_HH
#define JGYM_KIT_STRUCTS_HH

#include "Utils.hh"

// Dir is a direction of movement: the eight directions around a cell,
// counter-clockwise from "down", then None. The orthogonal ones are even.
enum Dir {
  Bottom,  // 0: row + 1
  BR,      // 1: row + 1, col + 1
  Right,   // 2: col + 1
  RT,      // 3: row - 1, col + 1
  Top,     // 4: row - 1
  TL,      // 5: row - 1, col - 1
  Left,    // 6: col - 1
  LB,      // 7: row + 1, col - 1
  None,    // 8: stay
  DirSize  // 9: number of directions, not a direction
};

// dir_ok reports whether dir is one of the 9 directions.
inline bool dir_ok(Dir dir) {
  int d = dir;
  return d >= Bottom and d <= None;
}

// CellType is the kind of a cell.
enum CellType { Outside, Cave, Abyss, Granite, Rock, CellTypeSize };

// UnitType is the kind of a unit.
enum UnitType { Dwarf, Wizard, Orc, Troll, Balrog, UnitTypeSize };

// ut2char returns the trace letter of a unit type: d, w, o, t or b.
inline char ut2char(UnitType t) {
  switch (t) {
    case Dwarf: return 'd';
    case Wizard: return 'w';
    case Orc: return 'o';
    case Troll: return 't';
    case Balrog: return 'b';
    default: break;
  }
  _my_assert(false, "Unknown unit type " << int(t) << ".");
  return '?';
}

// char2ut is the inverse of ut2char; any other character aborts.
inline UnitType char2ut(char c) {
  switch (c) {
    case 'd': return Dwarf;
    case 'w': return Wizard;
    case 'o': return Orc;
    case 't': return Troll;
    case 'b': return Balrog;
    default: break;
  }
  _my_assert(false, "Unknown unit type character " << c << ".");
  return UnitTypeSize;
}

// Pos is a position: row i (0..59, top to bottom) and column j (0..59,
// left to right).
struct Pos {
  int i, j;

  Pos() : i(0), j(0) {}
  Pos(int row, int col) : i(row), j(col) {}

  // Moves the position one step in direction d (SPEC §3). There is no
  // wrap-around and nothing is checked: the result may be off the board
  // (see pos_ok). None and out-of-range values change nothing.
  Pos& operator+=(Dir d) {
    switch (d) {
      case Bottom: ++i; break;
      case BR: ++i; ++j; break;
      case Right: ++j; break;
      case RT: --i; ++j; break;
      case Top: --i; break;
      case TL: --i; --j; break;
      case Left: --j; break;
      case LB: ++i; --j; break;
      default: break;
    }
    return *this;
  }

  // Adds the fields of q.
  Pos& operator+=(Pos q) {
    i += q.i;
    j += q.j;
    return *this;
  }
};

inline Pos operator+(Pos p, Dir d) { return p += d; }
inline Pos operator+(Pos p, Pos q) { return p += q; }

inline bool operator==(const Pos& a, const Pos& b) { return a.i == b.i and a.j == b.j; }
inline bool operator!=(const Pos& a, const Pos& b) { return not(a == b); }

// Positions compare by row, then column (row-major order).
inline bool operator<(const Pos& a, const Pos& b) {
  if (a.i != b.i) return a.i < b.i;
  return a.j < b.j;
}

// Prints (i, j).
inline ostream& operator<<(ostream& os, const Pos& p) { return os << "(" << p.i << ", " << p.j << ")"; }

// Cell is one cell of the board: its type, the clan owning it (caves only,
// -1 if none), the unit on it (-1 if none), the hits a rock still takes
// before it breaks (rock_resistance() when intact, 0 for other cells) and
// whether it holds a treasure (caves only).
struct Cell {
  CellType type;
  int owner;
  int id;
  int turns;
  bool treasure;

  Cell() : type(Cave), owner(-1), id(-1), turns(0), treasure(false) {}
  Cell(CellType t, int ow, int unit_id, int tu, bool has_treasure)
      : type(t), owner(ow), id(unit_id), turns(tu), treasure(has_treasure) {}
};

// Unit is one unit record: type, identifier (its index in the unit table,
// fixed for the whole game), clan (player, -1 for Sauron's units), health
// and position.
struct Unit {
  UnitType type;
  int id;
  int player;
  int health;
  Pos pos;

  Unit() : type(Dwarf), id(-1), player(-1), health(0), pos(-1, -1) {}
  Unit(UnitType t, int unit_id, int pl, int h, Pos p) : type(t), id(unit_id), player(pl), health(h), pos(p) {}
};

// Prints the unit as a trace line: <char> <player> <i> <j> <health>.
inline ostream& operator<<(ostream& os, const Unit& u) {
  return os << ut2char(u.type) << " " << u.player << " " << u.pos.i << " " << u.pos.j << " " << u.health;
}

// Movement is one command: move unit id in direction dir.
struct Movement {
  int id;
  Dir dir;

  Movement() : id(-1), dir(None) {}
  Movement(int unit_id, Dir d) : id(unit_id), dir(d) {}
};

#endif
