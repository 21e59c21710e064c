// AIThrow.cc: a test bot whose play() throws an exception in round 2.
#include "Player.hh"

#include <stdexcept>

#define PLAYER_NAME Throw

struct PLAYER_NAME : public Player {
  static Player* factory() { return new PLAYER_NAME; }

  virtual void play() {
    if (round() == 2) throw runtime_error("boom");
  }
};

RegisterPlayer(PLAYER_NAME);
