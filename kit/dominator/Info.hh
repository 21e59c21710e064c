// Info.hh: everything a player can know, the settings and the state of the
// current round (SPEC §11.2, §11.3).
#ifndef JGYM_KIT_INFO_HH
#define JGYM_KIT_INFO_HH

#include "Settings.hh"
#include "State.hh"

// Info joins the settings and the state; it adds no data. Layout (SPEC
// §11.7): Settings at 0 (52 bytes), State at 56 (200 bytes), 256 bytes.
class Info : public Settings, public State {
 private:
  static void static_layout_check_() {
    static_assert(sizeof(Info) == 256, "Info size (SPEC 11.7)");
  }
};

#endif
