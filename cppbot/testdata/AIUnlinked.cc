// AIUnlinked.cc: a test bot that compiles but does not link.
#include "Player.hh"

#define PLAYER_NAME Unlinked

int helper_defined_nowhere(int);

struct PLAYER_NAME : public Player {
  static Player* factory() { return new PLAYER_NAME; }

  virtual void play() { command(helper_defined_nowhere(me()), Top); }
};

RegisterPlayer(PLAYER_NAME);
