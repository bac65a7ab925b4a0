package cli

import (
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"
)

// demoScript is the demo's scripted model, built into the binary so the
// demo works anywhere, not only in a checkout.
//
//go:embed demo_auth.yaml
var demoScript []byte

// demoPrompt is the demo's prompt when none is given.
const demoPrompt = "Add authentication to my app"

func demoCommand(e *env) *cli.Command {
	var flags []cli.Flag
	provider := map[string]bool{}
	for _, f := range providerFlags() {
		provider[f.Names()[0]] = true
	}
	for _, f := range runFlags() {
		if !provider[f.Names()[0]] {
			flags = append(flags, f)
		}
	}
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
// flags askuser run gets for it: today, the scripted model alone, written
// under the state directory (not a temporary file) so that askuser resume
// finds it again, as a session records its script's path.
//
// The seam for the MCP part: once the loop has MCP tools, this is where
// the demo makes a throwaway directory (os.MkdirTemp), names a filesystem
// tool rooted there in the flags it returns, and the script gains a turn
// that writes a file in it, which the person approves: a visible change,
// with one approval, and still no key.
func demoSetup(c *cli.Context, e *env) ([]string, error) {
	dir := filepath.Join(sessionStore(c, e).Dir, "demo")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("demo: %w (set --state-dir or ASKUSER_STATE_DIR to a writable directory)", err)
	}
	path := filepath.Join(dir, "auth-demo.yaml")
	if err := os.WriteFile(path, demoScript, 0o600); err != nil {
		return nil, fmt.Errorf("demo: write its scripted model: %w", err)
	}
	return []string{"--script", path}, nil
}
