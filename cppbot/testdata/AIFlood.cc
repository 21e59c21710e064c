// AIFlood.cc: a test bot that gives 1001 commands in round 7.
#include "Player.hh"

#define PLAYER_NAME Flood

struct PLAYER_NAME : public Player {
  static Player* factory() { return new PLAYER_NAME; }

  virtual void play() {
    int id = furyans(me())[0];
    int n = round() == 7 ? 1001 : 1000;
    for (int i = 0; i < n; ++i) command(id, Top);
  }
};

RegisterPlayer(PLAYER_NAME);
