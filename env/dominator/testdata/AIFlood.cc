// AIFlood.cc: a test bot that makes 1000 command calls every round, and
// 1001 in round 7.
#include "Player.hh"

#define PLAYER_NAME Flood

struct PLAYER_NAME : public Player {
  static Player* factory() { return new PLAYER_NAME; }

  virtual void play() {
    int id = farmers(0)[0];
    int n = round() == 7 ? 1001 : 1000;
    for (int i = 0; i < n; ++i) command(id, None);
  }
};

RegisterPlayer(PLAYER_NAME);
