package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// binDir holds the askuser binary built once for this test run.
var binDir string

func TestMain(m *testing.M) {
	os.Exit(buildAndRun(m))
}

func buildAndRun(m *testing.M) int {
	dir, err := os.MkdirTemp("", "askuser-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	build := exec.Command("go", "build", "-o", filepath.Join(dir, "askuser"), ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build askuser:", err)
		return 1
	}
	binDir = dir
	return m.Run()
}

// askuserBin is the path of the binary under test.
func askuserBin() string { return filepath.Join(binDir, "askuser") }

// TestScripts runs the end-to-end scripts in testdata/script against the
// built binary: one per frontend, per exit code and per kind of bad input.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		Setup: func(e *testscript.Env) error {
			e.Setenv("PATH", binDir+string(os.PathListSeparator)+e.Getenv("PATH"))
			e.Setenv("ASKUSER_STATE_DIR", filepath.Join(e.WorkDir, ".state"))
			e.Setenv("NO_COLOR", "1")
			root, err := os.Getwd()
			if err != nil {
				return err
			}
			e.Setenv("ROOT", root)
			return nil
		},
		Cmds: scriptCmds,
	})
}

var scriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	// code N prog args...: run prog and require exit code N; stdout and
	// stderr are kept for the next checks.
	"code": func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) < 2 {
			ts.Fatalf("usage: code N program [args...]")
		}
		want, err := strconv.Atoi(args[0])
		if err != nil {
			ts.Fatalf("code: %v", err)
		}
		err = ts.Exec(args[1], args[2:]...)
		got := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			got = ee.ExitCode()
		} else if err != nil {
			ts.Fatalf("code: %v", err)
		}
		if got != want {
			ts.Fatalf("exit code %d, want %d", got, want)
		}
	},
}
