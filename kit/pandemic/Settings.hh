// Settings.hh: the game settings, constant for the whole game (SPEC §2,
// §11.2).
#ifndef JGYM_KIT_SETTINGS_HH
#define JGYM_KIT_SETTINGS_HH

#include "Structs.hh"

struct jgym_runner;
struct jgym_layout;

// Settings holds the eleven configuration values.
//
// Layout (SPEC §11.7), 80 bytes: nb_players, rows, cols, nb_rounds,
// initial_health and nb_units (ints at 0..20), six unused ints (24..47),
// bonus_per_city_cell, bonus_per_path_cell and factor_connected_component
// (ints at 48..56), then infection_factor and mask_protection (doubles at
// 64 and 72).
class Settings {
 public:
  // version returns the game version string.
  static string version() { return "Pandemic 1.0"; }

  int nb_players() const { return nb_players_; }
  int rows() const { return rows_; }
  int cols() const { return cols_; }
  int nb_rounds() const { return nb_rounds_; }
  int initial_health() const { return initial_health_; }
  int nb_units() const { return nb_units_; }
  int bonus_per_city_cell() const { return bonus_per_city_cell_; }
  int bonus_per_path_cell() const { return bonus_per_path_cell_; }
  int factor_connected_component() const { return factor_connected_component_; }
  double infection_factor() const { return infection_factor_; }
  double mask_protection() const { return mask_protection_; }

  // player_ok reports whether pl is a player number (0..nb_players()-1).
  bool player_ok(int pl) const { return pl >= 0 and pl < nb_players(); }

  // pos_ok reports whether (i, j) is on the board.
  bool pos_ok(int i, int j) const { return i >= 0 and i < rows() and j >= 0 and j < cols(); }
  bool pos_ok(Pos p) const { return pos_ok(p.i, p.j); }

  Settings()
      : nb_players_(4), rows_(70), cols_(70), nb_rounds_(200), initial_health_(100), nb_units_(15),
        bonus_per_city_cell_(1), bonus_per_path_cell_(1), factor_connected_component_(2),
        infection_factor_(50), mask_protection_(20) {
    for (int k = 0; k < 6; ++k) unused_[k] = 0;
  }

 private:
  friend struct jgym_runner;
  friend struct jgym_layout;

  int nb_players_;
  int rows_;
  int cols_;
  int nb_rounds_;
  int initial_health_;
  int nb_units_;
  int unused_[6];  // space the course kit's Settings holds and never uses
  int bonus_per_city_cell_;
  int bonus_per_path_cell_;
  int factor_connected_component_;
  double infection_factor_;
  double mask_protection_;

  static void static_layout_check_() {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
    static_assert(sizeof(Settings) == 80, "Settings size (SPEC 11.7)");
    static_assert(offsetof(Settings, nb_players_) == 0, "Settings layout: nb_players");
    static_assert(offsetof(Settings, nb_units_) == 20, "Settings layout: nb_units");
    static_assert(offsetof(Settings, bonus_per_city_cell_) == 48, "Settings layout: bonus_per_city_cell");
    static_assert(offsetof(Settings, factor_connected_component_) == 56, "Settings layout: factor");
    static_assert(offsetof(Settings, infection_factor_) == 64, "Settings layout: infection_factor");
    static_assert(offsetof(Settings, mask_protection_) == 72, "Settings layout: mask_protection");
#pragma GCC diagnostic pop
  }
};

#endif
