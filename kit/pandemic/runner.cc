// runner.cc: the main program of a jgym C++ bot for Pandemic. It is linked
// with one bot object (AI<Name>.o) and plays one seat of one game, talking
// to the jgym engine over its standard input and output
// (docs/cpp-bots.md):
//
//   engine: init <me> <seed> <11 settings>       runner: ready <name>
//           cities ... paths ...
//   engine: round <r> ... play                   runner: commands <n> <id> <dir> ...
//   (repeated every round; end of input ends the program)
//
// The init message carries the map (cities and paths), which never
// changes; every round message carries the rest of the state the player
// sees. Any problem is answered with one line "error <kind> <text>" and a
// non-zero exit; kind is protocol, exception, too-many-commands, layout or
// registry.
//
// Before the bot's static initializers run, the protocol streams are moved
// away from file descriptors 0 and 1: the bot's cin reads /dev/null and its
// cout goes to stderr, so debug prints cannot corrupt the protocol.
//
// Options: --list prints the registered players; --layout prints the
// memory layout of Player and checks it against SPEC §11.7.
#include "Player.hh"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stddef.h>
#include <unistd.h>

#include <exception>

namespace {

int proto_in = 0;   // protocol input (the engine's messages)
int proto_out = 1;  // protocol output (the runner's answers)

// move_protocol_fds runs before every other static initializer of the
// program (the bot's registration included).
__attribute__((constructor(101))) void move_protocol_fds() {
  int in = fcntl(0, F_DUPFD_CLOEXEC, 3);
  int out = fcntl(1, F_DUPFD_CLOEXEC, 3);
  if (in < 0 or out < 0) return;  // keep 0 and 1
  proto_in = in;
  proto_out = out;
  int nul = open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (nul >= 0) {
    dup2(nul, 0);
    close(nul);
  }
  dup2(2, 1);
}

// The registry, created on first use (static initialization order).
map<string, Registry::Factory>& registry() {
  static map<string, Registry::Factory>* r = new map<string, Registry::Factory>;
  return *r;
}
vector<string>& duplicates() {
  static vector<string>* d = new vector<string>;
  return *d;
}

// wait_for blocks until fd is ready (for descriptors left non-blocking).
void wait_for(int fd, short events) {
  struct pollfd p;
  p.fd = fd;
  p.events = events;
  p.revents = 0;
  poll(&p, 1, -1);
}

// Reader reads whitespace-separated tokens from a file descriptor.
class Reader {
 public:
  explicit Reader(int fd) : fd_(fd), pos_(0), len_(0) {}

  // word reads the next token; false at the end of input.
  bool word(string& w) {
    w.clear();
    int c;
    do {
      c = get();
    } while (c == ' ' or c == '\n' or c == '\t' or c == '\r');
    if (c < 0) return false;
    while (c >= 0 and c != ' ' and c != '\n' and c != '\t' and c != '\r') {
      w.push_back(char(c));
      c = get();
    }
    return true;
  }

  // integer reads a decimal integer token.
  bool integer(long long& v) {
    if (not word(tok_) or tok_.empty() or tok_.size() > 18) return false;
    size_t i = 0;
    bool neg = false;
    if (tok_[0] == '-') {
      neg = true;
      i = 1;
      if (tok_.size() == 1) return false;
    }
    v = 0;
    for (; i < tok_.size(); ++i) {
      if (tok_[i] < '0' or tok_[i] > '9') return false;
      v = 10 * v + (tok_[i] - '0');
    }
    if (neg) v = -v;
    return true;
  }

  // integer reads a decimal integer in [lo, hi].
  bool integer(int& v, long long lo, long long hi) {
    long long x;
    if (not integer(x) or x < lo or x > hi) return false;
    v = int(x);
    return true;
  }

  // real reads a floating-point token (as strtod reads it, the whole
  // token).
  bool real(double& v) {
    if (not word(tok_) or tok_.empty() or tok_.size() > 64) return false;
    char* end = 0;
    v = strtod(tok_.c_str(), &end);
    return end == tok_.c_str() + tok_.size();
  }

