// runner.cc: the main program of a jgym C++ bot for Dominator. It is
// linked with one bot object (AI<Name>.o) and plays one seat of one game,
// talking to the jgym engine over its standard input and output
// (docs/cpp-bots.md, "Dominator"):
//
//   engine: init <me> <seed> <13 settings>      runner: ready <name>
//   engine: round <r> <nunits> ... play         runner: commands <n> <id> <dir> ...
//   (repeated every round; end of input ends the program)
//
// The round message is the player's rotated view of the state (SPEC §3.4),
// already turned by the engine: the runner copies it into the player as it
// is. Any problem is answered with one line "error <kind> <text>" and a
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
  // layout returns the offsets of SPEC §11.7 that differ from the
  // expected ones ("" if none), and prints them all to os if it is not 0.
  static string layout(ostream* os) {
    Player p;
    const char* base = reinterpret_cast<const char*>(&p);
    struct Item {
      const char* name;
      long got, want;
    } items[] = {
        {"sizeof(Player)", long(sizeof(Player)), 360},
        {"Info", long(reinterpret_cast<const char*>(static_cast<Info*>(&p)) - base), 8},
        {"Settings", long(reinterpret_cast<const char*>(static_cast<Settings*>(&p)) - base), 8},
        {"State", long(reinterpret_cast<const char*>(static_cast<State*>(&p)) - base), 64},
        {"Random_generator", long(reinterpret_cast<const char*>(static_cast<Random_generator*>(&p)) - base), 264},
        {"Action", long(reinterpret_cast<const char*>(static_cast<Action*>(&p)) - base), 272},
        {"player number", long(reinterpret_cast<const char*>(&p.me_) - base), 352},
        {"nb_players", long(reinterpret_cast<const char*>(&p.nb_players_) - base), 8},
        {"rows", long(reinterpret_cast<const char*>(&p.rows_) - base), 52},
        {"cols", long(reinterpret_cast<const char*>(&p.cols_) - base), 56},
        {"grid", long(reinterpret_cast<const char*>(&p.grid_) - base), 64},
        {"round", long(reinterpret_cast<const char*>(&p.round_) - base), 88},
        {"units", long(reinterpret_cast<const char*>(&p.unit_) - base), 96},
        {"land", long(reinterpret_cast<const char*>(&p.land_) - base), 120},
        {"total_score", long(reinterpret_cast<const char*>(&p.total_score_) - base), 144},
        {"cpu_status", long(reinterpret_cast<const char*>(&p.cpu_status_) - base), 168},
        {"farmers", long(reinterpret_cast<const char*>(&p.farmers_) - base), 192},
        {"knights", long(reinterpret_cast<const char*>(&p.knights_) - base), 216},
        {"witches", long(reinterpret_cast<const char*>(&p.witches_) - base), 240},
        {"random state", long(reinterpret_cast<const char*>(&p.s_) - base), 264},
        {"command counter", long(reinterpret_cast<const char*>(&p.q_) - base), 272},
        {"commanded ids", long(reinterpret_cast<const char*>(&p.u_) - base), 280},
        {"commands", long(reinterpret_cast<const char*>(&p.v_) - base), 328},
    };
    string bad;
    for (size_t i = 0; i < sizeof items / sizeof items[0]; ++i) {
      const Item& it = items[i];
      if (os) *os << it.name << " " << it.got << (it.got == it.want ? "" : " MISMATCH") << "\n";
      if (it.got != it.want) bad += string(" ") + it.name + "=" + int_to_string(int(it.got));
    }
    return bad;
  }

  // start sets the player number, the settings and the generator of a new
  // player (SPEC §1.5: seed + p + 1 in int arithmetic).
  static void start(Player* p, int me, long long seed, const int* settings) {
    p->me_ = me;
    Settings& s = *p;
    int* f[13] = {&s.nb_players_,     &s.nb_rounds_,      &s.nb_farmers_,     &s.nb_knights_, &s.nb_witches_,
                  &s.farmers_health_, &s.knights_health_, &s.farmers_regen_,  &s.knights_regen_,
                  &s.damage_min_,     &s.damage_max_,     &s.rows_,           &s.cols_};
    for (int i = 0; i < 13; ++i) *f[i] = settings[i];
    p->set_random_seed(int((unsigned int)(seed) + (unsigned int)(me) + 1u));
  }

  static void expect(Reader& in, const char* word) {
    string w;
    if (not in.word(w) or w != word) protocol_error(string("expected '") + word + "', got '" + w + "'");
  }

  static void read_ids(Reader& in, vector<int>& v, int nunits, const char* what) {
    int n;
    if (not in.integer(n, 0, nunits)) protocol_error(string("bad count of ") + what);
    v.resize(n);
    for (int i = 0; i < n; ++i)
      if (not in.integer(v[i], 0, nunits - 1)) protocol_error(string("bad id in ") + what);
  }

  static void read_lists(Reader& in, vector<vector<int> >& v, int nunits, const char* what) {
    expect(in, what);
    v.resize(4);
    for (int pl = 0; pl < 4; ++pl) read_ids(in, v[pl], nunits, what);
  }

  static void read_ints(Reader& in, vector<int>& v, const char* what) {
    expect(in, what);
    v.resize(4);
    for (int pl = 0; pl < 4; ++pl)
      if (not in.integer(v[pl], -2147483647LL - 1, 2147483647LL)) protocol_error(string("bad ") + what);
  }

  // read_round reads the player's view of a round (after "round") into p.
  static void read_round(Reader& in, Player* p) {
    State& s = *p;
    const int rows = p->rows(), cols = p->cols();
    int nunits;
    if (not in.integer(s.round_, 0, 1000000000) or not in.integer(nunits, 0, 1000000))
      protocol_error("bad round header");
    if (int(s.grid_.size()) != rows or (rows > 0 and int(s.grid_[0].size()) != cols))
      s.grid_.assign(rows, vector<Cell>(cols));
    string line;
    for (int i = 0; i < rows; ++i) {
      if (not in.word(line) or int(line.size()) != cols) protocol_error("bad grid row");
      for (int j = 0; j < cols; ++j) {
        char c = line[j];
        if (not(c == 'X' or c == '.' or (c >= '0' and c <= '3'))) protocol_error("bad cell character");
        s.grid_[i][j] = State::char2cell(c);
      }
    }
    s.unit_.resize(nunits);
    for (int id = 0; id < nunits; ++id) {
      Unit& u = s.unit_[id];
      string t;
      if (not in.word(t) or t.size() != 1 or string("fkw").find(t[0]) == string::npos)
        protocol_error("bad unit type");
      u.type = char2ut(t[0]);
      u.id = id;
      int active;
      if (not in.integer(u.player, 0, 3) or not in.integer(u.pos.i, -1, rows - 1) or
          not in.integer(u.pos.j, -1, cols - 1) or not in.integer(u.health, -1, 1000000000) or
          not in.integer(active, 0, 1))
        protocol_error("bad unit");
      u.active = active == 1;
    }
    expect(in, "occupied");
    int m;
    if (not in.integer(m, 0, rows * cols)) protocol_error("bad occupied count");
    for (int x = 0; x < m; ++x) {
      int idx, id;
      if (not in.integer(idx, 0, rows * cols - 1) or not in.integer(id, 0, nunits - 1))
        protocol_error("bad occupied cell");
      s.grid_[idx / cols][idx % cols].id = id;
    }
    expect(in, "haunted");
    if (not in.integer(m, 0, rows * cols)) protocol_error("bad haunted count");
    for (int x = 0; x < m; ++x) {
      int idx;
      if (not in.integer(idx, 0, rows * cols - 1)) protocol_error("bad haunted cell");
      s.grid_[idx / cols][idx % cols].haunted = true;
    }
    read_ints(in, s.land_, "land");
    read_ints(in, s.total_score_, "total_score");
    read_lists(in, s.farmers_, nunits, "farmers");
    read_lists(in, s.knights_, nunits, "knights");
    read_lists(in, s.witches_, nunits, "witches");
    expect(in, "status");
    s.cpu_status_.resize(4);
    for (int pl = 0; pl < 4; ++pl) {
      // Only whole numbers are sent (the status is always 0 in this game).
      int x;
      if (not in.integer(x, -1, 1)) protocol_error("bad status");
      s.cpu_status_[pl] = x;
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
  int me, settings[13];
  long long seed;
  if (not in.integer(me, 0, 3) or not in.integer(seed) or seed < 0 or seed > 0x7fffffffLL)
    protocol_error("bad init");
  for (int i = 0; i < 13; ++i)
    if (not in.integer(settings[i], 0, 1000000000)) protocol_error("bad settings");
  if (settings[0] != 4 or settings[11] < 1 or settings[11] > 10000 or settings[12] < 1 or settings[12] > 10000)
    protocol_error("bad settings: want 4 players and 1 to 10000 rows and columns");

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
  jgym_runner::start(p, me, seed, settings);
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
