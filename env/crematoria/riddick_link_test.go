package crematoria_test

// Riddick, the game's strong bot (Def.StrongBot), is the package
// jgym/env/crematoria/riddick, which imports this one. This external test
// file imports it, which links it into the package's test binary: its init
// registers "Riddick" in Def's bots before any test runs, for the
// conformance suite (it seats Def.StrongBot) and the package's own tests
// (newRiddick, the seats named "Riddick").
import _ "jgym/env/crematoria/riddick"
