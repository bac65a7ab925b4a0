// Package agenthost is the host room: what askuser knows of the agent
// programs people run (Claude Code, Codex CLI, Gemini CLI, OpenCode) so a
// question nobody answered in time stops the agent and a late answer
// continues it. See Host.
package agenthost
