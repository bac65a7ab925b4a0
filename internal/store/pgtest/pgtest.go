//go:build unix

// Package pgtest starts a throwaway PostgreSQL server for tests: Debian's
// postgresql package (or any PostgreSQL whose initdb and postgres it can
// find), initdb'd in a temporary directory, listening on a Unix socket in
// that directory only (no TCP port, so parallel test runs on one machine
// never collide), with fsync off.
//
// initdb refuses to run as root, and the tests run as root here and in CI:
// as root, the server runs as an unprivileged user (ASKUSER_PG_USER, else
// nobody) through SysProcAttr.Credential, and owns its directory. As any
// other user it runs as that user.
//
// One server per test package, started by the first test that asks for a
// database (DB) and stopped by TestMain (Run); each test gets a database
// of its own. Where PostgreSQL is not installed, DB skips the test saying
// how to install it, and fails it under CI=true, where a missing server is
// a broken machine, not a choice.
//
// The package speaks to the server through its own psql and createdb, not
// through a driver, so only internal/store/postgres imports pgx.
//
// It is test support: no product package imports it (internal/archtest
// holds that; the store's benchmark, scripts/storebench, uses it too), so
// no askuser binary links it.
package pgtest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// SuperUser is the role initdb creates; the server trusts every local
// connection, so no password is needed.
const SuperUser = "askuser"

// port names the socket (.s.PGSQL.<port>); nothing listens on TCP.
const port = 5432

// Server is one running PostgreSQL, in a directory of its own.
type Server struct {
	// Dir holds the data directory, the socket and the server's log.
	Dir string
	bin string
	// cred is who the server runs as (nil: this process's user).
	cred *syscall.Credential
	cmd  *exec.Cmd
	done chan error
	dbs  int
	// settings are the server's own settings (name=value), beside the
	// harness's, kept across restarts.
	settings []string
}

// ErrNotInstalled says no PostgreSQL was found; its message says how to
// install one.
var ErrNotInstalled = errors.New("PostgreSQL is not installed (no initdb and postgres in ASKUSER_PG_BINDIR, " +
	"/usr/lib/postgresql/*/bin or on PATH): install it with `sudo apt-get install -y postgresql`")

// Start initdb's a new server in a temporary directory and starts it,
// with settings (name=value: max_connections=20) beside the harness's.
func Start(settings ...string) (*Server, error) {
	bin, err := findBin()
	if err != nil {
		return nil, err
	}
	cred, err := credential()
	if err != nil {
		return nil, err
	}
	// A short path: a socket's path is at most 107 bytes.
	dir, err := os.MkdirTemp(shortTemp(), "askuser-pg-")
	if err != nil {
		return nil, err
	}
	s := &Server{Dir: dir, bin: bin, cred: cred, settings: settings}
	if err := s.own(dir); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	if err := s.initdb(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	if err := s.start(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return s, nil
}

func shortTemp() string {
	if t := os.TempDir(); len(t) < 40 {
		return t
	}
	return "/tmp"
}

// findBin finds the directory holding initdb and postgres.
func findBin() (string, error) {
	var dirs []string
	if d := os.Getenv("ASKUSER_PG_BINDIR"); d != "" {
		dirs = append(dirs, d)
	}
	found, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	slices.SortFunc(found, func(a, b string) int { return version(b) - version(a) }) // newest first
	dirs = append(dirs, found...)
	if p, err := exec.LookPath("initdb"); err == nil {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			dirs = append(dirs, filepath.Dir(r))
		}
	}
	for _, d := range dirs {
		if isExec(filepath.Join(d, "initdb")) && isExec(filepath.Join(d, "postgres")) && isExec(filepath.Join(d, "psql")) {
			return d, nil
		}
	}
	return "", ErrNotInstalled
}

func version(bindir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(bindir)))
	return n
}

func isExec(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}

// credential is who the server runs as: as root, an unprivileged user.
func credential() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	name := os.Getenv("ASKUSER_PG_USER")
	if name == "" {
		name = "nobody"
	}
	u, err := user.Lookup(name)
	if err != nil {
		return nil, fmt.Errorf("PostgreSQL refuses to run as root, and user %s (ASKUSER_PG_USER) to run it as is missing: %w", name, err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if uid == 0 {
		return nil, fmt.Errorf("ASKUSER_PG_USER=%s is root; PostgreSQL refuses to run as root", name)
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), Groups: []uint32{}}, nil
}

// own gives path to the server's user.
func (s *Server) own(path string) error {
	if s.cred == nil {
		return nil
	}
	return os.Lchown(path, int(s.cred.Uid), int(s.cred.Gid))
}

func (s *Server) data() string { return filepath.Join(s.Dir, "data") }

