// Package viewer serves a web page that replays a trace (.res file) of any of
// the four games, Crematoria, Dominator, Pandemic and Moria, in the browser.
//
// The page is a self-contained single-page application (plain HTML, CSS and
// JavaScript embedded in the binary, no external resources), so it works
// offline. The server only hands out two things: the page itself at "/" (plus
// its static assets) and the raw trace at "/trace.res". All parsing and
// rendering happens in the browser, which tokenizes the trace on whitespace
// exactly like the course viewers do (each SPEC's §10, "What the viewer
// reads"), reads the game's name after the "Seed N" line and hands the rest
// to that game's module (static/games/<game>.js). A trace that breaks off
// (an aborted game) is shown up to its last complete state, with no winner.
//
// Typical use:
//
//	trace, err := viewer.LoadTrace("game.res.gz")
//	if err != nil { ... }
//	err = viewer.Serve(ctx, "127.0.0.1:0", trace, "game.res.gz", func(url string) {
//		fmt.Println("viewer at", url)
//	})
//
// When the trace is nil the page starts with a file picker (drag and drop or
// "Open trace"), so the viewer can also be served without a trace.
package viewer
