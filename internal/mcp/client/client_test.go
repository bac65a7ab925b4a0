package client

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
)

// fixture is a stdio server running this test binary in mode.
func fixture(name, mode string, env ...string) ServerConfig {
	sc := ServerConfig{Name: name, Transport: TransportStdio, Command: os.Args[0], Env: map[string]string{fixtureEnv: mode}, Source: "test"}
	for i := 0; i+1 < len(env); i += 2 {
		sc.Env[env[i]] = env[i+1]
	}
	return sc
}

// start starts servers with test-sized bounds and closes them when the
// test ends.
func start(t *testing.T, opts Options, servers ...ServerConfig) (*Client, []*ServerError) {
	t.Helper()
	if opts.LogDir == "" {
		opts.LogDir = t.TempDir()
	}
	if opts.StartTimeout == 0 {
		opts.StartTimeout = 20 * time.Second
	}
	if opts.CloseGrace == 0 {
		opts.CloseGrace = 500 * time.Millisecond
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, errs := Start(ctx, &Config{Servers: servers}, opts)
	t.Cleanup(func() { _ = c.Close() })
	return c, errs
}

func startFixture(t *testing.T, opts Options, env ...string) *Client {
	t.Helper()
	c, errs := start(t, opts, fixture("fx", "server", env...))
	if len(errs) > 0 {
		t.Fatalf("start: %v", errs[0])
	}
	return c
}

func tool(t *testing.T, c *Client, name string) agentloop.Tool {
	t.Helper()
	for _, tl := range c.Tools() {
		if tl.Spec().Name == name {
			return tl
		}
	}
	t.Fatalf("no tool %s", name)
	return nil
}

// call runs a tool that asks nothing, with a bare Call.
func call(t *testing.T, c *Client, name, input string) agentloop.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := tool(t, c, name).Run(ctx, &agentloop.Call{ID: "toolu_1", Name: name, Input: json.RawMessage(input)})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

func TestToolsAreOfferedAsTheServerDescribesThem(t *testing.T) {
	c := startFixture(t, Options{})
	var names []string
	for _, tl := range c.Tools() {
		names = append(names, tl.Spec().Name)
	}
	for _, want := range []string{"mcp__fx__echo", "mcp__fx__read_file", "mcp__fx__elicit"} {
		if !strings.Contains(strings.Join(names, " "), want) {
			t.Errorf("tools %v lack %s", names, want)
		}
	}
	echo := tool(t, c, "mcp__fx__echo").Spec()
	want := `{"type":"object","properties":{"zebra":{"type":"string"},"text":{"type":"string"},"apple":{"type":"string"}},"required":["text"]}`
	if string(echo.InputSchema) != want || echo.Description != "Repeat the text." {
		t.Errorf("echo spec: %s %q; want the schema as the server wrote it, key order kept", echo.InputSchema, echo.Description)
	}
	if _, ok := tool(t, c, "mcp__fx__echo").(agentloop.Concurrent); !ok {
		t.Error("an MCP tool must say it runs sequentially")
	}
	if s := c.Servers(); len(s) != 1 || s[0].Log == "" || len(s[0].Tools) != len(names) {
		t.Errorf("servers: %+v", s)
	}
}

func TestResultsAreMappedForTheModel(t *testing.T) {
	c := startFixture(t, Options{MaxResultBytes: 1000})
	cases := []struct {
		tool, input, want string
		isError           bool
	}{
		{"echo", `{"text":"hi"}`, "echo: hi", false},
		{"structured", `{}`, "12 files", false},
		{"structured_only", `{}`, `{"count":12}`, false},
		{"image", `{}`, "[image: image/png, 1234 bytes]\n[resource link: file:///tmp/a.txt (a.txt), text/plain]", false},
		{"fail", `{}`, "disk full", true},
		{"empty", `{}`, noOutput, false},
		{"echo", `"not an object"`, "must be a JSON object", true},
	}
	for _, tc := range cases {
		res := call(t, c, "mcp__fx__"+tc.tool, tc.input)
		if !strings.Contains(res.Content, tc.want) || res.IsError != tc.isError {
			t.Errorf("%s: %+v; want %q, isError %v", tc.tool, res, tc.want, tc.isError)
		}
	}
	big := call(t, c, "mcp__fx__big", `{}`)
	if len(big.Content) > 1100 || !strings.Contains(big.Content, "[askuser: the output was cut to 1000 of its 300000 bytes]") {
		t.Errorf("big result is %d bytes, ending %q; want it cut to the bound with a note", len(big.Content), big.Content[max(0, len(big.Content)-80):])
	}
}

func TestACrashOnStartQuotesTheTailOfStderr(t *testing.T) {
	dir := t.TempDir()
	c, errs := start(t, Options{LogDir: dir}, fixture("crashy", "crash"), fixture("fx", "server"))
	if len(errs) != 1 || len(c.Tools()) == 0 {
		t.Fatalf("errors %v, %d tools; want the crash reported and the other server started", errs, len(c.Tools()))
	}
	e := errs[0]
	if e.Server != "crashy" || !errors.Is(e, ErrStart) || !strings.Contains(e.Error(), "exit status 1") {
		t.Fatalf("error %v; want crashy, ErrStart, exit status 1", e)
	}
	lines := strings.Split(e.Tail, "\n")
	if len(lines) != tailLines || lines[0] != "boom line 6" || lines[len(lines)-1] != "boom line 25" {
		t.Errorf("tail %q; want the last %d lines", e.Tail, tailLines)
	}
	if !strings.Contains(e.Error(), "full log: "+e.Log) || !strings.HasPrefix(e.Log, dir) {
		t.Errorf("error %q does not name the log in %s", e, dir)
	}
	log, _ := os.ReadFile(e.Log)
	if !strings.Contains(string(log), "boom line 1\n") {
		t.Errorf("the log lacks the start of stderr:\n%s", log)
	}
}

func TestAServerThatNeverAnswersTimesOut(t *testing.T) {
	began := time.Now()
	_, errs := start(t, Options{StartTimeout: 300 * time.Millisecond}, fixture("mute", "silent"))
	if len(errs) != 1 || !errors.Is(errs[0], ErrStartTimeout) || !strings.Contains(errs[0].Error(), "did not answer initialize within 300ms") {
		t.Fatalf("errors %v; want a start timeout", errs)
	}
	if d := time.Since(began); d > 5*time.Second {
		t.Errorf("the failed start took %s", d)
	}
}

func TestAMissingCommandSaysSo(t *testing.T) {
	_, errs := start(t, Options{}, ServerConfig{Name: "nope", Transport: TransportStdio, Command: "/nonexistent/askuser-mcp-server", Source: "cfg.json:3:5"})
	if len(errs) != 1 || !errors.Is(errs[0], ErrStart) || !strings.Contains(errs[0].Error(), `command "/nonexistent/askuser-mcp-server" was not found; install it, or give its full path in cfg.json:3:5`) {
		t.Fatalf("errors %v", errs)
	}
}

func TestAServerThatDiesMidCall(t *testing.T) {
	var mu sync.Mutex
	var exits []*ServerError
	c := startFixture(t, Options{OnExit: func(e *ServerError) { mu.Lock(); exits = append(exits, e); mu.Unlock() }})
	res := call(t, c, "mcp__fx__die", `{}`)
	if !res.IsError || !strings.Contains(res.Content, `MCP server "fx" is not running`) || !strings.Contains(res.Content, "exit status 3") || !strings.Contains(res.Content, "during this call") {
		t.Fatalf("result %+v; want an error result saying the server exited during the call", res)
	}
	again := call(t, c, "mcp__fx__echo", `{"text":"hi"}`)
	if !again.IsError || !strings.Contains(again.Content, "before this call") {
		t.Errorf("next call: %+v; want the server reported gone", again)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		n := len(exits)
		mu.Unlock()
		if n > 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(exits) != 1 || !errors.Is(exits[0], ErrExited) || !strings.Contains(exits[0].Tail, "dying now") {
		t.Fatalf("OnExit heard %v; want one exit quoting stderr", exits)
	}
}

func TestCancellingACallReachesTheServer(t *testing.T) {
	marker := t.TempDir() + "/cancelled"
	c := startFixture(t, Options{}, markerEnv, marker)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { // cancel once the server is in the call
		defer cancel()
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			if b, _ := os.ReadFile(marker); string(b) == "started" {
				return
			}
		}
	}()
	_, err := tool(t, c, "mcp__fx__slow").Run(ctx, &agentloop.Call{ID: "toolu_1", Input: json.RawMessage(`{}`)})
	if !errors.Is(err, ask.ErrCancelled) {
		t.Fatalf("error %v; want the run's cancellation", err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if b, _ := os.ReadFile(marker); string(b) == "cancelled" {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("the server never saw the call cancelled")
}

// TestTheServersTimeoutBoundsACall: a call that outlasts the server's
// timeout ends in an error result, and the server still answers the next.
// The timeout bounds every call, the quick echo too, so it is long
// against a loaded machine's scheduling.
func TestTheServersTimeoutBoundsACall(t *testing.T) {
	sc := fixture("fx", "server")
	sc.Timeout = time.Second
	c, errs := start(t, Options{}, sc)
	if len(errs) > 0 {
		t.Fatal(errs[0])
	}
	res := call(t, c, "mcp__fx__slow", `{}`)
	if !res.IsError || !strings.Contains(res.Content, `MCP server "fx" tool "slow" timed out after 1s`) {
		t.Fatalf("result %+v", res)
	}
	if ok := call(t, c, "mcp__fx__echo", `{"text":"still here"}`); ok.Content != "echo: still here" {
		t.Errorf("after a timeout the server should still answer: %+v", ok)
	}
}
