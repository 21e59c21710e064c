// Registry.hh: the name -> factory registry of players (SPEC §11.6).
#ifndef JGYM_KIT_REGISTRY_HH
#define JGYM_KIT_REGISTRY_HH

#include "Utils.hh"

class Player;

// Registry maps player names to their factories. Bots register themselves
// at static-initialization time with RegisterPlayer; the registry is
// created on first use, so the order of static initialization does not
// matter. Register is the only function of the game program that a
// prebuilt bot object (such as AIDummy.o) imports; it is defined in
// runner.cc.
class Registry {
 public:
  typedef Player* (*Factory)();

  // Register adds a player factory under name (at most 12 characters).
  static int Register(const char* name, Factory factory);

  // new_player makes a player by name, or returns 0 if there is none.
  static Player* new_player(const string& name);

  // names returns the registered names in sorted (byte-wise) order.
  static vector<string> names();

  // print_players prints the registered names, one per line, sorted.
  static void print_players(ostream& os);
};

#define JGYM_KIT_STR2(x) #x
#define JGYM_KIT_STR(x) JGYM_KIT_STR2(x)

// RegisterPlayer registers the player class x under the name x (the macro
// argument is expanded first, so RegisterPlayer(PLAYER_NAME) works).
#define RegisterPlayer(x) static int jgym_kit_registration_ = Registry::Register(JGYM_KIT_STR(x), x::factory)

#endif