// command runs a PostgreSQL program as the server's user.
func (s *Server) command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(filepath.Join(s.bin, name), args...)
	cmd.Dir = s.Dir
	cmd.Env = append(os.Environ(), "LC_ALL=C", "PGTZ=UTC")
	if s.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred}
	}
	return cmd
}

func (s *Server) initdb() error {
	cmd := s.command("initdb", "-D", s.data(), "-U", SuperUser, "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("initdb: %v\n%s", err, tail(out))
	}
	return nil
}

// start runs postgres in the foreground as a child: killed with this
// process (Pdeathsig), never left behind on a shared machine.
func (s *Server) start() error {
	log, err := os.OpenFile(filepath.Join(s.Dir, "server.log"), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer log.Close()
	args := []string{"-D", s.data(), "-p", strconv.Itoa(port),
		"-c", "listen_addresses=", "-c", "unix_socket_directories=" + s.Dir,
		"-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
		"-c", "max_connections=300", "-c", "shared_buffers=32MB"}
	for _, kv := range s.settings {
		args = append(args, "-c", kv)
	}
	cmd := s.command("postgres", args...)
	cmd.Stdout, cmd.Stderr = log, log
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	dieWithParent(cmd.SysProcAttr)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start postgres: %w", err)
	}
	s.cmd, s.done = cmd, make(chan error, 1)
	go func(done chan error) { done <- cmd.Wait() }(s.done)
	return s.ready()
}

// ready waits until the server says in postmaster.pid that it accepts
// connections, or exits.
func (s *Server) ready() error {
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		pid, _ := os.ReadFile(filepath.Join(s.data(), "postmaster.pid"))
		if lines := strings.Split(string(pid), "\n"); len(lines) > 7 && strings.TrimSpace(lines[7]) == "ready" {
			return nil
		}
		select {
		case err := <-s.done:
			s.done <- err
			return fmt.Errorf("postgres exited: %v\n%s", err, s.Log())
		case <-time.After(20 * time.Millisecond):
		}
	}
	return fmt.Errorf("postgres did not start within 60 s\n%s", s.Log())
}

// Program is the path of the server's PostgreSQL program name (psql).
func (s *Server) Program(name string) string { return filepath.Join(s.bin, name) }

// Log is the end of the server's log.
func (s *Server) Log() string {
	b, _ := os.ReadFile(filepath.Join(s.Dir, "server.log"))
	return string(tail(b))
}

func tail(b []byte) []byte {
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	return bytes.TrimSpace(b)
}

// Stop shuts the server down (fast: connections are closed) and waits
// for it to exit.
func (s *Server) Stop() error {
	if s.cmd == nil {
		return nil
	}
	_ = s.cmd.Process.Signal(syscall.SIGINT)
	var err error
	select {
	case err = <-s.done:
	case <-time.After(30 * time.Second):
		_ = s.cmd.Process.Kill()
		err = <-s.done
	}
	s.cmd = nil
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		err = nil // a signalled exit is how it stops
	}
	return err
}

// Restart stops the server and starts it again on the same data and
// socket: every connection is dropped, and what was committed stays.
func (s *Server) Restart() error {
	if err := s.Stop(); err != nil {
		return err
	}
	return s.start()
}

// StartAgain starts a server that was stopped (Stop), on the same data
// and socket.
func (s *Server) StartAgain() error {
	if s.cmd != nil {
		return errors.New("pgtest: the server runs already")
	}
	return s.start()
}

// Close stops the server and removes its directory.
func (s *Server) Close() error {
	err := s.Stop()
	return errors.Join(err, os.RemoveAll(s.Dir))
}

// URL is the connection URL of database db.
func (s *Server) URL(db string) string {
	return fmt.Sprintf("postgres://%s@/%s?host=%s&port=%d&sslmode=disable", SuperUser, db, s.Dir, port)
}

// CreateDB creates a new, empty database and returns its name.
func (s *Server) CreateDB() (string, error) {
	s.dbs++
	name := fmt.Sprintf("t%d", s.dbs)
	if _, err := s.SQL("postgres", "CREATE DATABASE "+name); err != nil {
		return "", err
	}
	return name, nil
}

// SQL runs query in database db with psql and returns its output,
// unaligned and without headers.
func (s *Server) SQL(db, query string) (string, error) {
	cmd := exec.Command(filepath.Join(s.bin, "psql"), "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1",
		"-h", s.Dir, "-p", strconv.Itoa(port), "-U", SuperUser, "-d", db, "-c", query)
	cmd.Env = append(os.Environ(), "PGCONNECT_TIMEOUT=10")
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("psql %q: %v: %s", query, err, bytes.TrimSpace(stderr.Bytes()))
	}
	return strings.TrimSpace(out.String()), nil
}
