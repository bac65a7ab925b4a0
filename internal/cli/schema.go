package cli

import (
	"bytes"
	"encoding/json"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/ask"
)

func schemaCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "schema",
		Usage:     "print the AskUserQuestion input JSON Schema (with --tool: the whole tool definition)",
		ArgsUsage: " ",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "tool", Usage: "print the tool definition (name, description, input_schema) as offered to a model"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageErrorf("schema takes no arguments")
			}
			var out []byte
			if c.Bool("tool") {
				out, _ = json.MarshalIndent(map[string]any{
					"name": ask.ToolName, "description": ask.ToolDescription, "input_schema": ask.InputSchema,
				}, "", "  ")
			} else {
				var b bytes.Buffer
				_ = json.Indent(&b, ask.InputSchema, "", "  ")
				out = b.Bytes()
			}
			_, err := e.ios.Out.Write(append(out, '\n'))
			return err
		},
	}
}
