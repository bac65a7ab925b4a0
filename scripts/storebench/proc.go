package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// proc is an askuser process and the lines of its standard output, each
// with when it was read.
type proc struct {
	cmd   *exec.Cmd
	lines chan line
	err   syncBuilder
	done  chan struct{} // closed once it ended and was waited for
}

// syncBuilder is a strings.Builder that its process's writes and a
// reader may use at once.
type syncBuilder struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuilder) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuilder) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

type line struct {
	text string
	at   time.Time
}

func start(bin string, env []string, args ...string) (*proc, error) {
	p := &proc{cmd: exec.Command(bin, args...), lines: make(chan line, 256), done: make(chan struct{})}
	p.cmd.Env = append(os.Environ(), env...)
	p.cmd.Stderr = &p.err
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := p.cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			p.lines <- line{sc.Text(), time.Now()}
		}
		close(p.lines)
		_ = p.cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// stop interrupts the process, as Ctrl+C does, and waits for it to end.
func (p *proc) stop() {
	_ = p.cmd.Process.Signal(os.Interrupt)
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
}

// exited reports whether the process ended.
func (p *proc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// until waits for a line that contains want, for at most a minute.
func (p *proc) until(want string) (line, error) {
	timeout := time.After(time.Minute)
	for {
		select {
		case l, ok := <-p.lines:
			if !ok {
				return line{}, fmt.Errorf("askuser ended before printing %q: %s", want, p.err.String())
			}
			if strings.Contains(l.text, want) {
				return l, nil
			}
		case <-timeout:
			return line{}, fmt.Errorf("no %q within a minute: %s", want, p.err.String())
		}
	}
}
