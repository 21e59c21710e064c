// AIDemo.cc: the course's Demo player (SPEC §12), written against jgym's
// kit. It plays badly on purpose; what matters is that it draws exactly the
// same random numbers as the course's Demo, so that games against it
// reproduce the course's traces byte for byte. Like every player it
// reasons in its own view, where it is player 0.
#include "Player.hh"

#define PLAYER_NAME Demo

struct PLAYER_NAME : public Player {
  static Player* factory() { return new PLAYER_NAME; }

  // kind: for every farmer ever seen, 0 (random moves) or 1 (cycle
  // Bottom, Right, Top, Left with the round). Kept for the whole game,
  // also while the farmer belongs to another player.
  map<int, int> kind;

  virtual void play() {
    move_farmers();
    move_knights();
    vector<int> W = witches(0);
    // (With fewer than two witches the course's Demo reads past the end
    // of the list; this one leaves the missing witches alone.)
    if (W.size() > 0) command(W[0], first_witch());
    if (W.size() > 1) command(W[1], second_witch());
  }

  // move_farmers commands every farmer, in increasing id order.
  void move_farmers() {
    vector<int> F = farmers(0);
    for (int x = 0; x < int(F.size()); ++x) {
      int id = F[x];
      if (kind.find(id) == kind.end()) kind[id] = random(0, 1);
      if (kind[id] == 0)
        command(id, Dir(2 * random(0, 3)));
      else
        command(id, Dir(2 * (round() % 4)));
    }
  }

  // move_knights attacks a random adjacent rival on even rounds (or moves
  // at random), and moves diagonally on odd rounds.
  void move_knights() {
    vector<int> K = knights(0);
    if (round() % 2 == 0) {
      for (int x = 0; x < int(K.size()); ++x) {
        int id = K[x];
        Pos p = unit(id).pos;
        vector<int> D;
        for (int d = 0; d < 8; ++d) {
          Cell c = cell(p + Dir(d));  // off the board: a warning and the default cell
          if (c.id == -1) continue;
          Unit v = unit(c.id);
          if (v.player != 0 and v.type != Witch) D.push_back(d);
        }
        if (D.empty())
          command(id, Dir(random(0, 7)));
        else
          command(id, Dir(D[random(0, int(D.size()) - 1)]));
      }
    } else {
      int num = K.size();
      vector<int> perm = random_permutation(num);
      for (int i = 0; i < num; ++i) command(K[i], Dir(2 * (perm[i] % 4) + 1));
    }
  }

  // first_witch walks up, left, stays, walks down, then looks at one of
  // four random positions. The course's Demo is compiled with g++ -O2,
  // which evaluates the arguments of Pos(random(0, 36), random(0, 36))
  // right to left: the column is drawn first, then the row. The order is
  // written out here so that it does not depend on the compiler.
  Dir first_witch() {
    int r = round();
    if (r < 40) return Top;
    if (r < 80) return Left;
    if (r < 120) return None;
    if (r < 160) return Bottom;
    set<Pos> S;
    while (S.size() < 4) {
      int col = random(0, 36);
      int row = random(0, 36);
      S.insert(Pos(row, col));
    }
    vector<Pos> V(S.begin(), S.end());
    if (V[random(0, 3)].i < 18) return None;
    return Top;
  }

  // second_witch is a chain of conditions on what the Demo sees.
  Dir second_witch() {
    if (total_score(1) > 10000) return Bottom;
    if (land(3) > 100) return Right;
    if (cell(35, 35).type == Wall) return None;
    return Top;
  }
};

RegisterPlayer(PLAYER_NAME);
