// Package channelwire wires the chat channels and the inbox into
// askuser's commands: which channels are linked in (linked.go), their
// settings as flags, environment and the channels file (Sources, Build),
// the inbox and channel frontends of a process with the relay that serves
// the channels it may hold (Relayed), and the address askuser serve leaves
// so that messages and notifications link to its pages (address.go).
// askuser serve, the frontend chooser (internal/chooser) and the bridge of
// mcp and hook (internal/bridge) share it.
//
// Invariants:
//   - A channel is linked in by one blank import in linked.go, and only
//     there; a channel not linked is still known by name, and naming it
//     says that it is not built in.
//   - A secret is never a flag (a flag's value shows in the process list):
//     tokens come from the environment or the channels file.
//   - A link a message or a notification carries names a page, never the
//     token (InboxLink); only this machine's terminal is shown the token
//     (InboxURL).
//   - A channel whose platform calls askuser back (a webhook) is asked
//     through only while askuser serve holds it (webhook.go): a question
//     sent by a process nobody calls back would never get its answer.
package channelwire
