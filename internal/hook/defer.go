package hook

// Defer is the PreToolUse decision that stops a Claude Code run at a call
// nobody answered in time: claude -p exits 0 with terminal_reason
// "tool_deferred", the session's transcript keeps the call, and
// claude -p --resume ID (no prompt) asks the hook again about the same
// tool_use_id (seen on 2.1.197, 2.1.330 and 2.1.332). Claude Code shows the
// reason nowhere; it is kept for a person reading the hook's output.
// Interactive Claude Code ignores it and shows its own dialog.
func Defer(reason string) Reply {
	return decisionReply(map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName": EventPreToolUse, "permissionDecision": "defer", "permissionDecisionReason": reason,
	}}, "")
}

// Deny is the PreToolUse decision that refuses a call with a message for
// the model, which reads it as "PreToolUse:<tool> hook error: <message>"
// (2.1.197: the message alone): for a call that cannot wait (a second one
// in the same turn, a subagent's).
func Deny(message string) Reply {
	return decisionReply(map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName": EventPreToolUse, "permissionDecision": "deny", "permissionDecisionReason": message,
	}}, "")
}
