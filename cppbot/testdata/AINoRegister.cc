// AINoRegister.cc: a test bot that forgets RegisterPlayer.
#include "Player.hh"

struct Forgetful : public Player {
  static Player* factory() { return new Forgetful; }
};
