// Command floor is the floor of askuser's start-up: a program that links
// the dependencies askuser must use — the official MCP SDK, survey,
// urfave/cli, go-isatty and goccy/go-yaml — and nothing of askuser's own,
// and answers --version through a urfave/cli App. Its peak RSS and time
// are what any program built on them pays before it does anything: every
// linked package's initialisers run. askuser's figures are compared with
// it and with scripts/hello (scripts/bench.sh, bench_test.go).
package main

import (
	"os"

	_ "github.com/AlecAivazis/survey/v2"
	_ "github.com/goccy/go-yaml"
	_ "github.com/mattn/go-isatty"
	_ "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/urfave/cli/v2"
)

func main() {
	app := &cli.App{Name: "floor", Version: "1", Commands: []*cli.Command{
		{Name: "run", Usage: "do nothing", Action: func(*cli.Context) error { return nil }},
	}}
	if err := app.Run(os.Args); err != nil {
		os.Exit(1)
	}
}
