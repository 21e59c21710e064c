// Action.hh: the commands a player gives in one round (SPEC §8.1, §11.5).
#ifndef JGYM_KIT_ACTION_HH
#define JGYM_KIT_ACTION_HH

#include "Structs.hh"

struct jgym_runner;
struct jgym_layout;

// Action collects the player's commands for the current round with the
// player-side filter of the course kit: the first command per unit id
// wins, whatever its validity, and at most 1000 commands may be given in
// a round. Nothing else is checked here: the engine drops commands for
// units the player does not own, bad ids and bad directions.
//
// Layout (SPEC §11.7), 80 bytes: the call counter, the set of commanded
// ids and the list of accepted commands.
class Action {
 public:
  // move orders unit id to move in direction dir.
  void move(int id, Dir dir) { execute(Command(id, dir)); }

  // execute gives command c.
  void execute(Command c) {
    // The course program aborts the whole game at the 1001st call; jgym's
    // runner reports the error to the engine after play(), which ends
    // only this game.
    if (++q_ > 1000) return;
    if (u_.find(c.id) != u_.end()) {
      cerr << "warning: command already given for unit " << c.id << endl;
      return;
    }
    u_.insert(c.id);
    v_.push_back(c);
  }

  Action() : q_(0) {}

 private:
  friend struct jgym_runner;
  friend struct jgym_layout;

  int q_;              // calls this round, ignored ones included
  set<int> u_;         // unit ids commanded this round
  vector<Command> v_;  // accepted commands, in order

  static void static_layout_check_() {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
    static_assert(sizeof(Action) == 80, "Action size (SPEC 11.7)");
    static_assert(offsetof(Action, u_) == 8 and offsetof(Action, v_) == 56, "Action layout");
#pragma GCC diagnostic pop
  }
};

#endif
