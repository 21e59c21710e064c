// Info.hh: everything a player can know, the settings and the state of the
// current round (SPEC §11).
#ifndef JGYM_KIT_INFO_HH
#define JGYM_KIT_INFO_HH

#include "Settings.hh"
#include "State.hh"

// Info joins the settings and the state; it adds no data. Layout (SPEC
// §11): Settings at 0 (40 bytes), State at 40 (232 bytes), 272 bytes.
class Info : public Settings, public State {
 private:
  static void static_layout_check_() {
    static_assert(sizeof(Info) == 272, "Info size (SPEC 11)");
  }
};

#endif
