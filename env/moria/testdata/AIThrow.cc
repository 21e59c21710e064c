// AIThrow.cc: a test bot that plays like Null, then throws an exception
// out of play() in round 3.
#include "Player.hh"

#include <stdexcept>

#define PLAYER_NAME Throw

struct PLAYER_NAME : public Player {
  static Player* factory() { return new PLAYER_NAME; }

  virtual void play() {
    if (round() + 1 == 3) throw std::runtime_error("Throw: no idea what to do");
  }
};

RegisterPlayer(PLAYER_NAME);