 private:
  int get() {
    if (pos_ == len_) {
      ssize_t n;
      for (;;) {
        n = read(fd_, buf_, sizeof buf_);
        if (n >= 0) break;
        if (errno == EAGAIN or errno == EWOULDBLOCK)
          wait_for(fd_, POLLIN);
        else if (errno != EINTR)
          return -1;
      }
      if (n == 0) return -1;
      pos_ = 0;
      len_ = size_t(n);
    }
    return (unsigned char)buf_[pos_++];
  }

  int fd_;
  size_t pos_, len_;
  char buf_[1 << 16];
  string tok_;
};

// send writes s entirely to the protocol output.
void send(const string& s) {
  size_t off = 0;
  while (off < s.size()) {
    ssize_t n = write(proto_out, s.data() + off, s.size() - off);
    if (n < 0 and errno == EINTR) continue;
    if (n < 0 and (errno == EAGAIN or errno == EWOULDBLOCK)) {
      wait_for(proto_out, POLLOUT);
      continue;
    }
    if (n <= 0) _exit(1);  // the engine is gone
    off += size_t(n);
  }
}

// fail answers with an error line "error <kind> <text>" and ends the
// program.
void fail(const string& kind, const string& msg, int status) {
  cout.flush();
  cerr.flush();
  string line = "error " + kind + " ";
  for (size_t i = 0; i < msg.size(); ++i) line.push_back(msg[i] == '\n' ? ' ' : msg[i]);
  send(line + "\n");
  _exit(status);
}

void protocol_error(const string& what) { fail("protocol", what, 2); }

}  // namespace

int Registry::Register(const char* name, Factory factory) {
  string n = name;
  if (registry().count(n)) duplicates().push_back(n);
  registry()[n] = factory;
  return 0;
}

Player* Registry::new_player(const string& name) {
  map<string, Factory>::const_iterator it = registry().find(name);
  if (it == registry().end()) return 0;
  return it->second();
}

vector<string> Registry::names() {
  vector<string> v;
  for (map<string, Factory>::const_iterator it = registry().begin(); it != registry().end(); ++it)
    v.push_back(it->first);
  return v;
}

void Registry::print_players(ostream& os) {
  vector<string> v = names();
  for (size_t i = 0; i < v.size(); ++i) os << v[i] << endl;
}

// jgym_runner is the runner's access to the private parts of the player.
struct jgym_runner {
  // The map of the game, from the init message: the city and path of
  // every cell (-1 if none), row-major.
  static vector<int>& city_at() {
    static vector<int> v;
    return v;
  }
  static vector<int>& path_at() {
    static vector<int> v;
    return v;
  }

