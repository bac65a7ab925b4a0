// Package build holds what the build says about askuser: its version. It
// imports nothing of askuser's, so every room may ask it.
//
// The release build sets the version with
// -ldflags "-X github.com/askuser/askuser/internal/build.Version=v1.2.3".
package build

import "runtime/debug"

// Version is set at build time with
// -ldflags "-X github.com/askuser/askuser/internal/build.Version=v1.2.3".
// Left empty, the version Go recorded in the build is used (the module
// version under go install), and "dev" only when there is none.
var Version = ""

// Current is askuser's version, from the build.
func Current() string {
	if Version != "" {
		return Version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}
