// Package bridge asks for askuser mcp and askuser hook, whose standard
// input is the host's (MCP messages, a hook event) and not the person's.
// Its Asker chooses a frontend for each question set as it comes, from the
// same Spec internal/chooser reads: the answers file, the terminal the
// host was started from (/dev/tty), the MCP host's own form, the web card,
// the inbox and the chat channels, or several of them racing.
//
// Invariants:
//   - A terminal is opened only while a set is on it, and holds one set at
//     a time.
//   - A broken answers file or a missing terminal is said in the answer to
//     the set (where the model or the hook's host sees it), never by
//     stopping the server: an MCP server keeps serving, a hook denies.
//   - The recommended-option policy never approves a tool (the approval
//     package's rule); a set asked through the inbox or a channel is
//     claimed under one key, so it is answered once.
package bridge