  // layout returns the offsets of SPEC §11.7 that differ from the
  // expected ones ("" if none), and prints them all to os if it is not 0.
  static string layout(ostream* os) {
    Player p;
    const char* base = reinterpret_cast<const char*>(&p);
    struct Item {
      const char* name;
      long got, want;
    } items[] = {
        {"sizeof(Player)", long(sizeof(Player)), 432},
        {"Info", long(reinterpret_cast<const char*>(static_cast<Info*>(&p)) - base), 8},
        {"Settings", long(reinterpret_cast<const char*>(static_cast<Settings*>(&p)) - base), 8},
        {"State", long(reinterpret_cast<const char*>(static_cast<State*>(&p)) - base), 88},
        {"Random_generator", long(reinterpret_cast<const char*>(static_cast<Random_generator*>(&p)) - base), 336},
        {"Action", long(reinterpret_cast<const char*>(static_cast<Action*>(&p)) - base), 344},
        {"me", long(reinterpret_cast<const char*>(&p.me_) - base), 424},
        {"nb_players", long(reinterpret_cast<const char*>(&p.nb_players_) - base), 8},
        {"bonus_per_city_cell", long(reinterpret_cast<const char*>(&p.bonus_per_city_cell_) - base), 56},
        {"infection_factor", long(reinterpret_cast<const char*>(&p.infection_factor_) - base), 72},
        {"mask_protection", long(reinterpret_cast<const char*>(&p.mask_protection_) - base), 80},
        {"cities", long(reinterpret_cast<const char*>(&p.cities_) - base), 88},
        {"paths", long(reinterpret_cast<const char*>(&p.paths_) - base), 112},
        {"grid", long(reinterpret_cast<const char*>(&p.grid_) - base), 136},
        {"city owners", long(reinterpret_cast<const char*>(&p.city_owners_) - base), 160},
        {"path owners", long(reinterpret_cast<const char*>(&p.path_owners_) - base), 184},
        {"units", long(reinterpret_cast<const char*>(&p.units_) - base), 208},
        {"unit lists", long(reinterpret_cast<const char*>(&p.player_units_) - base), 232},
        {"masks", long(reinterpret_cast<const char*>(&p.masks_) - base), 256},
        {"round", long(reinterpret_cast<const char*>(&p.round_) - base), 280},
        {"scores", long(reinterpret_cast<const char*>(&p.score_) - base), 288},
        {"status", long(reinterpret_cast<const char*>(&p.status_) - base), 312},
        {"random state", long(reinterpret_cast<const char*>(&p.s_) - base), 336},
        {"command counter", long(reinterpret_cast<const char*>(&p.q_) - base), 344},
        {"commanded ids", long(reinterpret_cast<const char*>(&p.u_) - base), 352},
        {"commands", long(reinterpret_cast<const char*>(&p.v_) - base), 400},
    };
    string bad;
    for (size_t i = 0; i < sizeof items / sizeof items[0]; ++i) {
      const Item& it = items[i];
      if (os) *os << it.name << " " << it.got << (it.got == it.want ? "" : " MISMATCH") << "\n";
      if (it.got != it.want) bad += string(" ") + it.name + "=" + int_to_string(int(it.got));
    }
    return bad;
  }

  static void expect(Reader& in, const char* word) {
    string w;
    if (not in.word(w) or w != word) protocol_error(string("expected '") + word + "', got '" + w + "'");
  }

  // read_init reads the init message (after "init") into p: the seat, the
  // settings, the generator's seed and the map.
  static void read_init(Reader& in, Player* p) {
    int me;
    long long seed;
    if (not in.integer(me, 0, 3) or not in.integer(seed)) protocol_error("bad init");
    Settings& s = *p;
    int* ints[9] = {&s.nb_players_,     &s.rows_,     &s.cols_,
                    &s.nb_rounds_,      &s.initial_health_, &s.nb_units_,
                    &s.bonus_per_city_cell_, &s.bonus_per_path_cell_, &s.factor_connected_component_};
    for (int k = 0; k < 9; ++k)
      if (not in.integer(*ints[k], -2147483647 - 1, 2147483647)) protocol_error("bad settings");
    if (not in.real(s.infection_factor_) or not in.real(s.mask_protection_)) protocol_error("bad settings");
    if (s.nb_players_ != 4 or s.rows_ < 1 or s.rows_ > 2000 or s.cols_ < 1 or s.cols_ > 2000 or s.nb_units_ < 1 or
        (long long)s.nb_players_ * s.nb_units_ > (long long)s.rows_ * s.cols_)
      protocol_error("settings out of range");
    p->me_ = me;
    p->set_random_seed(int((unsigned int)(seed + me + 1)));

    State& st = *p;
    const int rows = s.rows_, cols = s.cols_;
    vector<int>& cat = city_at();
    vector<int>& pat = path_at();
    cat.assign(rows * cols, -1);
    pat.assign(rows * cols, -1);
    int n;
    expect(in, "cities");
    if (not in.integer(n, 0, rows * cols)) protocol_error("bad city count");
    st.cities_.assign(n, City());
    for (int c = 0; c < n; ++c) read_cells(in, st.cities_[c], rows, cols, cat, c, "city");
    expect(in, "paths");
    if (not in.integer(n, 0, rows * cols)) protocol_error("bad path count");
    st.paths_.assign(n, Path());
    for (int c = 0; c < n; ++c) {
      Path& pa = st.paths_[c];
      int ncities = int(st.cities_.size());
      if (not in.integer(pa.first.first, 0, ncities - 1) or not in.integer(pa.first.second, 0, ncities - 1))
        protocol_error("bad path ends");
      read_cells(in, pa.second, rows, cols, pat, c, "path");
    }
  }

