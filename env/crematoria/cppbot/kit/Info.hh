// Info.hh: everything a player can know, the settings and the state of the
// current round (SPEC §11.4, §11.5).
#ifndef JGYM_KIT_INFO_HH
#define JGYM_KIT_INFO_HH

#include "Settings.hh"
#include "State.hh"

// Info joins the settings and the state; it adds no data. Layout (SPEC
// §11.9): Settings at 0 (44 bytes), State at 48 (224 bytes), 272 bytes.
class Info : public Settings, public State {
 private:
  static void static_layout_check_() {
    static_assert(sizeof(Info) == 272, "Info size (SPEC 11.9)");
  }
};

#endif
