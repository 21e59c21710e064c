// Structs.hh: directions, cell and unit types, positions, cells, units and
// movements (SPEC §3.1, §11.1).
//
// Every struct here is trivially copyable with the exact size of the course
// kit (Pos 8, Cell 16, Unit 28, Movement 8 bytes), so that prebuilt objects
// such as AIDummy.o pass and return them the same way (SPEC §11.7).
#ifndef JGYM_KIT_STRUCTS_HH
#define JGYM_KIT_STRUCTS_HH

#include "Utils.hh"

// Dir is a direction of movement. Bottom..LB are the eight directions,
// counter-clockwise from "down" in steps of 45 degrees: even values are
// orthogonal, odd ones diagonal.
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

// dir_ok reports whether dir is one of the 9 directions (0..8). It takes
// a Dir, as in the course kit: an int argument does not compile.
inline bool dir_ok(Dir dir) {
  int d = dir;
  return d >= Bottom and d <= None;
}

// CellType is the kind of a cell.
enum CellType { Empty, Wall, CellTypeSize };

// UnitType is the kind of a unit.
enum UnitType { Farmer, Knight, Witch, UnitTypeSize };

// ut_ok reports whether ut is a unit type. It takes a UnitType, as in the
// course kit: an int argument does not compile.
inline bool ut_ok(UnitType ut) {
  int t = ut;
  return t >= Farmer and t < UnitTypeSize;
}

// ut2char returns the trace letter of a unit type: f, k or w.
inline char ut2char(UnitType t) {
  switch (t) {
    case Farmer: return 'f';
    case Knight: return 'k';
    case Witch: return 'w';
    default: break;
  }
  _my_assert(false, "Unknown unit type " << int(t) << ".");
  return '?';
}

// char2ut is the inverse of ut2char; any other character aborts.
inline UnitType char2ut(char c) {
  switch (c) {
    case 'f': return Farmer;
    case 'k': return Knight;
    case 'w': return Witch;
    default: break;
  }
  _my_assert(false, "Unknown unit type character " << c << ".");
  return UnitTypeSize;
}

// Pos is a position: row i (0 at the top) and column j (0 at the left).
// There is no wrap-around.
struct Pos {
  int i, j;

  Pos() : i(0), j(0) {}
  Pos(int row, int col) : i(row), j(col) {}

  // Moves the position one step in direction d (SPEC §3.1), without any
  // check (see pos_ok). None and out-of-range values change nothing.
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

// Positions compare by row, then column.
inline bool operator<(const Pos& a, const Pos& b) {
  if (a.i != b.i) return a.i < b.i;
  return a.j < b.j;
}

// Prints (i, j).
inline ostream& operator<<(ostream& os, const Pos& p) { return os << "(" << p.i << ", " << p.j << ")"; }

// Cell is one cell of the board: its type, the player whose colour it has
// (-1 if none), the unit standing on it (-1 if none) and whether it is
// haunted (a farmer or knight stepping there dies).
struct Cell {
  CellType type;
  int owner;
  int id;
  bool haunted;

  Cell() : type(Empty), owner(-1), id(-1), haunted(false) {}
  Cell(CellType t, int ow, int unit_id, bool h) : type(t), owner(ow), id(unit_id), haunted(h) {}
};

// Unit is one unit record: type, identifier, player (its current owner),
// health (-1 for witches), position, and whether it is active (witches: a
// witch with another witch within distance 2 is not).
struct Unit {
  UnitType type;
  int id;
  int player;
  int health;
  Pos pos;
  bool active;

  Unit() : type(Farmer), id(-1), player(-1), health(0), pos(0, 0), active(false) {}
  Unit(UnitType t, int unit_id, int pl, int h, Pos p = Pos(0, 0), bool a = false)
      : type(t), id(unit_id), player(pl), health(h), pos(p), active(a) {}
};

// Movement is one command: move unit id in direction dir.
struct Movement {
  int id;
  Dir dir;

  Movement(int unit_id, Dir d) : id(unit_id), dir(d) {}
};

#endif
