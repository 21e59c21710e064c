// Action.hh: the commands a player gives in one round (SPEC §8.1, §11).
#ifndef JGYM_KIT_ACTION_HH
#define JGYM_KIT_ACTION_HH

#include "Structs.hh"

struct jgym_runner;
struct jgym_layout;

// Action collects the player's commands for the current round with the
// player-side filter of the course kit (SPEC §8.1): the first command per
// unit wins, bad directions are dropped (the unit stays free), and at most
// 1000 commands may be given in a round.
//
// Layout (SPEC §11), 80 bytes: the command counter, the set of commanded
// ids and the list of accepted commands.
class Action {
 public:
  // command orders unit id to move in direction dir.
  void command(int id, Dir dir) { command(Movement(id, dir)); }

  // command orders unit m.id to move in direction m.dir.
  void command(Movement m);

  Action() : q_(0) {}

 private:
  friend struct jgym_runner;
  friend struct jgym_layout;

  int q_;               // commands given this round, ignored ones included
  set<int> u_;          // units commanded this round
  vector<Movement> v_;  // accepted commands, in order

  static void static_layout_check_() {
    static_assert(sizeof(Action) == 80, "Action size (SPEC 11)");
  }
};

// Action::command is defined out of the class, inline, as in the course kit
// (prebuilt objects carry a weak copy of it). The course program aborts the
// whole game after 1000 commands in a round ("Too many commands."); jgym's
// runner instead reports the error to the engine, which ends only this
// game.
inline void Action::command(Movement m) {
  if (++q_ > 1000) return;
  if (u_.find(m.id) != u_.end()) {
    cerr << "warning: action already requested for unit " << m.id << endl;
    return;
  }
  if (not dir_ok(m.dir)) {
    cerr << "warning: wrong direction " << int(m.dir) << endl;
    return;
  }
  u_.insert(m.id);
  v_.push_back(m);
}

#endif
