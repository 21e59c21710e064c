// Structs.hh: directions, cell types, positions, cells, units, commands,
// cities and paths (SPEC §3.1, §3.2, §11.1).
//
// Every struct here is trivially copyable with the exact size of the course
// kit (Pos 8, Cell 24, Unit 32, Command 8 bytes), so that prebuilt objects
// such as AIDummy.o pass and return them the same way (SPEC §11.7).
#ifndef JGYM_KIT_STRUCTS_HH
#define JGYM_KIT_STRUCTS_HH

#include "Utils.hh"

// Dir is a direction of movement.
enum Dir {
  BOTTOM,   // 0: row + 1
  RIGHT,    // 1: col + 1
  TOP,      // 2: row - 1
  LEFT,     // 3: col - 1
  NONE,     // 4: stay
  DIR_SIZE  // 5: number of directions, not a direction
};

// dir_ok reports whether dir is one of the five directions.
inline bool dir_ok(Dir dir) {
  int d = dir;
  return d >= BOTTOM and d <= NONE;
}

// CellType is the kind of a cell.
enum CellType {
  WALL,           // 0
  GRASS,          // 1
  CITY,           // 2
  PATH,           // 3
  CELL_TYPE_SIZE  // 4: number of cell types, not a type
};

// Pos is a position: row i (top to bottom) and column j (left to right).
// The board does not wrap.
struct Pos {
  int i, j;

  Pos() : i(0), j(0) {}
  Pos(int row, int col) : i(row), j(col) {}

  // Moves the position one step in direction d (SPEC §3.1). NONE and
  // values out of range change nothing; the board is not checked (see
  // pos_ok).
  Pos& operator+=(Dir d) {
    switch (d) {
      case BOTTOM: ++i; break;
      case RIGHT: ++j; break;
      case TOP: --i; break;
      case LEFT: --j; break;
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

// Positions compare in row-major order: by row, then column.
inline bool operator<(const Pos& a, const Pos& b) {
  if (a.i != b.i) return a.i < b.i;
  return a.j < b.j;
}

// Prints (i, j).
inline ostream& operator<<(ostream& os, const Pos& p) { return os << "(" << p.i << ", " << p.j << ")"; }

// Cell is one cell of the board: its type, the unit on it (-1 if none),
// its city (CITY cells) or path (PATH cells) id (-1 otherwise), its amount
// of virus and whether a mask lies on it.
struct Cell {
  CellType type;
  int unit_id;
  int city_id;
  int path_id;
  int virus;
  bool mask;

  Cell() : type(CELL_TYPE_SIZE), unit_id(-1), city_id(-1), path_id(-1), virus(0), mask(false) {}
  Cell(CellType t, int unit, int city, int path, int v, bool m)
      : type(t), unit_id(unit), city_id(city), path_id(path), virus(v), mask(m) {}
};

// Unit is one unit record: identifier, owner, position, health, virus
// damage per round (0 if not infected), rounds infected, whether it is
// immune and whether it wears a mask.
struct Unit {
  int id;
  int player;
  Pos pos;
  int health;
  int damage;
  int turns;
  bool immune;
  bool mask;

  Unit() : id(-1), player(-1), pos(0, 0), health(0), damage(0), turns(0), immune(false), mask(false) {}
  Unit(int unit_id, int pl, Pos p, int h, int dmg, int t, bool imm, bool m)
      : id(unit_id), player(pl), pos(p), health(h), damage(dmg), turns(t), immune(imm), mask(m) {}
};

// Command is one order: move unit id in direction dir.
struct Command {
  int id;
  Dir dir;

  Command() : id(-1), dir(NONE) {}
  Command(int unit_id, Dir d) : id(unit_id), dir(d) {}
};

// City is the list of the cells of a city, in row-major order.
typedef vector<Pos> City;

// Path is a path: the ids of the two cities it joins, and its cells from
// one city to the other (the cells inside other cities left out).
typedef pair<pair<int, int>, vector<Pos> > Path;

#endif
