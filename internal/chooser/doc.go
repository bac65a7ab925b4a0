// Package chooser decides how askuser asks. It holds the flags that choose
// a frontend as each command accepts them (FrontendFlags, the Asking of
// ask, run, mcp and hook), reads them with the environment into a Spec,
// and builds the frontend in one place (Choose): the terminal prompt, JSON
// lines, the answers file with its approval rules, the recommended
// options, the web card, the inbox and the chat channels (through
// internal/channelwire), or several of them racing. It also decides where
// the JSON-lines frontend writes its question lines (QuestionLines).
//
// Invariants:
//   - Choose is the only place that picks a frontend for ask, run and
//     resume; askuser mcp and hook pick per question set in
//     internal/bridge, from the same Spec.
//   - A frontend that cannot ask here (no terminal) is left out of a race
//     with a reason, and alone it is ExitNoAnswer, never a hang.
//   - When the inbox or a channel is one of the frontends, each set is
//     answered once, wherever the answer comes from (channelwire.Mailboxed).
//   - The web card's URL, token and all, goes to the person on standard
//     error, never to standard output.
package chooser
