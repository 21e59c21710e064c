// Player.hh: the base class of every bot (SPEC §11). A bot file does
//
//	#include "Player.hh"
//	#define PLAYER_NAME Mine
//	struct PLAYER_NAME : public Player {
//	  static Player* factory() { return new PLAYER_NAME; }
//	  virtual void play() { ... }
//	};
//	RegisterPlayer(PLAYER_NAME);
//
// This is jgym's implementation of the Dominator kit's player API, written
// from the specification, with the exact memory layout of the course kit so
// that prebuilt bot objects (AIDummy.o) link against it (SPEC §11.7).
#ifndef JGYM_KIT_PLAYER_HH
#define JGYM_KIT_PLAYER_HH

#include "Action.hh"
#include "Info.hh"
#include "Random.hh"
#include "Registry.hh"

struct jgym_runner;
struct jgym_layout;

// Player is what a bot derives from. The game creates one player object per
// seat for the whole game; before every round it copies the player's
// rotated view of the state into the Info part (the player is always
// player 0 there, SPEC §3.4) and clears the Action part, then calls play().
// There is no me(): the player number is private, as in the kit.
//
// Layout (SPEC §11.7), 360 bytes: vtable pointer at 0, Info at 8,
// Random_generator at 264, Action at 272, the player number at 352.
class Player : public Info, public Random_generator, public Action {
 public:
  // play is called once per round. The default does nothing.
  virtual void play() {}

  Player() : me_(-1) {}

 private:
  friend struct jgym_runner;
  friend struct jgym_layout;

  int me_;

  static void static_layout_check_() {
    static_assert(sizeof(Player) == 360, "Player size (SPEC 11.7)");
  }
};

#endif
