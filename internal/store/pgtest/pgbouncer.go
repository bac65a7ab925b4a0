//go:build unix

package pgtest

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// PgBouncer is a pooler in front of a Server, as teams run one: in
// transaction mode, a server connection is a client's only for a
// transaction.
type PgBouncer struct {
	srv *Server
	dir string
	cmd *exec.Cmd
}

// bouncerPort names the pooler's socket (.s.PGSQL.<port>), beside the
// server's, in the server's directory.
const bouncerPort = 6432

// ErrNoPgBouncer says pgbouncer is not installed.
var ErrNoPgBouncer = errors.New("pgbouncer is not installed (sudo apt-get install -y pgbouncer)")

// StartPgBouncer starts pgbouncer in front of s, pooling in mode
// (transaction, session), stopped when t ends. Where pgbouncer is not
// installed it skips t, saying how to install it, or fails it under
// CI=true, where .ci/run installs it: a missing server there is a broken
// install, not a choice.
func (s *Server) StartPgBouncer(t testing.TB, mode string) *PgBouncer {
	t.Helper()
	b, err := s.PgBouncer(mode)
	if errors.Is(err, ErrNoPgBouncer) && os.Getenv("CI") != "true" {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b
}

// PgBouncer starts pgbouncer in front of s, pooling in mode; Close stops
// it.
func (s *Server) PgBouncer(mode string) (*PgBouncer, error) {
	bin, err := exec.LookPath("pgbouncer")
	if err != nil {
		if p := "/usr/sbin/pgbouncer"; isExec(p) {
			bin, err = p, nil
		}
	}
	if err != nil {
		return nil, ErrNoPgBouncer
	}
	dir := filepath.Join(s.Dir, "pgbouncer")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	conf := fmt.Sprintf(`[databases]
* = host=%s port=%d
[pgbouncer]
listen_addr =
listen_port = %d
unix_socket_dir = %s
auth_type = trust
auth_file = %s
pool_mode = %s
max_client_conn = 4000
default_pool_size = 10
ignore_startup_parameters = extra_float_digits
logfile = %s
`, s.Dir, port, bouncerPort, s.Dir, filepath.Join(dir, "users.txt"), mode, filepath.Join(dir, "pgbouncer.log"))
	users := `"` + SuperUser + `" ""` + "\n" + `"team" ""` + "\n"
	for name, text := range map[string]string{"pgbouncer.ini": conf, "users.txt": users} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			return nil, err
		}
	}
	if err := s.own(dir); err != nil {
		return nil, err
	}
	b := &PgBouncer{srv: s, dir: dir}
	b.cmd = exec.Command(bin, filepath.Join(dir, "pgbouncer.ini"))
	if s.cred != nil {
		b.cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred}
	}
	if err := b.cmd.Start(); err != nil {
		return nil, err
	}
	sock := filepath.Join(s.Dir, ".s.PGSQL."+strconv.Itoa(bouncerPort))
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(sock); err == nil {
			return b, nil
		}
		if time.Now().After(deadline) {
			b.Close()
			log, _ := os.ReadFile(filepath.Join(dir, "pgbouncer.log"))
			return nil, fmt.Errorf("pgbouncer did not start:\n%s", tail(log))
		}
	}
}

// PID is the pooler's process id.
func (b *PgBouncer) PID() int { return b.cmd.Process.Pid }

// Close stops the pooler.
func (b *PgBouncer) Close() {
	_ = b.cmd.Process.Signal(syscall.SIGINT)
	_ = b.cmd.Wait()
}

// URL is the connection URL of database db through the pooler, as role
// user.
func (b *PgBouncer) URL(user, db string) string {
	u := strings.Replace(b.srv.URL(db), fmt.Sprintf("://%s@", SuperUser), "://"+user+"@", 1)
	return strings.Replace(u, "&port="+strconv.Itoa(port)+"&", "&port="+strconv.Itoa(bouncerPort)+"&", 1)
}
