package cli

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/internal/mcp"
	"github.com/askuser/askuser/internal/statefile"
)

// demoScript is the demo's scripted model, built into the binary so the
// demo works anywhere, not only in a checkout.
//
//go:embed demo_auth.yaml
var demoScript []byte

// demoPrompt is the demo's prompt when none is given.
const demoPrompt = "Add authentication to my app"

func demoCommand(e *env) *cli.Command {
	var provider []string
	for _, f := range providerFlags() {
		provider = append(provider, f.Names()[0])
	}
	flags := withoutFlags(runFlags(), provider...)
	return &cli.Command{
		Name:      "demo",
		Usage:     "try askuser with no API key: a scripted agent asks you two questions",
		ArgsUsage: "[PROMPT]",
		Description: `Runs askuser run with a scripted model built into the binary, so it needs no API key
and works anywhere. The agent asks two questions at the terminal and shows the tool result
its model received. It is a session like any other: run's flags apply (--frontend auto,
--plain, --ask-timeout, -p ...), and askuser resume continues it.`,
		Flags:  flags,
		Action: func(c *cli.Context) error { return runDemo(c, e) },
	}
}

// runDemo runs `askuser run` with the demo's model and the flags given.
func runDemo(c *cli.Context, e *env) error {
	args, err := demoSetup(c, e)
	if err != nil {
		return err
	}
	for _, f := range c.Command.Flags {
		if name := f.Names()[0]; c.IsSet(name) {
			args = append(args, fmt.Sprintf("--%s=%v", name, c.Value(name)))
		}
	}
	prompt := demoPrompt
	if c.NArg() > 0 {
		prompt = strings.Join(c.Args().Slice(), " ")
	}
	args = append(args, "--", prompt)
	return newApp(e).RunContext(c.Context, append([]string{"askuser", "run"}, args...))
}

// demoSetup prepares what the demo's agent works with and returns the
// flags askuser run gets for it: the scripted model, written under the
// state directory (not a temporary file) so that askuser resume finds it
// again, as a session records its script's path; and a throwaway folder
// with a small MCP file server in it (this binary, askuser __demo-files),
// whose listing runs freely and whose writes are asked for approval.
func demoSetup(c *cli.Context, e *env) ([]string, error) {
	state, _ := flagOrEnv(c, e, "state-dir", "ASKUSER_STATE_DIR")
	dir := filepath.Join(stateDirOr(state, e), "demo")
	if err := statefile.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("demo: %w (set --state-dir or ASKUSER_STATE_DIR to a writable directory)", err)
	}
	path := filepath.Join(dir, "auth-demo.yaml")
	if err := statefile.WriteFile(path, demoScript, 0o600); err != nil {
		return nil, fmt.Errorf("demo: write its scripted model: %w", err)
	}
	work, err := os.MkdirTemp("", "askuser-demo-")
	if err != nil {
		return nil, fmt.Errorf("demo: make its throwaway folder: %w", err)
	}
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("demo: find askuser's own binary for its file server: %w", err)
	}
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"files": map[string]any{"command": self, "args": []string{demoFilesCommand, "--", work}}}})
	fmt.Fprintf(e.ios.ErrOut, "askuser demo: the agent's folder is %s\n", work)
	return []string{"--script", path, "--mcp-config", string(cfg), "--allowedTools", "mcp__files__list_directory"}, nil
}

// demoFilesCommand is the hidden command that serves the demo's folder.
const demoFilesCommand = "__demo-files"

// demoFilesCmd is askuser __demo-files DIR: the demo's MCP file server on
// standard input and output.
func demoFilesCmd(e *env) *cli.Command {
	return &cli.Command{
		Name:   demoFilesCommand,
		Hidden: true,
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageErrorf("%s takes the folder to serve", demoFilesCommand)
			}
			return mcp.ServeFiles(c.Context, c.Args().First(), io.NopCloser(e.ios.In), nopWriteCloser{e.ios.Out}, version())
		},
	}
}
