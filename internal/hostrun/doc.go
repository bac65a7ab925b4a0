// Package hostrun runs the agent programs people use (Claude Code, Codex
// CLI, Gemini CLI, OpenCode) as askuser sessions: askuser run --agent
// starts one (Start), askuser resume continues it with a late answer
// (Continue), and askuser hook and askuser mcp from the person's own
// configuration keep one by themselves (Standalone). What each program
// allows is the host room's (internal/agenthost); this package keeps the
// askuser session of the run, so listing, the inbox, the chat channels,
// cancel and serve's background resume treat it like any other session.
//
// One process holds the session while the agent runs: the askuser that
// started or continues it. The agent's askuser hook and askuser mcp do not
// decide or record anything themselves: EnvSocket tells them a socket of
// that askuser, and they hand over each hook event (ProxyHook) or their
// whole MCP session (ProxyMCP). The holder decides with the command
// line's hook and MCP wiring (Serve, Handlers) and records (Holder):
//   - every call that asks a person is recorded, with its set, before
//     anyone is asked, and asked one set at a time; its answer is recorded
//     before the agent gets it;
//   - a call nobody answered in time waits: Claude Code's hook defers it
//     (internal/hook's Suspend, through agenthost's Ledger), the others'
//     model reads agenthost.WaitingResult; once the agent has ended, where
//     it stopped is read from its own files (agenthost's Stopped), recorded
//     as waiting, and the host's transcript kept in a team store;
//   - a continue is recorded before it starts, and a continue cut short is
//     never sent twice: Claude Code's transcript says whether the call ran,
//     the others' whether the prompt was taken (agenthost.PromptTaken).
//
// Invariants:
//   - Nothing is lost when askuser is killed at any step. The agent holds
//     the session's host lock (an inherited descriptor) until it and all
//     it started have ended; a later askuser that finds the holder gone
//     waits for that lock, then reads where the agent stopped (Recover).
//     A hook whose askuser went away before it decided defers the call
//     rather than let it through; a waiting call the journal lacks is
//     recorded from the host's transcript (reconcile).
//   - A machine's answer is never passed off as a person's: the answers
//     reach the agent as askuser's own result text (Claude Code's hook
//     notes who answered) or in agenthost.Prompt, which marks who answered.
//   - The agent's standard output passes through unchanged; askuser keeps
//     only its end, to read how a continue ended.
//   - No secret is recorded: the agent's environment never is, and
//     arguments that carry a secret are refused (agenthost.CheckSecrets);
//     the socket's name is all a hook or MCP server is told.
package hostrun
