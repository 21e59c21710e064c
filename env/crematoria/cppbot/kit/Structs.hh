// Structs.hh: directions, cell and unit types, positions, cells, units and
// movements (SPEC §3.1, §11.1-§11.3).
//
// Every struct here is trivially copyable with the exact size of the course
// kit (Pos 12, Cell 16, Unit 32, Movement 8 bytes), so that prebuilt objects
// such as AIDummy.o pass and return them the same way (SPEC §11.9).
#ifndef JGYM_KIT_STRUCTS_HH
#define JGYM_KIT_STRUCTS_HH

#include "Utils.hh"

// Dir is a direction of movement. Bottom..LB are the eight planar
// directions, counter-clockwise from "down".
enum Dir {
  Bottom,  // 0: row + 1
  BR,      // 1: row + 1, col + 1
  Right,   // 2: col + 1
  RT,      // 3: row - 1, col + 1
  Top,     // 4: row - 1
  TL,      // 5: row - 1, col - 1
  Left,    // 6: col - 1
  LB,      // 7: row + 1, col - 1
  Up,      // 8: level + 1
  Down,    // 9: level - 1
  None,    // 10: stay
  DirSize  // 11: number of directions, not a direction
};

// dir_ok reports whether dir is one of the 11 directions.
inline bool dir_ok(Dir dir) {
  int d = dir;
  return d >= Bottom and d <= None;
}

// CellType is the kind of a cell.
enum CellType { Outside, Cave, Rock, Elevator, CellTypeSize };

// UnitType is the kind of a unit.
enum UnitType { Pioneer, Furyan, Necromonger, Hellhound, UnitTypeSize };

// ut2char returns the trace letter of a unit type: p, f, n or h.
inline char ut2char(UnitType t) {
  switch (t) {
    case Pioneer: return 'p';
    case Furyan: return 'f';
    case Necromonger: return 'n';
    case Hellhound: return 'h';
    default: break;
  }
  _my_assert(false, "Unknown unit type " << int(t) << ".");
  return '?';
}

// char2ut is the inverse of ut2char; any other character aborts.
inline UnitType char2ut(char c) {
  switch (c) {
    case 'p': return Pioneer;
    case 'f': return Furyan;
    case 'n': return Necromonger;
    case 'h': return Hellhound;
    default: break;
  }
  _my_assert(false, "Unknown unit type character " << c << ".");
  return UnitTypeSize;
}

// Pos is a position: row i (0..39, top to bottom), column j (0..79, left to
// right, wrapping around), level k (0 underground, 1 outside).
struct Pos {
  int i, j, k;

  Pos() : i(0), j(0), k(0) {}
  Pos(int row, int col, int level) : i(row), j(col), k(level) {}

  // Moves the position one step in direction d (SPEC §3.1). The column
  // wraps at 80; the row and the level are not checked (see pos_ok).
  // None and out-of-range values change nothing.
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
      case Up: ++k; break;
      case Down: --k; break;
      case None: break;
      default: return *this;
    }
    wrap();
    return *this;
  }

  // Adds the fields of q; the column is then adjusted once into 0..79.
  Pos& operator+=(Pos q) {
    i += q.i;
    j += q.j;
    k += q.k;
    wrap();
    return *this;
  }

 private:
  void wrap() {
    if (j >= 80)
      j -= 80;
    else if (j < 0)
      j += 80;
  }
};

inline Pos operator+(Pos p, Dir d) { return p += d; }
inline Pos operator+(Pos p, Pos q) { return p += q; }

inline bool operator==(const Pos& a, const Pos& b) {
  return a.i == b.i and a.j == b.j and a.k == b.k;
}
inline bool operator!=(const Pos& a, const Pos& b) { return not(a == b); }

// Positions compare by row, then column, then level.
inline bool operator<(const Pos& a, const Pos& b) {
  if (a.i != b.i) return a.i < b.i;
  if (a.j != b.j) return a.j < b.j;
  return a.k < b.k;
}

// Prints (i, j, k).
inline ostream& operator<<(ostream& os, const Pos& p) {
  return os << "(" << p.i << ", " << p.j << ", " << p.k << ")";
}

// Cell is one cell of the board: its type, the group owning it (caves
// only, -1 if none), the unit on it (-1 if none) and whether it holds a gem
// (outside only).
struct Cell {
  CellType type;
  int owner;
  int id;
  bool gem;

  Cell() : type(Cave), owner(-1), id(-1), gem(false) {}
  Cell(CellType t, int ow, int unit_id, bool has_gem)
      : type(t), owner(ow), id(unit_id), gem(has_gem) {}
};

// Unit is one unit record: type, identifier, group (player, -1 for the
// environment), health, turns to land (necromongers; -1 otherwise) and
// position.
struct Unit {
  UnitType type;
  int id;
  int player;
  int health;
  int turns;
  Pos pos;

  Unit() : type(Pioneer), id(-1), player(-1), health(0), turns(-1), pos(-1, -1, -1) {}
  Unit(UnitType t, int unit_id, int pl, int h, int tu, Pos p)
      : type(t), id(unit_id), player(pl), health(h), turns(tu), pos(p) {}
};

// Prints the unit as a trace line: <char> <player> <health> <turns> <i> <j> <k>.
inline ostream& operator<<(ostream& os, const Unit& u) {
  return os << ut2char(u.type) << " " << u.player << " " << u.health << " " << u.turns
            << " " << u.pos.i << " " << u.pos.j << " " << u.pos.k;
}

// Movement is one command: move unit id in direction dir.
struct Movement {
  int id;
  Dir dir;

  Movement() : id(-1), dir(None) {}
  Movement(int unit_id, Dir d) : id(unit_id), dir(d) {}
};

#endif
