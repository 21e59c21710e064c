// AIThrow.cc: a test bot that plays like Null, then throws an exception in
// round 3.
#include "Player.hh"

#include <stdexcept>

#define PLAYER_NAME Throw

struct PLAYER_NAME : public Player {
  static Player* factory() { return new PLAYER_NAME; }

  virtual void play() {
    if (round() == 3) throw runtime_error("Throw gives up");
  }
};

RegisterPlayer(PLAYER_NAME);
