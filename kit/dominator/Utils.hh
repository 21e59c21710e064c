// Utils.hh: the header environment course bots take for granted, and small
// utilities (jgym's implementation of the Dominator kit, SPEC §11).
//
// Every bot sees these standard headers and "using namespace std;", as with
// the course kit.
#ifndef JGYM_KIT_UTILS_HH
#define JGYM_KIT_UTILS_HH

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <queue>
#include <set>
#include <sstream>
#include <stack>
#include <string>
#include <vector>

#include <fcntl.h>
#include <getopt.h>
#include <string.h>
#include <unistd.h>

using namespace std;

// _my_assert aborts with an ERROR line, as the course engine does.
#define _my_assert(b, msg)                                \
  do {                                                    \
    if (!(b)) {                                           \
      cerr << "ERROR: " << msg << endl;                   \
      abort();                                            \
    }                                                     \
  } while (0)

// int_to_string returns the decimal text of i.
inline string int_to_string(int i) {
  ostringstream oss;
  oss << i;
  return oss.str();
}

// string_to_int parses a decimal integer (0 when s does not start with one).
inline int string_to_int(const string& s) {
  istringstream iss(s);
  int i = 0;
  iss >> i;
  return i;
}

#endif
