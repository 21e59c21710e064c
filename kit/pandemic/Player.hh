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
// This is jgym's implementation of the Pandemic kit's player API, written
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
// seat for the whole game; before every round it copies the state into the
// Info part and clears the Action part, then calls play().
//
// Layout (SPEC §11.7), 432 bytes: vtable pointer at 0 (play() is the one
// virtual function; there is no virtual destructor), Info at 8,
// Random_generator at 336, Action at 344, me at 424.
class Player : public Info, public Random_generator, public Action {
 public:
  // play is called once per round. The default does nothing.
  virtual void play() {}

  // me returns this player's number (0..3). It is not const, as in the
  // course kit: a player cannot call it on a const Player.
  int me() { return me_; }

  Player() : me_(-1) {}

 private:
  friend struct jgym_runner;
  friend struct jgym_layout;

  int me_;

  static void static_layout_check_() { static_assert(sizeof(Player) == 432, "Player size (SPEC 11.7)"); }
};

#endif
