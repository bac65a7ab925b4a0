package hostrun

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"time"
)

// EnvSocket names the variable that tells askuser hook and askuser mcp,
// run by the agent, to hand their work to the askuser that runs the
// agent: the path of its socket (Listen). It is set in the agent's
// environment, and in the MCP server's where a host passes it only some
// variables. It names a socket and nothing more: no session, no store, no
// secret; the askuser holding the session decides and records.
const EnvSocket = "ASKUSER_HOST_RUN"

// protocol is the first line a client sends on the socket.
type hello struct {
	Askuser string `json:"askuser"`
	V       int    `json:"v"`
	Kind    string `json:"kind"`
}

const (
	helloName = "host-run"
	kindHook  = "hook"
	kindMCP   = "mcp"
	// maxHookInput bounds a hook event.
	maxHookInput = 16 << 20
)

// HookReply is what askuser hook prints and how it exits.
type HookReply struct {
	Stdout []byte `json:"stdout"`
	Stderr string `json:"stderr,omitempty"`
	Exit   int    `json:"exit"`
}

// SocketFrom reads EnvSocket's value: an absolute path to a socket, or an
// error naming the variable and what is wrong.
func SocketFrom(value string) (string, error) {
	if !filepath.IsAbs(value) || len(value) > 1024 {
		return "", fmt.Errorf("%s=%q is not the path of askuser's socket (an absolute path): it is set by askuser run --agent for the agent it runs; unset it", EnvSocket, value)
	}
	fi, err := os.Stat(value)
	if err != nil || fi.Mode()&os.ModeSocket == 0 {
		return "", fmt.Errorf("%s names %s, which is not the socket of a running askuser (the askuser run --agent that set it has ended?): %v", EnvSocket, value, errOr(err, "not a socket"))
	}
	return value, nil
}

func errOr(err error, s string) error {
	if err != nil {
		return err
	}
	return errors.New(s)
}

func dial(ctx context.Context, path, kind string) (net.Conn, error) {
	d := net.Dialer{Timeout: 10 * time.Second}
	conn, err := d.DialContext(ctx, "unix", path)
	if err != nil {
		return nil, fmt.Errorf("reach the askuser that runs this agent (%s): %w", path, err)
	}
	b, _ := json.Marshal(hello{Askuser: helloName, V: 1, Kind: kind})
	if _, err := conn.Write(append(b, '\n')); err != nil {
		conn.Close()
		return nil, fmt.Errorf("reach the askuser that runs this agent (%s): %w", path, err)
	}
	return conn, nil
}

// ErrUnreachable is wrapped by ProxyHook's error when the askuser at the
// socket could not be reached at all (it never took the event).
var ErrUnreachable = errors.New("askuser is not listening there")

// ProxyHook hands one hook event to the askuser at path and returns its
// reply. ok is false when that askuser could not be reached (the error
// wraps ErrUnreachable) or went away before it replied: the caller then
// decides without it (askuser hook defers a PreToolUse call it handed
// over, whose question the session holds or a later resume reconciles
// from the host's transcript, rather than let it through).
func ProxyHook(ctx context.Context, path string, input []byte) (HookReply, bool, error) {
	conn, err := dial(ctx, path, kindHook)
	if err != nil {
		return HookReply{}, false, fmt.Errorf("%w: %w", ErrUnreachable, err)
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	if _, err := conn.Write(input); err != nil {
		return HookReply{}, false, fmt.Errorf("hand the event to askuser: %w", err)
	}
	if cw, ok := conn.(interface{ CloseWrite() error }); ok {
		_ = cw.CloseWrite()
	}
	var r HookReply
	if err := json.NewDecoder(bufio.NewReader(conn)).Decode(&r); err != nil {
		return HookReply{}, false, fmt.Errorf("the askuser that runs this agent ended before it decided: %w", err)
	}
	return r, true, nil
}

// ProxyMCP carries an MCP session between the host (in, out) and the
// askuser at path, until either side ends it.
func ProxyMCP(ctx context.Context, path string, in io.Reader, out io.Writer) error {
	conn, err := dial(ctx, path, kindMCP)
	if err != nil {
		return err
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	up := make(chan error, 1)
	go func() {
		_, err := io.Copy(conn, in)
		if cw, ok := conn.(interface{ CloseWrite() error }); ok {
			_ = cw.CloseWrite()
		}
		up <- err
	}()
	_, err = io.Copy(out, conn)
	if err != nil && ctx.Err() == nil {
		return fmt.Errorf("the askuser that runs this agent went away: %w", err)
	}
	return nil
}
