// AINull.cc: the course's Null player. It gives no orders and draws no
// random numbers.
#include "Player.hh"

#define PLAYER_NAME Null

struct PLAYER_NAME : public Player {
  static Player* factory() { return new PLAYER_NAME; }

  virtual void play() {}
};

RegisterPlayer(PLAYER_NAME);
