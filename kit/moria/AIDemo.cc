// AIDemo.cc: the course's Demo player (SPEC §12), written against jgym's
// kit. It plays badly on purpose; what matters is that it draws exactly the
// same random numbers as the course's Demo, so that games against it
// reproduce the course's traces byte for byte.
#include "Player.hh"

#define PLAYER_NAME Demo

struct PLAYER_NAME : public Player {
  static Player* factory() { return new PLAYER_NAME; }

  // kind: for every wizard ever seen, 0 (random orthogonal moves) or 1
  // (cycle Bottom, Right, Top, Left with the round). Never changed nor
  // removed, even when the wizard changes clan and comes back.
  map<int, int> kind;

  virtual void play() {
    move_dwarves();
    move_wizards();
  }

  // move_dwarves commands the dwarves in a random order.
  void move_dwarves() {
    vector<int> D = dwarves(me());
    int n = D.size();
    vector<int> perm = random_permutation(n);
    for (int x = 0; x < n; ++x) {
      int id = D[perm[x]];
      Unit u = unit(id);
      if (random(0, 2) == 0) {
        command(id, Dir(random(0, 7)));
        continue;
      }
      // (The course's Demo looks for an adjacent enemy here, but it looks
      // at the dwarf's own cell, so it never finds one and draws nothing.)
      if (round() < 40)
        command(id, Left);
      else if (round() > 180)
        command(id, None);
      else if (random(0, 1) == 1)
        command(id, random_corner());
      else
        silly_chain(id, u);
    }
  }

  // random_corner draws four distinct positions, sorts them and looks at
  // one of them. The course's Demo is compiled with g++ -O2, which
  // evaluates the arguments of Pos(random(0, 59), random(0, 59)) right to
  // left: the column is drawn first, then the row. The order is written
  // out here so that it does not depend on the compiler.
  Dir random_corner() {
    set<Pos> S;
    while (S.size() < 4) {
      int col = random(0, 59);
      int row = random(0, 59);
      S.insert(Pos(row, col));
    }
    vector<Pos> V(S.begin(), S.end());
    if (V[random(0, 3)].i >= 30) return Bottom;
    return RT;
  }

  // silly_chain commands the first direction whose condition holds.
  void silly_chain(int id, const Unit& u) {
    if (status(0) > 0.8)
      command(id, Left);
    else if (u.health < 20)
      command(id, Dir(2 * random(0, 3)));
    else if (cell(10, 20).owner == 2)
      command(id, TL);
    else if (nb_cells(3) > 50)
      command(id, LB);
    else if (nb_treasures(me()) < 4)
      command(id, BR);
    else if (cell(20, 30).type == Cave)
      command(id, Bottom);
    else if (cell(2, 2).treasure)
      command(id, Top);
    else
      cerr << "Demo: dwarf " << id << " at " << u.pos << " has nothing to do" << endl;
  }

  // move_wizards commands every wizard, in increasing id order.
  void move_wizards() {
    vector<int> W = wizards(me());
    for (int x = 0; x < int(W.size()); ++x) {
      int id = W[x];
      if (kind.find(id) == kind.end()) kind[id] = random(0, 1);
      if (kind[id] == 0)
        command(id, Dir(2 * random(0, 3)));
      else
        command(id, Dir(2 * (round() % 4)));
    }
  }
};

RegisterPlayer(PLAYER_NAME);
