// Settings.hh: the game settings, constant for the whole game (SPEC §2.1,
// §11.2).
#ifndef JGYM_KIT_SETTINGS_HH
#define JGYM_KIT_SETTINGS_HH

#include "Structs.hh"

struct jgym_runner;
struct jgym_layout;

// Settings holds the thirteen configuration values, in the order of the
// configuration file. Layout (SPEC §11.7): 13 ints, 52 bytes.
class Settings {
 public:
  // version returns the game version string.
  static string version() { return "Dominator 4.0"; }

  int nb_players() const { return nb_players_; }
  int nb_rounds() const { return nb_rounds_; }
  int nb_farmers() const { return nb_farmers_; }
  int nb_knights() const { return nb_knights_; }
  int nb_witches() const { return nb_witches_; }
  int farmers_health() const { return farmers_health_; }
  int knights_health() const { return knights_health_; }
  int farmers_regen() const { return farmers_regen_; }
  int knights_regen() const { return knights_regen_; }
  int damage_min() const { return damage_min_; }
  int damage_max() const { return damage_max_; }
  int rows() const { return rows_; }
  int cols() const { return cols_; }

  // player_ok reports whether pl is a player number (0..nb_players()-1).
  bool player_ok(int pl) const { return pl >= 0 and pl < nb_players(); }

  // pos_ok reports whether (i, j) is on the board.
  bool pos_ok(int i, int j) const { return i >= 0 and i < rows() and j >= 0 and j < cols(); }
  bool pos_ok(Pos p) const { return pos_ok(p.i, p.j); }

  Settings()
      : nb_players_(4), nb_rounds_(200), nb_farmers_(20), nb_knights_(10), nb_witches_(2),
        farmers_health_(100), knights_health_(200), farmers_regen_(30), knights_regen_(30),
        damage_min_(60), damage_max_(90), rows_(37), cols_(37) {}

 private:
  friend struct jgym_runner;
  friend struct jgym_layout;

  int nb_players_;
  int nb_rounds_;
  int nb_farmers_;
  int nb_knights_;
  int nb_witches_;
  int farmers_health_;
  int knights_health_;
  int farmers_regen_;
  int knights_regen_;
  int damage_min_;
  int damage_max_;
  int rows_;
  int cols_;

  static void static_layout_check_() {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
    static_assert(sizeof(Settings) == 52, "Settings must be 13 ints (SPEC 11.7)");
    static_assert(offsetof(Settings, nb_players_) == 0, "Settings layout");
    static_assert(offsetof(Settings, rows_) == 44, "Settings layout");
    static_assert(offsetof(Settings, cols_) == 48, "Settings layout");
#pragma GCC diagnostic pop
  }
};

#endif
