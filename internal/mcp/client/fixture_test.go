package client

// The test binary is also the fixture MCP server: run with fixtureEnv set,
// TestMain becomes a server (written with the Go SDK, on real stdio)
// instead of running the tests.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	fixtureEnv = "ASKUSER_MCP_FIXTURE"
	// childPIDEnv names a file the server writes the pid of a child it
	// spawns (which shares its stdout and stderr, as npx's node does).
	childPIDEnv = "ASKUSER_MCP_FIXTURE_CHILD_PID"
	// markerEnv names a file the slow tool writes when it starts and when
	// it is cancelled.
	markerEnv = "ASKUSER_MCP_FIXTURE_MARKER"
)

func TestMain(m *testing.M) {
	switch os.Getenv(fixtureEnv) {
	case "":
		os.Exit(m.Run())
	case "server":
		runFixture()
	case "crash":
		for i := 1; i <= 25; i++ {
			fmt.Fprintf(os.Stderr, "boom line %d\n", i)
		}
		os.Exit(1)
	case "silent": // reads its input, never answers, exits when it ends
		_, _ = io.Copy(io.Discard, os.Stdin)
	case "stubborn": // ignores the end of its input and SIGTERM
		signal.Ignore(syscall.SIGTERM)
		fmt.Fprintln(os.Stderr, "stubborn: ignoring SIGTERM")
		// A sleep, not an empty select: with no other goroutine, select {}
		// is a deadlock the runtime ends at once.
		time.Sleep(time.Hour)
	case "child":
		time.Sleep(time.Hour)
	}
	os.Exit(0)
}

// fixtureServer is the MCP server the tests talk to, over stdio or HTTP.
func fixtureServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "fixture", Version: "1"}, nil)
	obj := json.RawMessage(`{"type":"object"}`)
	text := func(s string) *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
	}
	add := func(name, desc string, schema json.RawMessage, h mcp.ToolHandler) {
		s.AddTool(&mcp.Tool{Name: name, Description: desc, InputSchema: schema}, h)
	}
	add("echo", "Repeat the text.", json.RawMessage(`{"type":"object","properties":{"zebra":{"type":"string"},"text":{"type":"string"},"apple":{"type":"string"}},"required":["text"]}`),
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var in struct{ Text string }
			_ = json.Unmarshal(req.Params.Arguments, &in)
			return text("echo: " + in.Text), nil
		})
	add("read.file", "A name with a dot.", obj, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text("read"), nil
	})
	add("structured", "Text beside structured content.", obj, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		r := text("12 files")
		r.StructuredContent = map[string]any{"count": 12}
		return r, nil
	})
	add("structured_only", "Structured content alone.", obj, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{}, StructuredContent: map[string]any{"count": 12}}, nil
	})
	add("image", "An image and a link.", obj, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{
			&mcp.ImageContent{MIMEType: "image/png", Data: make([]byte, 1234)},
			&mcp.ResourceLink{URI: "file:///tmp/a.txt", Name: "a.txt", MIMEType: "text/plain"},
		}}, nil
	})
	add("fail", "An error result.", obj, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		r := text("disk full")
		r.IsError = true
		return r, nil
	})
	add("empty", "No content.", obj, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{}}, nil
	})
	add("big", "A long text.", obj, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text(strings.Repeat("x", 300_000)), nil
	})
	add("slow", "Waits until cancelled.", obj, func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		path := os.Getenv(markerEnv)
		if path != "" {
			_ = os.WriteFile(path, []byte("started"), 0o600)
		}
		<-ctx.Done()
		if path != "" {
			_ = os.WriteFile(path, []byte("cancelled"), 0o600)
		}
		return nil, ctx.Err()
	})
	add("die", "Exits mid-call.", obj, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		fmt.Fprintln(os.Stderr, "dying now")
		os.Exit(3)
		return nil, nil
	})
	add("elicit", "Asks for a form.", json.RawMessage(`{"type":"object","properties":{"schema":{"type":"string"}}}`), fixtureElicit)
	add("elicit_later", "Asks after the call ended.", obj, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		go func() {
			time.Sleep(100 * time.Millisecond)
			res, err := req.Session.Elicit(context.Background(), &mcp.ElicitParams{Message: "Late?", RequestedSchema: json.RawMessage(`{"type":"object","properties":{}}`)})
			if err != nil {
				fmt.Fprintf(os.Stderr, "late elicitation: error %v\n", err)
				return
			}
			fmt.Fprintf(os.Stderr, "late elicitation: %s\n", res.Action)
		}()
		return text("asked later"), nil
	})
	return s
}

// deployForm's properties are not in alphabetical order, so a form asked
// in order proves the order survived the SDK.
const deployForm = `{"type":"object","properties":{
	"env":{"type":"string","title":"Environment","oneOf":[{"const":"stg","title":"Staging"},{"const":"prod","title":"Production"}],"default":"stg"},
	"replicas":{"type":"integer","title":"Replicas","minimum":1,"maximum":5},
	"notify":{"type":"boolean","title":"Notify the team"}},
	"required":["env","replicas"]}`

// fixtureElicit asks for the form in its input (deployForm by default)
// and reports what came back.
func fixtureElicit(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var in struct{ Schema string }
	_ = json.Unmarshal(req.Params.Arguments, &in)
	if in.Schema == "" {
		in.Schema = deployForm
	}
	res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "Deploy settings?", RequestedSchema: json.RawMessage(in.Schema)})
	if err != nil {
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "elicitation failed: " + err.Error()}}}, nil
	}
	content, _ := json.Marshal(res.Content)
	reason, _ := res.Meta["askuser/reason"].(string)
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{
		Text: fmt.Sprintf("action=%s content=%s reason=%s", res.Action, content, reason)}}}, nil
}

func runFixture() {
	if path := os.Getenv(childPIDEnv); path != "" {
		child := exec.Command(os.Args[0])
		child.Env = append(os.Environ(), fixtureEnv+"=child")
		child.Stdout, child.Stderr = os.Stdout, os.Stderr // held open, as npx's node does
		if err := child.Start(); err != nil {
			fmt.Fprintln(os.Stderr, "spawn:", err)
			os.Exit(2)
		}
		_ = os.WriteFile(path, []byte(fmt.Sprint(child.Process.Pid)), 0o600)
	}
	fmt.Fprintln(os.Stderr, "fixture server ready")
	if err := fixtureServer().Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "fixture server:", err)
	}
}
