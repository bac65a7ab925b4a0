package archtest

import (
	"slices"
	"strings"
	"testing"
)

// The command line's rooms, bottom up: cmdutil (what every command
// shares), then the bigger shared machinery, each room importing only
// those before it (sharedOrder), then the commands (internal/cmd/VERB),
// then internal/app, which assembles them, and main.
var sharedOrder = []string{
	"internal/build",
	"internal/cmdutil",
	"internal/channelwire",
	"internal/chooser",
	"internal/bridge",
	"internal/hostflow",
	"internal/runflow",
}

// wiring are the command line's packages: the rooms it shares, the
// commands and the app (each with what is under it).
var wiring = append(slices.Clone(sharedOrder[1:]), "internal/cmd", "internal/app")

// isWiring reports whether the module's package rel is the command line's.
func isWiring(rel string) bool {
	return slices.ContainsFunc(wiring, func(w string) bool { return under(rel, w) })
}

// under reports whether rel is room or a package under it.
func under(rel, room string) bool { return rel == room || strings.HasPrefix(rel, room+"/") }

// linksApp reports whether rel may import internal/app: main;
// scripts/initonly, which links every package main links to measure their
// initialisers; and scripts/gendocs, which renders the command reference
// with the app's own help.
func linksApp(rel string) bool {
	return rel == "" || rel == "scripts/initonly" || rel == "scripts/gendocs"
}

// command is the command package rel is, or is under ("internal/cmd/run"),
// or "" when it is none.
func command(rel string) string {
	rest, ok := strings.CutPrefix(rel, "internal/cmd/")
	if !ok {
		return ""
	}
	verb, _, _ := strings.Cut(rest, "/")
	return "internal/cmd/" + verb
}

// TestRooms holds the layout of the command line (internal/cmd/VERB, a
// package per command, as cli/cli's pkg/cmd): a command never imports
// another command; what they share flows one way, from cmdutil down, and
// never back up to a command or the app; only main imports the app.
func TestRooms(t *testing.T) {
	pkgs := listPackages(t)
	seenCommands := 0
	for _, p := range pkgs {
		rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		own := command(rel)
		if own != "" && rel == own {
			seenCommands++
		}
		for _, d := range p.Deps {
			dep, ok := strings.CutPrefix(d, module+"/")
			if other := command(dep); ok && other != "" && own != "" && other != own {
				t.Errorf("%s depends on %s: a command never imports another command; move what they share to cmdutil or a shared room", rel, dep)
			}
		}
		for _, d := range p.Imports {
			dep, ok := strings.CutPrefix(d, module+"/")
			switch {
			case !ok:
			case command(dep) != "" && own == "" && rel != "internal/app":
				t.Errorf("%s imports %s: only internal/app assembles the commands; what commands share flows down, never back", rel, dep)
			case under(dep, "internal/app") && !linksApp(rel):
				t.Errorf("%s imports internal/app: nothing but main imports the app", rel)
			}
		}
		// The shared rooms, each importing only those before it.
		for i, room := range sharedOrder {
			if !under(rel, room) {
				continue
			}
			for _, later := range sharedOrder[i+1:] {
				for _, d := range p.Deps {
					if dep, ok := strings.CutPrefix(d, module+"/"); ok && under(dep, later) {
						t.Errorf("%s depends on %s: the shared rooms flow one way (%s)", rel, dep, strings.Join(sharedOrder, " ← "))
					}
				}
			}
		}
	}
	if seenCommands < 10 {
		t.Fatalf("found %d command packages under internal/cmd; the test is looking in the wrong place", seenCommands)
	}
}
