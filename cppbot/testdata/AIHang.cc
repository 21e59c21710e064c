// AIHang.cc: a test bot that loops forever in round 3.
#include "Player.hh"

#define PLAYER_NAME Hang

struct PLAYER_NAME : public Player {
  static Player* factory() { return new PLAYER_NAME; }

  virtual void play() {
    if (round() == 3) {
      volatile unsigned long x = 0;
      for (;;) x = x + 1;
    }
  }
};

RegisterPlayer(PLAYER_NAME);
