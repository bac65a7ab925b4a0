// Package runflow runs askuser's own agent: the flow askuser run, resume
// and demo all drive. It holds a run's flags in one place (RunFlags, read
// into Flags and checked into Options), builds the provider, the tools
// (the MCP servers of --mcp-config, gated by the approval policy) and the
// frontend (through internal/chooser), runs the agent loop of a session,
// records how it ended, and prints it: text for a person (with the working
// indicator and the tool lines), or Claude Code's json and stream-json.
//
// Another program's agent (askuser run --agent, and askuser resume of its
// session: host.go) is asked for with the same flags and frontends, but
// run by internal/hostrun: its standard output passes through unchanged,
// a question nobody answered in time leaves the session waiting (exit 6),
// and the agent's own failure is cmdutil.ExitAgent.
//
// Invariants:
//   - A run's status maps to its result's subtype and its exit code in one
//     table (runEnds), whose codes are cmdutil's.
//   - Every run is a session: a new prompt creates one (Run), a late
//     answer continues one from where it stopped (Resume), and a session
//     keeps the provider, the tools and the system prompt it was started
//     with unless the flags say otherwise.
//   - Standard output is data: the model's text (sanitised for a person)
//     or JSON lines; the working indicator, tool lines and notes go to
//     standard error, and the indicator is gone before anything else is
//     written.
//   - total_cost_usd is left out rather than guessed when a model of the
//     run has no known price (cost.go).
package runflow
