// Command askuser lets an AI agent stop mid-task, ask its human a
// structured question, and carry on with the answer. See README.md.
package main

import (
	"os"

	"github.com/askuser/askuser/internal/app"
)

func main() { os.Exit(app.Main(os.Args, os.Stdin, os.Stdout, os.Stderr)) }