  // read_cells reads "<size> <i> <j> ..." into v and marks the cells with
  // id in at.
  static void read_cells(Reader& in, vector<Pos>& v, int rows, int cols, vector<int>& at, int id, const char* what) {
    int n;
    if (not in.integer(n, 0, rows * cols)) protocol_error(string("bad ") + what + " size");
    v.resize(n);
    for (int k = 0; k < n; ++k) {
      if (not in.integer(v[k].i, 0, rows - 1) or not in.integer(v[k].j, 0, cols - 1))
        protocol_error(string("bad ") + what + " cell");
      at[v[k].i * cols + v[k].j] = id;
    }
  }

  // char2cell sets the type and the virus of a cell from its trace
  // character (SPEC §3.2); false if c is not one.
  static bool char2cell(char c, Cell& x) {
    if (c == 'W') x.type = WALL, x.virus = 0;
    else if (c == '.') x.type = GRASS, x.virus = 0;
    else if (c == ';') x.type = CITY, x.virus = 0;
    else if (c == ',') x.type = PATH, x.virus = 0;
    else if (c >= 'a' and c <= 'd') x.type = GRASS, x.virus = c - 'a' + 1;
    else if (c >= 'A' and c <= 'J') x.type = CITY, x.virus = c - 'A' + 1;
    else if (c >= '0' and c <= '9') x.type = PATH, x.virus = c - '0' + 1;
    else return false;
    return true;
  }

  // read_round reads the state of a round (after "round") into p.
  static void read_round(Reader& in, Player* p) {
    State& s = *p;
    const int rows = p->rows(), cols = p->cols(), np = 4;
    const int nunits = np * p->nb_units();
    const vector<int>& cat = city_at();
    const vector<int>& pat = path_at();
    if (not in.integer(s.round_, 0, 1000000000)) protocol_error("bad round number");
    if (int(s.grid_.size()) != rows) s.grid_.assign(rows, vector<Cell>(cols));
    string line;
    for (int i = 0; i < rows; ++i) {
      if (not in.word(line) or int(line.size()) != cols) protocol_error("bad grid row");
      for (int j = 0; j < cols; ++j) {
        Cell& x = s.grid_[i][j];
        if (not char2cell(line[j], x)) protocol_error("bad cell character");
        x.unit_id = -1;
        x.city_id = cat[i * cols + j];
        x.path_id = pat[i * cols + j];
        x.mask = false;
      }
    }
    expect(in, "units");
    int n;
    if (not in.integer(n, nunits, nunits)) protocol_error("bad unit count");
    s.units_.resize(nunits);
    for (int id = 0; id < nunits; ++id) {
      Unit& u = s.units_[id];
      int immune, mask;
      u.id = id;
      if (not in.integer(u.player, 0, np - 1) or not in.integer(u.pos.i, 0, rows - 1) or
          not in.integer(u.pos.j, 0, cols - 1) or not in.integer(u.health, -2147483647 - 1, 2147483647) or
          not in.integer(u.damage, 0, 2147483647) or not in.integer(u.turns, 0, 2147483647) or
          not in.integer(immune, 0, 1) or not in.integer(mask, 0, 1))
        protocol_error("bad unit");
      u.immune = immune;
      u.mask = mask;
      s.grid_[u.pos.i][u.pos.j].unit_id = id;
    }
    expect(in, "my_units");
    s.player_units_.resize(np);
    for (int pl = 0; pl < np; ++pl) {
      vector<int>& v = s.player_units_[pl];
      if (not in.integer(n, 0, nunits)) protocol_error("bad unit list");
      v.resize(n);
      for (int k = 0; k < n; ++k)
        if (not in.integer(v[k], 0, nunits - 1)) protocol_error("bad unit list");
    }
    expect(in, "masks");
    if (not in.integer(n, 0, rows * cols)) protocol_error("bad mask count");
    s.masks_.resize(n);
    for (int k = 0; k < n; ++k) {
      Pos& m = s.masks_[k];
      if (not in.integer(m.i, 0, rows - 1) or not in.integer(m.j, 0, cols - 1)) protocol_error("bad mask");
      s.grid_[m.i][m.j].mask = true;
    }
    expect(in, "city_owners");
    s.city_owners_.resize(s.cities_.size());
    for (size_t k = 0; k < s.city_owners_.size(); ++k)
      if (not in.integer(s.city_owners_[k], -1, np - 1)) protocol_error("bad city owner");
    expect(in, "path_owners");
    s.path_owners_.resize(s.paths_.size());
    for (size_t k = 0; k < s.path_owners_.size(); ++k)
      if (not in.integer(s.path_owners_[k], -1, np - 1)) protocol_error("bad path owner");
    expect(in, "scores");
    s.score_.resize(np);
    for (int pl = 0; pl < np; ++pl) {
      // A score past the range of int wraps, as in the course program.
      long long x;
      if (not in.integer(x) or x < 0) protocol_error("bad score");
      s.score_[pl] = int((unsigned int)x);
    }
    expect(in, "status");
    s.status_.resize(np);
    for (int pl = 0; pl < np; ++pl) {
      // Only whole numbers are sent (the status is always 0 in jgym).
      int x;
      if (not in.integer(x, -1, 1)) protocol_error("bad status");
      s.status_[pl] = x;
    }
    expect(in, "play");
  }

