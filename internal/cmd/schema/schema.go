// Package schema is askuser schema: it prints the AskUserQuestion input
// JSON Schema, or with --tool the whole tool definition as offered to a
// model. Both come from package ask, the one set of types.
package schema

import (
	"bytes"
	"encoding/json"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/cmdutil"
)

// Options are askuser schema's flags and arguments.
type Options struct {
	Factory *cmdutil.Factory
	// Tool is --tool: the whole tool definition.
	Tool bool
	Args []string
}

// NewCmdSchema is askuser schema. runF, when not nil, is called with the
// options instead of printing (a test's).
func NewCmdSchema(f *cmdutil.Factory, runF func(*Options) error) *cli.Command {
	return &cli.Command{
		Name:      "schema",
		Usage:     "print the AskUserQuestion input JSON Schema (with --tool: the whole tool definition)",
		ArgsUsage: " ",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "tool", Usage: "print the tool definition (name, description, input_schema) as offered to a model"},
		},
		Action: func(c *cli.Context) error {
			opts := &Options{Factory: f, Tool: c.Bool("tool"), Args: c.Args().Slice()}
			if runF != nil {
				return runF(opts)
			}
			return schemaRun(opts)
		},
	}
}

func schemaRun(opts *Options) error {
	if len(opts.Args) > 0 {
		return cmdutil.UsageErrorf("schema takes no arguments")
	}
	var out []byte
	if opts.Tool {
		out, _ = json.MarshalIndent(map[string]any{
			"name": ask.ToolName, "description": ask.ToolDescription, "input_schema": ask.InputSchema,
		}, "", "  ")
	} else {
		var b bytes.Buffer
		_ = json.Indent(&b, ask.InputSchema, "", "  ")
		out = b.Bytes()
	}
	_, err := opts.Factory.IOStreams.Out.Write(append(out, '\n'))
	return err
}
