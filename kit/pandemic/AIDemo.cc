// AIDemo.cc: the course's Demo player (SPEC §12), written against jgym's
// kit. It plays badly on purpose; what matters is that it draws exactly the
// same random numbers as the course's Demo, so that games against it
// reproduce the course's traces byte for byte.
#include "Player.hh"

#define PLAYER_NAME Demo

struct PLAYER_NAME : public Player {
  static Player* factory() { return new PLAYER_NAME; }

  virtual void play() {
    if (round() > nb_rounds() / 2) return;  // the second half: rest
    if (winning()) return;
    if (status(me()) >= 0.9) return;  // about to run out of time
    vector<int> U = my_units(me());
    int n = U.size();
    vector<int> perm = random_permutation(n);
    for (int k = 0; k < n; ++k) move_unit(U[perm[k]]);
  }

  // winning reports whether this player's score is larger than every
  // other player's.
  bool winning() {
    for (int pl = 0; pl < nb_players(); ++pl)
      if (pl != me() and total_score(me()) <= total_score(pl)) return false;
    return true;
  }

  // move_unit gives the order of unit id: mostly a random direction,
  // otherwise the first rule that applies.
  void move_unit(int id) {
    Unit u = unit(id);
    if (random(0, 3) != 0) {
      move(id, Dir(random(0, 4)));  // NONE is given too; the engine ignores it
      return;
    }
    if (u.damage > 0) {  // infected: look for a mask next to it
      for (int d = 0; d < 4; ++d) {
        Pos p = u.pos + Dir(d);
        if (pos_ok(p) and cell(p).mask) {
          move(id, Dir(d));
          return;
        }
      }
      move(id, NONE);
      return;
    }
    if (u.immune) {
      move(id, LEFT);
      return;
    }
    Cell c = cell(u.pos);
    if (c.type == CITY) {
      if (city_owner(c.city_id) != me())
        move(id, TOP);
      else if (c.virus >= 3)
        move(id, RIGHT);
      else
        move(id, BOTTOM);
      return;
    }
    if (cell(3, 4).type == WALL) {
      move(id, NONE);
      return;
    }
    if (u.health < 30) {
      move(id, BOTTOM);
      return;
    }
    Cell above = cell(u.pos + TOP);
    if (above.unit_id != -1) {
      Unit o = unit(above.unit_id);
      if (o.player == me())
        move(id, RIGHT);
      else if (o.turns >= 15)
        move(id, NONE);
      else if (o.mask)
        move(id, LEFT);
      else
        move(id, TOP);
      return;
    }
    if (random(0, 1) != 0) move(id, Dir(random(0, 2)));
  }
};

RegisterPlayer(PLAYER_NAME);
