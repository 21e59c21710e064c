// Action.hh: the commands a player gives in one round (SPEC §8.1, §11.5).
#ifndef JGYM_KIT_ACTION_HH
#define JGYM_KIT_ACTION_HH

#include "Structs.hh"

struct jgym_runner;
struct jgym_layout;

// Action collects the player's commands for the current round with the
// player-side filter of the course kit: every call counts, the first
// command per unit wins, and at most 1000 calls may be made in a round.
// Ids and directions are not checked here: the engine drops bad ones
// (SPEC §8.2).
//
// Layout (SPEC §11.7), 80 bytes: the command counter, the set of commanded
// ids and the list of accepted commands.
class Action {
 public:
  // command orders unit id to move in direction dir (of this player's
  // view).
  void command(int id, Dir dir) { command(Movement(id, dir)); }

  // command orders unit m.id to move in direction m.dir.
  void command(Movement m) {
    // The course program aborts the whole game after 1000 calls in a
    // round; jgym's runner instead reports the error to the engine, which
    // ends only this game.
    if (++q_ > 1000) return;
    if (u_.find(m.id) != u_.end()) {
      cerr << "warning: action already requested for unit " << m.id << endl;
      return;
    }
    u_.insert(m.id);
    v_.push_back(m);
  }

  Action() : q_(0) {}

 private:
  friend struct jgym_runner;
  friend struct jgym_layout;

  int q_;               // command calls this round, ignored ones included
  set<int> u_;          // units commanded this round
  vector<Movement> v_;  // accepted commands, in order

  static void static_layout_check_() {
    static_assert(sizeof(Action) == 80, "Action size (SPEC 11.7)");
  }
};

#endif
