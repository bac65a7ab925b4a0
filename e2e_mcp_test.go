package main

import (
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/askuser/askuser/internal/clients"
)

// TestMCPScripts runs the scripts of testdata/mcp: askuser run with real
// MCP reference servers from npm (scripts/install-clients.sh installs them;
// without them the test is skipped, and under CI=true it fails). The
// scripts find the servers as $FS_SERVER and $EVERYTHING_SERVER, and the
// variables askuser reads are passed to background processes as usual.
func TestMCPScripts(t *testing.T) {
	fs := clients.FilesystemServer(t)
	everything := clients.EverythingServer(t)
	testscript.Run(t, scriptParams("testdata/mcp", func(e *testscript.Env) {
		e.Setenv("FS_SERVER", fs)
		e.Setenv("EVERYTHING_SERVER", everything)
	}))
}
