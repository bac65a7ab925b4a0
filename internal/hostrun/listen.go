package hostrun

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"sync"
)

// Handlers serve what the agent's askuser hook and askuser mcp hand over:
// Hook decides one event, MCP serves one MCP session on rw.
type Handlers struct {
	Hook func(ctx context.Context, input []byte) HookReply
	MCP  func(ctx context.Context, rw io.ReadWriteCloser) error
}

// listener is the socket a run's askuser hook and askuser mcp reach it
// on: in a folder of its own (0700, under the temporary directory, whose
// paths stay short enough for a socket), removed at Close.
type listener struct {
	dir  string
	path string
	ln   net.Listener
	h    Handlers
	ctx  context.Context
	stop context.CancelFunc
	wg   sync.WaitGroup

	mu    sync.Mutex
	conns map[net.Conn]bool
}

// listen opens the socket and serves h on it until close.
func listen(ctx context.Context, h Handlers) (*listener, error) {
	dir, err := os.MkdirTemp("", "askuser-run-")
	if err != nil {
		return nil, fmt.Errorf("make the folder of askuser's socket: %w", err)
	}
	path := filepath.Join(dir, "s")
	ln, err := net.Listen("unix", path)
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("open askuser's socket for the agent: %w", err)
	}
	l := &listener{dir: dir, path: path, ln: ln, h: h, conns: map[net.Conn]bool{}}
	l.ctx, l.stop = context.WithCancel(ctx)
	l.wg.Add(1)
	go l.accept()
	return l, nil
}

func (l *listener) accept() {
	defer l.wg.Done()
	for {
		conn, err := l.ln.Accept()
		if err != nil {
			return
		}
		l.mu.Lock()
		l.conns[conn] = true
		l.mu.Unlock()
		l.wg.Add(1)
		go func() {
			defer l.wg.Done()
			l.serve(conn)
			l.mu.Lock()
			delete(l.conns, conn)
			l.mu.Unlock()
			conn.Close()
		}()
	}
}

// serve reads the client's hello and serves what it asks for.
func (l *listener) serve(conn net.Conn) {
	r := bufio.NewReader(conn)
	line, err := r.ReadBytes('\n')
	var h hello
	if err != nil || json.Unmarshal(line, &h) != nil || h.Askuser != helloName || h.V != 1 {
		return
	}
	ctx, cancel := context.WithCancel(l.ctx)
	defer cancel()
	switch h.Kind {
	case kindHook:
		input, err := io.ReadAll(io.LimitReader(r, maxHookInput))
		if err != nil || l.h.Hook == nil {
			return
		}
		reply := l.h.Hook(ctx, input)
		b, _ := json.Marshal(reply)
		_, _ = conn.Write(append(b, '\n'))
	case kindMCP:
		if l.h.MCP != nil {
			_ = l.h.MCP(ctx, readWriteCloser{r, conn})
		}
	}
}

// readWriteCloser reads what the hello's reader buffered first.
type readWriteCloser struct {
	r    *bufio.Reader
	conn net.Conn
}

func (c readWriteCloser) Read(p []byte) (int, error)  { return c.r.Read(p) }
func (c readWriteCloser) Write(p []byte) (int, error) { return c.conn.Write(p) }
func (c readWriteCloser) Close() error                { return c.conn.Close() }

// close stops accepting, ends every connection and removes the socket.
func (l *listener) close() {
	l.ln.Close()
	l.stop()
	l.mu.Lock()
	for c := range l.conns {
		c.Close()
	}
	l.mu.Unlock()
	l.wg.Wait()
	os.RemoveAll(l.dir)
}
