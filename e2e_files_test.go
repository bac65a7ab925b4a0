package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// fileCmds make and run the bad-input catalog's files:
//
//	mkfile FILE HEAD [UNIT COUNT [TAIL]]  write HEAD, UNIT COUNT times, then TAIL; Go escapes (\n, \x00, \xff) allowed
//	bounded MiB SECONDS N prog args...    run prog (as code N does) and fail if it peaks above MiB of memory or runs longer than SECONDS
//	sparse FILE BYTES                     make FILE BYTES long without writing them (a hole: it costs no disk)
//	mkfifo FILE                           make a named pipe (skips the script where there are none)
//
// mkfile builds the large and binary files in the script's work directory,
// so none is committed. The condition [root] (scriptCondition) lets a
// script skip what root can do whatever the file modes.
func fileCmds() map[string]func(ts *testscript.TestScript, neg bool, args []string) {
	return map[string]func(ts *testscript.TestScript, neg bool, args []string){
		"mkfile":  cmdMkfile,
		"bounded": cmdBounded,
		"sparse":  cmdSparse,
		"mkfifo":  cmdMkfifo,
	}
}

func cmdSparse(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: sparse FILE BYTES")
	}
	n, err := strconv.ParseInt(args[1], 10, 64)
	ts.Check(err)
	f, err := os.OpenFile(ts.MkAbs(args[0]), os.O_WRONLY|os.O_CREATE, 0o600)
	ts.Check(err)
	ts.Check(f.Truncate(n))
	ts.Check(f.Close())
}

func cmdMkfile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || (len(args) != 2 && len(args) != 4 && len(args) != 5) {
		ts.Fatalf("usage: mkfile FILE HEAD [UNIT COUNT [TAIL]]")
	}
	text := func(s string) string {
		u, err := strconv.Unquote(`"` + strings.ReplaceAll(s, `"`, `\"`) + `"`)
		ts.Check(err)
		return u
	}
	f, err := os.Create(ts.MkAbs(args[0]))
	ts.Check(err)
	defer f.Close()
	_, err = f.WriteString(text(args[1]))
	ts.Check(err)
	if len(args) >= 4 {
		n, err := strconv.Atoi(args[3])
		ts.Check(err)
		unit := text(args[2])
		chunk := strings.Repeat(unit, max(1, min(n, (1<<20)/max(1, len(unit)))))
		for left := n * len(unit); left > 0; left -= len(chunk) {
			_, err = f.WriteString(chunk[:min(left, len(chunk))])
			ts.Check(err)
		}
	}
	if len(args) == 5 {
		_, err = f.WriteString(text(args[4]))
		ts.Check(err)
	}
	ts.Check(f.Close())
}

// scriptCondition adds the condition [root]: the tests run as root, for
// whom chmod 000 does not make a file unreadable.
func scriptCondition(cond string) (bool, error) {
	if cond == "root" {
		return os.Geteuid() == 0, nil
	}
	return false, fmt.Errorf("unknown condition %q", cond)
}

var (
	maxrssOnce sync.Once
	maxrssErr  error
)

// maxrssBin builds scripts/maxrss once: a child of the test binary would
// report the test binary's peak memory when that is larger (see there).
func maxrssBin(ts *testscript.TestScript) string {
	bin := filepath.Join(binDir, "maxrss")
	maxrssOnce.Do(func() {
		build := exec.Command("go", "build", "-o", bin, "./scripts/maxrss")
		build.Dir = ts.Getenv("ROOT")
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			maxrssErr = fmt.Errorf("build scripts/maxrss: %v\n%s", err, out)
		}
	})
	ts.Check(maxrssErr)
	return bin
}

// cmdBounded runs prog under scripts/maxrss and checks its exit code, peak
// resident memory and time. A run four times over its time is killed (with
// its process group), so a regression fails the script rather than hanging
// it; its output becomes stdout and stderr for the next checks.
func cmdBounded(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 4 {
		ts.Fatalf("usage: bounded MiB SECONDS N program [args...]")
	}
	var limits [3]int
	for i := range limits {
		n, err := strconv.Atoi(args[i])
		ts.Check(err)
		limits[i] = n
	}
	maxMiB, maxTime, want := limits[0], time.Duration(limits[1])*time.Second, limits[2]
	report := ts.MkAbs(".bounded-report")
	ctx, cancel := context.WithTimeout(context.Background(), 4*maxTime)
	defer cancel()
	cmd := exec.CommandContext(ctx, maxrssBin(ts), append([]string{report, lookPath(ts, args[3])}, args[4:]...)...)
	cmd.Dir = ts.MkAbs(".")
	for _, k := range append(slices.Clone(stateOf(ts).baseKeys), envKeys...) {
		cmd.Env = append(cmd.Env, k+"="+ts.Getenv(k))
	}
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	ownGroup(cmd)
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	fmt.Fprint(ts.Stdout(), stdout.String())
	fmt.Fprint(ts.Stderr(), stderr.String())
	if ctx.Err() != nil {
		ts.Fatalf("%s ran for more than %s and was killed", args[3], 4*maxTime)
	}
	got := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		got = ee.ExitCode()
	} else if err != nil {
		ts.Fatalf("bounded: %v", err)
	}
	var kib, ns int64
	if _, err := fmt.Sscanf(ts.ReadFile(report), "maxrss_kib=%d wall_ns=%d", &kib, &ns); err != nil {
		ts.Fatalf("bounded: reading the maxrss report: %v", err)
	}
	if runtime.GOOS == "darwin" {
		kib >>= 10 // darwin's ru_maxrss is in bytes, Linux's in KiB
	}
	ts.Logf("%s: exit %d, peak %d KiB, %s", args[3], got, kib, time.Duration(ns).Round(time.Millisecond))
	if got != want {
		ts.Fatalf("exit code %d, want %d", got, want)
	}
	if kib > int64(maxMiB)<<10 {
		ts.Fatalf("peak resident memory %d KiB, more than %d MiB", kib, maxMiB)
	}
	if time.Duration(ns) > maxTime {
		ts.Fatalf("took %s, more than %s", time.Duration(ns).Round(time.Millisecond), maxTime)
	}
}
