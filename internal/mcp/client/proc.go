package client

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/askuser/askuser/ask"
)

// drainWait is how long a stdio server's stdout is left open after its
// process ends, so a reply written just before exiting is still read; a
// child holding stdout open cannot keep the connection up longer.
const drainWait = time.Second

// process is a stdio server's process, in its own process group.
type process struct {
	cmd    *exec.Cmd
	stdin  *os.File // our end of its stdin
	stdout *os.File // our end of its stdout
	stderr *os.File // our end of its stderr

	exited  chan struct{} // closed once the process is reaped
	exitErr error         // cmd.Wait's error; read after exited
	eof     chan struct{} // closed when stdout reached its end
	eofOnce sync.Once
	done    chan struct{} // closed when the process's group is gone and its pipes are closed
	copied  chan struct{} // closed when stderr reached its end
}

// launch starts the server's command with pipes of its own: stdin and
// stdout speak MCP, stderr goes to log.
func launch(cfg ServerConfig, log *serverLog) (*process, error) {
	cmd := exec.Command(cfg.Command, cfg.Args...)
	cmd.Env = os.Environ()
	for k, v := range cfg.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	ownGroup(cmd)
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW)
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW, outR, outW)
		return nil, err
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	log.Note("starting %s", commandLine(cfg))
	if err := cmd.Start(); err != nil {
		closeAll(inR, inW, outR, outW, errR, errW)
		return nil, startError(cfg, err)
	}
	closeAll(inR, outW, errW) // the child's ends
	p := &process{cmd: cmd, stdin: inW, stdout: outR, stderr: errR,
		exited: make(chan struct{}), eof: make(chan struct{}), done: make(chan struct{}), copied: make(chan struct{})}
	go func() {
		defer close(p.copied)
		_, _ = io.Copy(log, errR)
	}()
	go p.wait(log)
	return p, nil
}

// wait reaps the process, lets stdout drain, then ends whatever is left
// of its group (children it started) and closes the pipes.
func (p *process) wait(log *serverLog) {
	p.exitErr = p.cmd.Wait()
	close(p.exited)
	log.Note("process %d ended: %s", p.cmd.Process.Pid, exitText(p.exitErr))
	// Children it left are ended first: they may hold its stdout open,
	// and what it wrote before exiting waits in the pipe all the same.
	endGroup(p.cmd.Process.Pid, drainWait)
	select {
	case <-p.eof:
	case <-time.After(drainWait):
	}
	select {
	case <-p.copied:
	case <-time.After(drainWait):
	}
	closeAll(p.stdout, p.stderr)
	close(p.done)
}

// stop ends the server: its stdin is closed, and if it has not exited
// after grace its group gets SIGTERM, then after grace SIGKILL. It
// returns once the group is gone.
func (p *process) stop(grace time.Duration) {
	_ = p.stdin.Close()
	for _, sig := range []groupSignal{sigTerm, sigKill} {
		select {
		case <-p.exited:
			<-p.done
			return
		case <-time.After(grace):
		}
		signalGroup(p.cmd.Process, sig)
	}
	select {
	case <-p.done:
	case <-time.After(grace):
	}
}

// reader is the server's stdout as the SDK reads it: the end of the
// stream is noted (the process may be gone), and closing it is left to
// the process, which closes it once the server is gone.
type reader struct {
	p   *process
	tap *rawTap
}

func (r reader) Read(b []byte) (int, error) {
	n, err := r.p.stdout.Read(b)
	if n > 0 && r.tap != nil {
		r.tap.Write(b[:n])
	}
	if err != nil {
		if r.tap != nil {
			r.tap.Flush()
		}
		r.p.eofOnce.Do(func() { close(r.p.eof) })
	}
	return n, err
}

func (reader) Close() error { return nil }

// exitText words how a process ended.
func exitText(err error) string {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return "exit status 0"
	case errors.As(err, &ee):
		return ee.ProcessState.String() // "exit status 1", "signal: killed"
	}
	return err.Error()
}

// startError words a failure to run the command, with the fix.
func startError(cfg ServerConfig, err error) error {
	if errors.Is(err, exec.ErrNotFound) || errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("%w: command %q was not found; install it, or give its full path in %s", ErrStart, ask.Display(cfg.Command), cfg.Source)
	}
	if errors.Is(err, os.ErrPermission) {
		return fmt.Errorf("%w: command %q cannot be run (permission denied); make it executable", ErrStart, ask.Display(cfg.Command))
	}
	return fmt.Errorf("%w: cannot run %q: %v", ErrStart, ask.Display(cfg.Command), err)
}

// commandLine shows a command for the log.
func commandLine(cfg ServerConfig) string {
	parts := append([]string{cfg.Command}, cfg.Args...)
	for i, p := range parts {
		if p == "" || strings.ContainsAny(p, " \t\"'") {
			parts[i] = fmt.Sprintf("%q", p)
		}
	}
	return ask.Display(strings.Join(parts, " "))
}

func closeAll(fs ...*os.File) {
	for _, f := range fs {
		_ = f.Close()
	}
}
