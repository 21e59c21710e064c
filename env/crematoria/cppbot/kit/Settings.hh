// Settings.hh: the game settings, constant for the whole game (SPEC §2,
// §11.4).
#ifndef JGYM_KIT_SETTINGS_HH
#define JGYM_KIT_SETTINGS_HH

#include "Structs.hh"

struct jgym_runner;
struct jgym_layout;

// Settings holds the eleven configuration values, in the order of the
// configuration file. The fixed constants of the game take no storage.
// Layout (SPEC §11.9): 11 ints, 44 bytes.
class Settings {
 public:
  // version returns the game version string.
  static string version() { return "Crematoria 1.2"; }

  int nb_players() const { return nb_players_; }
  int nb_rounds() const { return nb_rounds_; }
  int nb_furyans() const { return nb_furyans_; }
  int nb_pioneers() const { return nb_pioneers_; }
  int max_nb_necromongers() const { return max_nb_necromongers_; }
  int nb_hellhounds() const { return nb_hellhounds_; }
  int nb_elevators() const { return nb_elevators_; }
  int gem_value() const { return gem_value_; }
  int turns_to_land() const { return turns_to_land_; }
  int rows() const { return rows_; }
  int cols() const { return cols_; }

  int furyans_health() const { return 100; }
  int pioneers_health() const { return 50; }
  int necromongers_health() const { return 75; }
  int min_damage_furyans() const { return 25; }
  int max_damage_furyans() const { return 50; }
  int min_damage_necromongers() const { return 20; }
  int max_damage_necromongers() const { return 40; }
  int inv_prob_gem() const { return 4; }
  int inv_prob_necromonger() const { return 2; }
  int health_recovery() const { return 5; }

  // player_ok reports whether pl is a group number (0..nb_players()-1).
  bool player_ok(int pl) const { return pl >= 0 and pl < nb_players(); }

  // pos_ok reports whether (i, j, k) is on the board.
  bool pos_ok(int i, int j, int k) const {
    return i >= 0 and i < rows() and j >= 0 and j < cols() and k >= 0 and k < 2;
  }
  bool pos_ok(Pos p) const { return pos_ok(p.i, p.j, p.k); }

  Settings()
      : nb_players_(4), nb_rounds_(120), nb_furyans_(5), nb_pioneers_(15),
        max_nb_necromongers_(10), nb_hellhounds_(3), nb_elevators_(20), gem_value_(30),
        turns_to_land_(2), rows_(40), cols_(80) {}

 private:
  friend struct jgym_runner;
  friend struct jgym_layout;

  int nb_players_;
  int nb_rounds_;
  int nb_furyans_;
  int nb_pioneers_;
  int max_nb_necromongers_;
  int nb_hellhounds_;
  int nb_elevators_;
  int gem_value_;
  int turns_to_land_;
  int rows_;
  int cols_;

  static void static_layout_check_() {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
    static_assert(sizeof(Settings) == 44, "Settings must be 11 ints (SPEC 11.9)");
    static_assert(offsetof(Settings, nb_players_) == 0, "Settings layout");
    static_assert(offsetof(Settings, cols_) == 40, "Settings layout");
#pragma GCC diagnostic pop
  }
};

#endif
