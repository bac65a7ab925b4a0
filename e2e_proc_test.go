package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// waitLimit bounds every wait of these tests, so a stuck askuser fails the
// test instead of hanging it.
const waitLimit = 20 * time.Second

// proc is a background process of a script. Unlike testscript's own
// "exec ... &", its stdin is a pipe the script keeps open (and writes to
// with feed), and its output goes to files the script can wait on while it
// runs.
type proc struct {
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	outPath string
	errPath string
	done    chan struct{}
	err     error
}

// procCmds are the script commands for background processes.
func procCmds() map[string]func(ts *testscript.TestScript, neg bool, args []string) {
	return map[string]func(ts *testscript.TestScript, neg bool, args []string){
		"bg":       cmdBg,
		"feed":     cmdFeed,
		"closein":  cmdCloseIn,
		"waitfor":  cmdWaitFor,
		"signal":   cmdSignal,
		"waitcode": cmdWaitCode,
	}
}

// envKeys are the variables askuser reads, passed to background processes
// as the script has them (testscript keeps its environment private).
var envKeys = []string{"ASKUSER_FRONTEND", "ASKUSER_ANSWERS", "ASKUSER_ON_UNANSWERED", "ASKUSER_STATE_DIR",
	"ASKUSER_NOTIFY_CMD", "ASKUSER_BELL", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "OPENAI_API_KEY",
	"OPENAI_BASE_URL", "NO_COLOR", "XDG_STATE_HOME", "ROOT"}

// cmdBg starts a background process: bg NAME prog args...
func cmdBg(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: bg NAME program [args...]")
	}
	st := stateOf(ts)
	name := args[0]
	if _, dup := st.procs[name]; dup {
		ts.Fatalf("bg: %q is already running", name)
	}
	path := lookPath(ts, args[1])
	cmd := exec.Command(path, args[2:]...)
	cmd.Dir = ts.MkAbs(".")
	for _, k := range append(slices.Clone(st.baseKeys), envKeys...) {
		cmd.Env = append(cmd.Env, k+"="+ts.Getenv(k))
	}
	p := &proc{cmd: cmd, outPath: ts.MkAbs(name + ".stdout"), errPath: ts.MkAbs(name + ".stderr"), done: make(chan struct{})}
	stdout, err := os.Create(p.outPath)
	ts.Check(err)
	stderr, err := os.Create(p.errPath)
	ts.Check(err)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	p.stdin, err = cmd.StdinPipe()
	ts.Check(err)
	ts.Check(cmd.Start())
	stdout.Close()
	stderr.Close()
	stop := reap(cmd, &p.err, p.done)
	st.procs[name] = p
	ts.Defer(func() {
		p.stdin.Close()
		stop()
	})
}

// reap waits for a started cmd in the background: *err gets how it ended
// and done is closed then. The returned stop kills it if it is still
// running and waits for the end, so no test leaves a process behind.
func reap(cmd *exec.Cmd, err *error, done chan struct{}) (stop func()) {
	go func() {
		*err = cmd.Wait()
		close(done)
	}()
	return func() {
		select {
		case <-done:
		default:
			_ = cmd.Process.Kill()
			<-done
		}
	}
}

// lookPath finds prog on the script's PATH.
func lookPath(ts *testscript.TestScript, prog string) string {
	if strings.Contains(prog, "/") {
		return prog
	}
	for _, dir := range filepath.SplitList(ts.Getenv("PATH")) {
		p := filepath.Join(dir, prog)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	ts.Fatalf("bg: %s not found on PATH", prog)
	return ""
}

func procOf(ts *testscript.TestScript, name string) *proc {
	p, ok := stateOf(ts).procs[name]
	if !ok {
		ts.Fatalf("no background process %q; start it with bg", name)
	}
	return p
}

// cmdFeed writes a file to a background process's stdin: feed NAME FILE
func cmdFeed(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: feed NAME FILE")
	}
	p := procOf(ts, args[0])
	if _, err := io.WriteString(p.stdin, ts.ReadFile(args[1])); err != nil {
		ts.Fatalf("feed %s: %v", args[0], err)
	}
}

// cmdCloseIn closes a background process's stdin: closein NAME
func cmdCloseIn(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: closein NAME")
	}
	ts.Check(procOf(ts, args[0]).stdin.Close())
}

// cmdWaitFor waits until a file matches a regular expression:
//
//	waitfor FILE REGEXP
//
// It fails after waitLimit, showing what the file held.
func cmdWaitFor(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: waitfor FILE REGEXP")
	}
	re, err := regexp.Compile(args[1])
	ts.Check(err)
	path := ts.MkAbs(args[0])
	deadline := time.Now().Add(waitLimit)
	for {
		data, _ := os.ReadFile(path)
		if re.Match(data) {
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("%s did not match %q within %s; it holds:\n%s", args[0], args[1], waitLimit, data)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

var signals = map[string]syscall.Signal{"INT": syscall.SIGINT, "TERM": syscall.SIGTERM, "KILL": syscall.SIGKILL}

// cmdSignal sends a signal to a background process: signal NAME INT|TERM|KILL
func cmdSignal(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: signal NAME INT|TERM|KILL")
	}
	sig, ok := signals[args[1]]
	if !ok {
		ts.Fatalf("signal: unknown signal %q", args[1])
	}
	ts.Check(procOf(ts, args[0]).cmd.Process.Signal(sig))
}

// cmdWaitCode waits for a background process to exit and requires its
// exit code; its output becomes stdout and stderr:
//
//	waitcode N NAME
func cmdWaitCode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: waitcode N NAME")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	p := procOf(ts, args[1])
	select {
	case <-p.done:
	case <-time.After(waitLimit):
		ts.Fatalf("%s did not exit within %s\nstdout:\n%s\nstderr:\n%s", args[1], waitLimit, readOr(p.outPath), readOr(p.errPath))
	}
	fmt.Fprint(ts.Stdout(), readOr(p.outPath))
	fmt.Fprint(ts.Stderr(), readOr(p.errPath))
	got := 0
	var ee *exec.ExitError
	if errors.As(p.err, &ee) {
		got = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			ts.Fatalf("%s was killed by %v, want exit code %d", args[1], ws.Signal(), want)
		}
	} else if p.err != nil {
		ts.Fatalf("waitcode: %v", p.err)
	}
	delete(stateOf(ts).procs, args[1])
	noteExit(p.cmd.Args, got, filepath.Base(ts.Getenv("WORK")))
	if got != want {
		ts.Fatalf("exit code %d, want %d", got, want)
	}
}

func readOr(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Sprintf("(%v)", err)
	}
	return string(data)
}
