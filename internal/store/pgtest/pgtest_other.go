//go:build !unix

package pgtest

// Server is not available here: the harness runs PostgreSQL as another
// user, which needs a Unix.
type Server struct{ Dir string }

// ErrNotInstalled says the harness does not run here.
var ErrNotInstalled = errorString("the PostgreSQL test harness runs on Unix only")

type errorString string

func (e errorString) Error() string { return string(e) }

// Start fails: see Server.
func Start(...string) (*Server, error) { return nil, ErrNotInstalled }

func (s *Server) Close() error                       { return nil }
func (s *Server) Restart() error                     { return ErrNotInstalled }
func (s *Server) Stop() error                        { return ErrNotInstalled }
func (s *Server) StartAgain() error                  { return ErrNotInstalled }
func (s *Server) URL(string) string                  { return "" }
func (s *Server) Program(string) string              { return "" }
func (s *Server) CreateDB() (string, error)          { return "", ErrNotInstalled }
func (s *Server) SQL(string, string) (string, error) { return "", ErrNotInstalled }
