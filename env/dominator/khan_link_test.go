package dominator_test

// Khan, the game's strong bot (Def.StrongBot), is the package
// jgym/env/dominator/khan, which imports this one. This external test file
// imports it, which links it into the package's test binary: its init
// registers "Khan" in Def's bots before any test runs, for the conformance
// suite (it seats Def.StrongBot) and the package's own tests (newKhan, the
// seats named "Khan").
import _ "jgym/env/dominator/khan"
