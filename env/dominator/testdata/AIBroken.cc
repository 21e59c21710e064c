// AIBroken.cc: a test bot that does not compile.
#include "Player.hh"

#define PLAYER_NAME Broken

struct PLAYER_NAME : public Player {
  static Player* factory() { return new PLAYER_NAME; }

  virtual void play() {
    int x = undeclared_variable + 1;
    command(x, TOP)
  }
};

RegisterPlayer(PLAYER_NAME);