  // play runs one round of the player and answers with its commands.
  static void play(Player* p) {
    Action& a = *p;
    a.q_ = 0;
    a.u_.clear();
    a.v_.clear();
    try {
      p->play();
    } catch (const std::exception& e) {
      fail("exception", "play() threw " + string(e.what()), 3);
    } catch (...) {
      fail("exception", "play() threw an exception", 3);
    }
    cout.flush();
    if (a.q_ > 1000)
      fail("too-many-commands",
           int_to_string(a.q_) + " commands in round " + int_to_string(p->round()) + " (max 1000)", 4);
    string out = "commands " + int_to_string(int(a.v_.size()));
    for (size_t i = 0; i < a.v_.size(); ++i) {
      out += ' ';
      out += int_to_string(a.v_[i].id);
      out += ' ';
      out += int_to_string(int(a.v_[i].dir));
    }
    out += '\n';
    send(out);
  }
};

int main(int argc, char** argv) {
  ios_base::sync_with_stdio(true);
  setvbuf(stdout, 0, _IOLBF, 0);
  for (int a = 1; a < argc; ++a) {
    string arg = argv[a];
    if (arg == "--list") {
      ostringstream os;
      Registry::print_players(os);
      send(os.str());
      return 0;
    }
    if (arg == "--layout") {
      ostringstream os;
      string bad = jgym_runner::layout(&os);
      send(os.str());
      return bad.empty() ? 0 : 1;
    }
    cerr << "usage: " << argv[0] << " [--list | --layout]  (the jgym engine drives this program)" << endl;
    return 2;
  }
  string bad = jgym_runner::layout(0);
  if (not bad.empty()) fail("layout", "the player's memory layout differs from the course kit's:" + bad, 5);

  Reader in(proto_in);
  jgym_runner::expect(in, "init");
  if (not duplicates().empty()) fail("registry", "player " + duplicates()[0] + " registered twice", 5);
  vector<string> names = Registry::names();
  if (names.size() != 1) {
    string list;
    for (size_t i = 0; i < names.size(); ++i) list += " " + names[i];
    fail("registry", "want exactly one registered player, found " + int_to_string(int(names.size())) +
             (list.empty() ? " (missing RegisterPlayer?)" : ":" + list),
         5);
  }
  Player* p = Registry::new_player(names[0]);
  if (not p) fail("registry", "the factory of " + names[0] + " returned no player", 5);
  jgym_runner::read_init(in, p);
  send("ready " + names[0] + "\n");

  string w;
  while (in.word(w)) {
    if (w != "round") protocol_error("expected 'round', got '" + w + "'");
    jgym_runner::read_round(in, p);
    jgym_runner::play(p);
  }
  cout.flush();
  return 0;
}
