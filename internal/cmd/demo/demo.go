// Package demo is askuser demo: askuser run with a scripted model built
// into the binary, so it needs no API key and works anywhere; and the
// hidden askuser __demo-files, the small MCP file server of the demo's
// throwaway folder. The run is internal/runflow's, with run's flags but
// the provider's.
package demo

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/internal/build"
	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/mcp"
	"github.com/askuser/askuser/internal/runflow"
	"github.com/askuser/askuser/internal/statefile"
)

// demoScript is the demo's scripted model, built into the binary so the
// demo works anywhere, not only in a checkout.
//
//go:embed demo_auth.yaml
var demoScript []byte

// demoPrompt is the demo's prompt when none is given.
const demoPrompt = "Add authentication to my app"

// Options are askuser demo's flags and arguments.
type Options struct {
	Factory *cmdutil.Factory
	Context context.Context
	// Flags are run's, without the provider's: the demo's model is its own.
	Flags runflow.Flags
	// Args are the prompt's words; none: the demo's own prompt.
	Args []string
}

// NewCmdDemo is askuser demo. runF, when not nil, is called with the
// options instead of running the demo (a test's).
func NewCmdDemo(f *cmdutil.Factory, runF func(*Options) error) *cli.Command {
	var provider []string
	for _, fl := range runflow.ProviderFlags() {
		provider = append(provider, fl.Names()[0])
	}
	return &cli.Command{
		Name:      "demo",
		Usage:     "try askuser with no API key: a scripted agent asks you two questions",
		ArgsUsage: "[PROMPT]",
		Description: `Runs askuser run with a scripted model built into the binary, so it needs no API key
and works anywhere. The agent asks two questions at the terminal and shows the tool result
its model received. It is a session like any other: run's flags apply (--frontend auto,
--plain, --ask-timeout, -p ...), and askuser resume continues it.`,
		Flags: cmdutil.WithoutFlags(runflow.RunFlags(), provider...),
		Action: func(c *cli.Context) error {
			opts := &Options{Factory: f, Context: c.Context, Flags: runflow.ReadFlags(c), Args: c.Args().Slice()}
			if runF != nil {
				return runF(opts)
			}
			return demoRun(opts)
		},
	}
}

// demoRun runs askuser run's flow with the demo's model and the flags
// given.
func demoRun(opts *Options) error {
	fl := opts.Flags
	if err := demoSetup(opts.Factory, &fl); err != nil {
		return err
	}
	prompt := demoPrompt
	if len(opts.Args) > 0 {
		prompt = strings.Join(opts.Args, " ")
	}
	return runflow.Run(opts.Context, opts.Factory, runflow.Start{Flags: fl, Args: []string{prompt}})
}

// demoSetup prepares what the demo's agent works with and gives the run's
// flags fl what it needs of it: the scripted model, written under the
// state directory (not a temporary file) so that askuser resume finds it
// again, as a session records its script's path; and a throwaway folder
// with a small MCP file server in it (this binary, askuser __demo-files),
// whose listing runs freely and whose writes are asked for approval.
func demoSetup(f *cmdutil.Factory, fl *runflow.Flags) error {
	state, _ := f.FlagOrEnv(fl.Store.StateDir, "state-dir", "ASKUSER_STATE_DIR")
	dir := filepath.Join(f.StateDir(state), "demo")
	if err := statefile.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("demo: %w (set --state-dir or ASKUSER_STATE_DIR to a writable directory)", err)
	}
	path := filepath.Join(dir, "auth-demo.yaml")
	if err := statefile.WriteFile(path, demoScript, 0o600); err != nil {
		return fmt.Errorf("demo: write its scripted model: %w", err)
	}
	work, err := os.MkdirTemp("", "askuser-demo-")
	if err != nil {
		return fmt.Errorf("demo: make its throwaway folder: %w", err)
	}
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("demo: find askuser's own binary for its file server: %w", err)
	}
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"files": map[string]any{"command": self, "args": []string{FilesCommand, "--", work}}}})
	fmt.Fprintf(f.IOStreams.ErrOut, "askuser demo: the agent's folder is %s\n", work)
	fl.Provider = runflow.ProviderSettings{Script: path, MaxRetries: runflow.DefaultMaxRetries}
	fl.Tools.MCPConfig, fl.Tools.MCPConfigSet = append([]string{string(cfg)}, fl.Tools.MCPConfig...), true
	fl.Tools.Allowed, fl.Tools.AllowedSet = append([]string{"mcp__files__list_directory"}, fl.Tools.Allowed...), true
	return nil
}

// FilesCommand is the hidden command that serves the demo's folder.
const FilesCommand = "__demo-files"

// FilesOptions are askuser __demo-files's arguments.
type FilesOptions struct {
	Factory *cmdutil.Factory
	Context context.Context
	// Args are the arguments: the folder to serve.
	Args []string
}

// NewCmdFiles is askuser __demo-files DIR: the demo's MCP file server on
// standard input and output. runF, when not nil, is called with the
// options instead of serving (a test's).
func NewCmdFiles(f *cmdutil.Factory, runF func(*FilesOptions) error) *cli.Command {
	return &cli.Command{
		Name:   FilesCommand,
		Hidden: true,
		Action: func(c *cli.Context) error {
			opts := &FilesOptions{Factory: f, Context: c.Context, Args: c.Args().Slice()}
			if runF != nil {
				return runF(opts)
			}
			return filesRun(opts)
		},
	}
}

func filesRun(opts *FilesOptions) error {
	if len(opts.Args) != 1 {
		return cmdutil.UsageErrorf("%s takes the folder to serve", FilesCommand)
	}
	ios := opts.Factory.IOStreams
	return mcp.ServeFiles(opts.Context, opts.Args[0], io.NopCloser(ios.In), cmdutil.NopWriteCloser{Writer: ios.Out}, build.Current())
}
