// Package agenthost is the host room: what askuser knows of the agent
// programs people run (Claude Code, Codex CLI, Gemini CLI, OpenCode), so a
// question nobody answered in time stops the agent the way its contract
// allows, and a late answer continues it, here or on another machine.
//
// Claude Code continues the very call that waited: askuser's PreToolUse
// hook answers permissionDecision "defer", claude -p exits 0, and
// claude -p --resume ID (no prompt) asks the hook again about the same
// tool_use_id. The others have no defer: askuser's MCP call ends with an
// honest "no answer yet", and the late answer comes as a new prompt in
// seed 001's words (Prompt), through codex exec resume THREAD PROMPT,
// gemini -r ID -p PROMPT or opencode run -s ID --dir DIR. The difference
// stays in this package.
//
// # Invariants
//
//   - The person's configuration files are never edited: askuser goes in
//     through --settings (Claude Code, merged into the person's own), -c
//     overrides (Codex), a home overlay (Gemini CLI, gemini_overlay.go) and
//     OPENCODE_CONFIG_CONTENT (OpenCode).
//   - The agent's standard output is the caller's to pass on unchanged;
//     Stopped learns the session from the host's own files (the id askuser
//     chose with --session-id where the host allows it, the transcript, the
//     rollout, the session list), reading the output only when it helps.
//   - Nothing runs twice and nothing is lost: Claude Code's continue never
//     sends a prompt and never forks (--fork-session is refused), and is
//     refused with ErrAlreadyRan or ErrCallLost once the transcript shows
//     the call ran or was dropped; the hook's Ledger lets one call per
//     session wait; a subagent's call is never deferred.
//   - A machine's answer is never passed off as a person's: Prompt marks
//     who answered, as askuser's own tool result does.
//   - Every host runs with PWD set to its folder (OpenCode takes its folder
//     from $PWD before its working directory).
//
// # What step two calls
//
// askuser run --agent K [flags] -- ARGS (ARGS as typed after the program):
//
//	h, err := agenthost.For(kind)         // or ParseKind(flag value)
//	err = h.Check(args)                   // refuse early, naming the flag
//	run := &agenthost.Run{Kind: kind, Dir: dir, Args: args, Env: env}
//	cmd, err := h.Start(run, wiring)      // set Stdin/Stdout/Stderr; tee stdout if wanted
//	... run it ...
//	s, err := h.Stopped(ctx, run, stdout) // host session id, transcript, Pending call
//
// Claude Code stopped when s.Pending != nil; the others when askuser mcp
// (run by the host) recorded a suspended question. Keep s (it is JSON,
// without the environment) in the askuser session with the pending set,
// exit 6. With a team store keep h.Export(ctx, s, env) beside it, and
// again after every continue.
//
// Wiring: Askuser is the askuser binary; Args follow "hook" (Claude Code)
// or "mcp" (the others) and carry the run's flags (--ask-timeout,
// --on-timeout suspend, --state-dir, the askuser session…); Env reaches
// askuser through the host (Codex and Gemini pass an MCP server only some
// variables); Matcher is the PreToolUse matcher ("AskUserQuestion", or
// "*" to route approvals too); Timeout must exceed askuser's own
// --ask-timeout; Scratch is a 0700 folder of askuser's (the Gemini overlay
// lives in Scratch/gemini/<host session id>: remove it when the askuser
// session ends).
//
// askuser hook (internal/cmd/hook, the Claude Code side), for a
// PreToolUse event:
//
//	call, err := agenthost.ParseHookCall(input)
//	ledger := agenthost.Ledger{Dir: filepath.Join(stateDir, "hosts", "claude")}
//	// an answer in the mailbox for call.ToolUseID (the resume): decide with it
//	// (allow with updatedInput.answers, or the approval), then ledger.Release(call)
//	v, waiting, err := ledger.Peek(call) // Busy: print hook.Deny(agenthost.BusyMessage(call, *waiting)), ask nobody
//	// ask as today; at the deadline, with --on-timeout suspend:
//	v, waiting, err = ledger.Claim(call)
//	// Defer, DeferAgain: record the askuser session (host claude, call.SessionID,
//	//   call.Cwd, call.ToolUseID, the question set), print hook.Defer(reason)
//	// Busy:         hook.Deny(agenthost.BusyMessage(call, *waiting))
//	// SubagentCall: hook.Deny(agenthost.SubagentMessage(call.ToolName, questionText))
//	// Followed:     hook.Deny(agenthost.FollowedMessage(call.ToolName))
//
// The ledger writes <Dir>/<session id>.json (the deferred call: id, tool,
// input, cwd, transcript path, time) under a lock folder, as the hook may
// run for several calls of one message at once.
//
// askuser resume ID (and serve's background resume): put the answers where
// the hook reads them (Claude Code), then
//
//	cmd, err := h.Continue(ctx, s, agenthost.Continuation{Answers: answers, Env: env, Extra: afterDashDash}, wiring)
//	... run it (stdin stays empty for Claude Code) ...
//	o := h.Outcome(s, env, agenthost.Result{ExitCode: code, Stdout: out, Stderr: errOut})
//
// Continue returns ErrAlreadyRan (the call has its result: mark the askuser
// session answered, run nothing) or ErrCallLost (the host dropped it).
// Outcome is Done, Waiting (o.Session.Pending waits: deferred again, or a
// new call of the continued turn) or Failed (o.Err; ErrToolUnavailable
// names the tool, its MCP server and the flag to give again). On another
// machine call h.Import(ctx, s, transcript, env) first: Claude Code's
// .jsonl goes to the project folder of s.Dir under that HOME, Codex's
// rollout keeps its name under CODEX_HOME/sessions, Gemini's session file
// goes to the project folder Gemini gives s.Dir (marker and all), OpenCode
// runs opencode import.
//
// # Observations (2026-12-07, against the real clients on loopback fakes)
//
// Confirmed as CONTRACTS-RESUME.md records them: Claude Code 2.1.197,
// 2.1.330 and 2.1.332 defer (exit 0, terminal_reason tool_deferred,
// session_id, deferred_tool_use; text output a single empty line); the hook
// is asked again at --resume for the same tool_use_id with the same input,
// prompt_id left out; allow with updatedInput.answers gives "Your questions
// have been answered…" plus "Continue from where you left off."; a deferred
// Bash call runs only at resume; an MCP server gets its only tools/call at
// resume, _meta claudecode/toolUseId the deferred id; of two deferred calls
// in one message the first is dropped; a subagent's call is not deferred
// (its hook input carries agent_id and agent_type); a prompt sent while the
// hook still defers loses the call (a later resume: "No deferred tool
// marker found…", exit 1; 2.1.197 runs the hook but the model gets only
// "Continue from where you left off."); --fork-session runs the call twice;
// a tool missing at resume exits 1 tool_deferred_unavailable (2.1.197:
// result "", no terminal_reason); 2.1.197 cannot resume from another
// folder, 2.1.33x can; a .jsonl copied into another HOME's folder of the
// same name resumes. Codex 0.169 and 0.171: thread id on the first --json
// line and in the MCP call's _meta (threadId, callId); exec resume ID
// PROMPT; a rollout copied under another CODEX_HOME keeps resuming. Gemini
// CLI 0.61: -r ID -p PROMPT from the same folder (another folder: exit
// 42); session files as recorded. OpenCode 1.18.33: run -s ID --dir DIR;
// export and import carry a session to another HOME.
//
// Seen differently or newly:
//   - Claude Code runs the hooks of one message's calls at the same time
//     when the tools may run together (two Read calls: both hooks started
//     within 20 ms), hence the ledger's lock.
//   - Deferring the first call of a message and denying the second keeps
//     both on 2.1.330 and 2.1.332 (the model gets the denial and, at
//     resume, the answer, in one message). 2.1.197 gives a deferred call
//     that another call follows "[Tool result missing due to internal
//     error]" at resume even when that other call was denied; only the last
//     call of a message can wait there (Followed).
//   - The transcript is written as the message streams: a hook that reads
//     it at once may not see the message's later calls yet (2.1.197 with a
//     fast hook); by the hook's deadline it does.
//   - 2.1.332 keeps a memory/ folder beside the transcripts.
//   - claude -p --resume PATH appends to the file at PATH where it is.
//   - Gemini CLI skips GEMINI_CLI_SYSTEM_SETTINGS_PATH unless root owns the
//     file and every folder above it; a project is found by its
//     tmp/<slug>/.project_root marker, so a copied session file resumes
//     without projects.json. A resume in a later minute than the session
//     file's name appends to that file and also writes a stub named after
//     the new minute, holding only the session context; gemini reads the
//     file of the id updated last, so a copy needs both (a copy of the stub
//     alone: "No previous sessions found for this project").
//   - OpenCode takes its folder from $PWD before its working directory; it
//     installs @opencode-ai/plugin into its config folder from
//     registry.npmjs.org at every start unless a lock file there lists it;
//     run --title T sends no title request; a prompt on standard input
//     reaches the model verbatim.
//   - Codex did not pass a variable of its own environment (one not on its
//     short list) to an MCP server: what askuser needs goes in
//     mcp_servers.askuser.env.
package agenthost
