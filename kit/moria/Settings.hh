// Settings.hh: the game settings, constant for the whole game (SPEC §2,
// §11).
#ifndef JGYM_KIT_SETTINGS_HH
#define JGYM_KIT_SETTINGS_HH

#include "Structs.hh"

struct jgym_runner;
struct jgym_layout;

// Settings holds the ten configuration values, in the order of the
// configuration file. The fixed constants of the game take no storage.
// Layout (SPEC §11): 10 ints, 40 bytes.
class Settings {
 public:
  // version returns the game version string.
  static string version() { return "Moria 1.1"; }

  int nb_players() const { return nb_players_; }
  int nb_rounds() const { return nb_rounds_; }
  int nb_dwarves() const { return nb_dwarves_; }
  int nb_wizards() const { return nb_wizards_; }
  int max_nb_orcs() const { return max_nb_orcs_; }
  int nb_trolls() const { return nb_trolls_; }
  int treasure_value() const { return treasure_value_; }
  int rock_resistance() const { return rock_resistance_; }
  int rows() const { return rows_; }
  int cols() const { return cols_; }

  // Maximum health of each unit type (the Balrog is immortal).
  int dwarves_health() const { return 100; }
  int wizards_health() const { return 50; }
  int orcs_health() const { return 75; }
  int trolls_health() const { return 500; }

  // Damage ranges of an attack (uniform integers).
  int min_damage_dwarves() const { return 20; }
  int max_damage_dwarves() const { return 40; }
  int min_damage_orcs() const { return 15; }
  int max_damage_orcs() const { return 30; }
  int min_damage_trolls() const { return 50; }
  int max_damage_trolls() const { return 150; }

  // ini_treasures returns the number of treasures of a generated map.
  int ini_treasures() const { return 80; }
  // inv_prob_abyss: a rock broken by a dwarf becomes an abyss with
  // probability 1 / inv_prob_abyss().
  int inv_prob_abyss() const { return 25; }
  // inv_prob_orc: each free abyss brings back a dead orc with probability
  // 1 / inv_prob_orc() every round.
  int inv_prob_orc() const { return 50; }

  // player_ok reports whether pl is a clan number (0..nb_players()-1).
  bool player_ok(int pl) const { return pl >= 0 and pl < nb_players(); }

  // pos_ok reports whether (i, j) is on the board.
  bool pos_ok(int i, int j) const { return i >= 0 and i < rows() and j >= 0 and j < cols(); }
  bool pos_ok(Pos p) const { return pos_ok(p.i, p.j); }

  Settings()
      : nb_players_(4), nb_rounds_(200), nb_dwarves_(20), nb_wizards_(5), max_nb_orcs_(20), nb_trolls_(4),
        treasure_value_(10), rock_resistance_(5), rows_(60), cols_(60) {}

 private:
  friend struct jgym_runner;
  friend struct jgym_layout;

  int nb_players_;
  int nb_rounds_;
  int nb_dwarves_;
  int nb_wizards_;
  int max_nb_orcs_;
  int nb_trolls_;
  int treasure_value_;
  int rock_resistance_;
  int rows_;
  int cols_;

  static void static_layout_check_() {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
    static_assert(sizeof(Settings) == 40, "Settings must be 10 ints (SPEC 11)");
    static_assert(offsetof(Settings, nb_players_) == 0, "Settings layout");
    static_assert(offsetof(Settings, cols_) == 36, "Settings layout");
#pragma GCC diagnostic pop
  }
};

#endif
