// Random.hh: the player's own random generator (SPEC §1, §11.4).
#ifndef JGYM_KIT_RANDOM_HH
#define JGYM_KIT_RANDOM_HH

#include "Utils.hh"

struct jgym_runner;
struct jgym_layout;

// Random_generator is the course's 31-bit linear congruential generator.
// The game seeds player p's generator once, before round 0, with
// seed + p + 1; it is never reseeded. Layout (SPEC §11.7): one long long.
class Random_generator {
 public:
  Random_generator() : s_(0) {}

  // random returns a uniform integer in [l, u]. It returns l, without
  // drawing, when l > u or when the range holds more than 10^6 values.
  // Every draw advances the state by two steps.
  int random(int l, int u) {
    if (l > u) return l;
    long long n = (long long)u - l + 1;
    if (n > 1000000) return l;
    step();
    step();
    return l + int((n * s_) >> 31);
  }

  // random_permutation returns a random permutation of 0..n-1, drawing n
  // numbers (the last draw changes nothing but the state), or an empty
  // vector, without drawing, when n < 0 or n > 10^6.
  vector<int> random_permutation(int n) {
    vector<int> v;
    if (n < 0 or n > 1000000) return v;
    v.resize(n);
    for (int i = 0; i < n; ++i) v[i] = i;
    for (int i = 0; i < n; ++i) swap(v[i], v[random(i, n - 1)]);
    return v;
  }

  // set_random_seed reseeds the generator (a negative seed is negated, then
  // the low 31 bits are kept).
  void set_random_seed(int seed) {
    long long x = seed;
    if (x < 0) x = -x;
    s_ = x & 0x7fffffffLL;
  }

 private:
  friend struct jgym_runner;
  friend struct jgym_layout;

  long long s_;

  void step() { s_ = (843314861LL * s_ + 453816693LL) & 0x7fffffffLL; }

  static void static_layout_check_() {
    static_assert(sizeof(Random_generator) == 8, "Random_generator must be one long long (SPEC 11.7)");
  }
};

#endif
