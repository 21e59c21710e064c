// AICrash.cc: a test bot that plays like Null, then dereferences a null
// pointer in round 5.
#include "Player.hh"

#define PLAYER_NAME Crash

struct PLAYER_NAME : public Player {
  static Player* factory() { return new PLAYER_NAME; }

  virtual void play() {
    if (round() == 5) {
      cerr << "Crash: about to dereference a null pointer" << endl;
      volatile int* p = 0;
      *p = 42;
    }
  }
};

RegisterPlayer(PLAYER_NAME);
