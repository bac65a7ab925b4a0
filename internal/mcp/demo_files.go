package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// ServeFiles is the small file server askuser demo gives its agent: an MCP
// server on in and out whose tools list, read and write files in root and
// nowhere else. It lets the demo make a visible change in a throwaway
// directory, through the same MCP client and approvals as any server,
// with nothing to install.
func ServeFiles(ctx context.Context, root string, in io.ReadCloser, out io.WriteCloser, version string) error {
	root, err := filepath.Abs(root)
	if err != nil {
		return err
	}
	srv := sdk.NewServer(&sdk.Implementation{Name: "askuser-demo-files", Version: version}, &sdk.ServerOptions{
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	srv.AddReceivingMiddleware(rejectDiscover)
	f := &demoFiles{root: root}
	srv.AddTool(&sdk.Tool{Name: "list_directory", Description: "List the files of a directory under the demo's folder.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string","description":"a directory, relative to the demo's folder"}},"required":["path"]}`)}, f.list)
	srv.AddTool(&sdk.Tool{Name: "read_file", Description: "Read a text file under the demo's folder.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)}, f.read)
	srv.AddTool(&sdk.Tool{Name: "write_file", Description: "Write a text file under the demo's folder, replacing it if it exists.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"},"content":{"type":"string"}},"required":["path","content"]}`)}, f.write)
	if err := srv.Run(ctx, &sdk.IOTransport{Reader: in, Writer: out}); err != nil && ctx.Err() == nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("demo file server: %w", err)
	}
	return nil
}

// demoFiles holds the folder the demo's tools may touch.
type demoFiles struct{ root string }

// maxDemoFile bounds what the demo writes or reads.
const maxDemoFile = 64 << 10

// resolve maps a path the model gave to one inside root, or says why not.
func (f *demoFiles) resolve(p string) (string, error) {
	full := filepath.Join(f.root, filepath.FromSlash(p))
	if rel, err := filepath.Rel(f.root, full); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%q is outside the demo's folder %s; give a path inside it", p, f.root)
	}
	return full, nil
}

type pathArgs struct {
	Path    string `json:"path"`
	Content string `json:"content"`
}

func (f *demoFiles) args(req *sdk.CallToolRequest) (pathArgs, string, error) {
	var a pathArgs
	if err := json.Unmarshal(req.Params.Arguments, &a); err != nil {
		return a, "", fmt.Errorf("the arguments are not {\"path\": …}: %v", err)
	}
	full, err := f.resolve(a.Path)
	return a, full, err
}

func textOf(s string, isErr bool) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}, IsError: isErr}
}

func (f *demoFiles) list(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	_, full, err := f.args(req)
	if err != nil {
		return textOf(err.Error(), true), nil
	}
	entries, err := os.ReadDir(full)
	if err != nil {
		return textOf(err.Error(), true), nil
	}
	var lines []string
	for _, e := range entries {
		kind := "[FILE]"
		if e.IsDir() {
			kind = "[DIR]"
		}
		lines = append(lines, kind+" "+e.Name())
	}
	sort.Strings(lines)
	if len(lines) == 0 {
		return textOf("(empty)", false), nil
	}
	return textOf(strings.Join(lines, "\n"), false), nil
}

func (f *demoFiles) read(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	_, full, err := f.args(req)
	if err != nil {
		return textOf(err.Error(), true), nil
	}
	b, err := os.ReadFile(full)
	if err != nil {
		return textOf(err.Error(), true), nil
	}
	if len(b) > maxDemoFile {
		b = b[:maxDemoFile]
	}
	return textOf(string(b), false), nil
}

func (f *demoFiles) write(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	a, full, err := f.args(req)
	if err != nil {
		return textOf(err.Error(), true), nil
	}
	if len(a.Content) > maxDemoFile {
		return textOf(fmt.Sprintf("the content is %d bytes; the demo writes at most %d", len(a.Content), maxDemoFile), true), nil
	}
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		return textOf(err.Error(), true), nil
	}
	if err := os.WriteFile(full, []byte(a.Content), 0o644); err != nil {
		return textOf(err.Error(), true), nil
	}
	return textOf(fmt.Sprintf("Wrote %d bytes to %s", len(a.Content), full), false), nil
}
