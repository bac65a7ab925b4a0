// Package cmdutil is what askuser's commands share, and nothing more: the
// Factory a command is built with (its streams, its environment, its
// stores), the flag types and the flags every command words alike, the
// exit-code table with the one function that maps an error to it, usage
// errors and their suggestions, and the application shell a command runs
// in (NewApp, Execute). Bigger shared machinery has rooms of its own:
// internal/chooser decides how to ask, internal/channelwire wires the chat
// channels and the inbox, internal/runflow runs an agent, internal/bridge
// asks for mcp and hook.
//
// Invariants:
//   - What commands share flows one way: cmdutil imports no command
//     (internal/cmd/...), no shared room above it and not internal/app;
//     internal/archtest holds the rule.
//   - One exit-code table (exitcode.go), and ExitCode is the only place an
//     error becomes a code; Execute is the only place an error is printed.
//   - A flag that takes one of a few values carries them (ChoiceFlag), so
//     its parser, its help and its completion offer the same list, and a
//     command offers nothing it refuses.
//   - Every value a person passed is quoted back by ask.Excerpt, so 100 KB
//     on a command line never comes back whole.
package cmdutil
