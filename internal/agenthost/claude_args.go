package agenthost

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// claudeOptions are Claude Code's options and what each takes, the union
// of 2.1.197, 2.1.330 and 2.1.332 (read from each binary's commander
// definitions, hidden ones included). Commander reads <x...> greedily: a
// prompt written after --allowedTools is a tool name to Claude Code too.
var claudeOptions = func() options {
	o := options{}
	for _, n := range strings.Fields(`--add-dir --allowed-tools --allowedTools --betas --channels
		--dangerously-load-development-channels --disallowed-tools --disallowedTools --file --mcp-config --tools`) {
		o[n] = greedy
	}
	for _, n := range strings.Fields(`--advisor --agent --agent-color --agent-id --agent-name --agent-type --agents
		--append-subagent-system-prompt --append-subagent-system-prompt-file --append-system-prompt
		--append-system-prompt-file --autocompact --client-data-url --debug-file --deep-link-last-fetch
		--deep-link-repo --effort --environment --fallback-model --fast-mode --inherit-permission-mode
		--input-format --json-schema --lead-verify-key --managed-settings --max-budget-usd --max-thinking-tokens
		--max-turns --messaging-socket-path --model --name --output-format --parent-session-id --permission-mode
		--permission-prompt-tool --permission-prompts --plan-mode-instructions --plugin-dir --plugin-dir-no-mcp
		--plugin-url --prefill --proactivity --project-config-root --remote-control-session-name-prefix
		--resume-drops-turn --resume-session-at --rewind-files --runner-declares --sdk-url --session-id
		--setting-sources --settings --system-prompt --system-prompt-file --system-prompt-snapshot --task-budget
		--team-name --teammate-mode --thinking --thinking-display --watch-artifact --watch-artifact-no-autoreact
		--workload -n`) {
		o[n] = one
	}
	for _, n := range strings.Fields(`--cloud --debug --from-pr --prompt-suggestions --remote-control --resume
		--teleport --worktree -d -r -w`) {
		o[n] = optional
	}
	return o
}()

// claudeRefused are options a run askuser continues cannot have, with
// why and the fix.
var claudeRefused = map[string]string{
	"--fork-session":           "it resumes into a new session, and the waiting call would run once there and again in the original; continue the session itself (askuser resume does)",
	"--no-session-persistence": "Claude Code then saves no session, so there is nothing to resume; leave it out",
	"--bg":                     "a background session is not one askuser can wait on; run it in the foreground",
	"--background":             "a background session is not one askuser can wait on; run it in the foreground",
	"--cloud":                  "a cloud session runs elsewhere; run Claude Code here",
	"--teleport":               "a teleported session runs elsewhere; run Claude Code here",
	"--remote-control":         "a remote-controlled session is answered elsewhere; leave it out",
	"--desktop":                "the desktop app is interactive; askuser runs claude -p",
}

// claudeCheck refuses what would break a continue.
func claudeCheck(tokens []token, what string) error {
	return refuse(tokens, claudeRefused, "claude", what)
}

// claudeResumeDropped are the options of the first run a continue leaves
// out: it resumes by id itself, in -p, without a prompt.
var claudeResumeDropped = []string{"-p", "--print", "-r", "--resume", "-c", "--continue", "--session-id",
	"--fork-session", "--input-format", "--replay-user-messages", "--resume-session-at", "--resume-drops-turn",
	"--from-pr", "--rewind-files", "-w", "--worktree"}

// claudeHookSettings returns the settings that add askuser's PreToolUse
// hook, merged into the person's own --settings value when there is one
// (a file, read from dir, or JSON text). The hook's command is quoted for
// the shell Claude Code runs it with.
func claudeHookSettings(person, dir string, w Wiring) (string, error) {
	settings := map[string]any{}
	if strings.TrimSpace(person) != "" {
		text := person
		if !strings.HasPrefix(strings.TrimSpace(person), "{") {
			path := person
			if !filepath.IsAbs(path) {
				path = filepath.Join(dir, path)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return "", fmt.Errorf("read claude --settings %s to add askuser's hook to it: %w", person, err)
			}
			text = string(b)
		}
		if err := json.Unmarshal([]byte(text), &settings); err != nil {
			return "", fmt.Errorf("claude --settings %s is not a JSON object (%v); askuser adds its hook to it", ask80(person), err)
		}
	}
	hooks, _ := settings["hooks"].(map[string]any)
	if hooks == nil {
		hooks = map[string]any{}
	}
	pre, _ := hooks["PreToolUse"].([]any)
	matcher := w.Matcher
	if matcher == "" {
		matcher = "AskUserQuestion"
	}
	command := shellQuote(w.Askuser) + " hook"
	for _, a := range w.Args {
		command += " " + shellQuote(a)
	}
	hooks["PreToolUse"] = append(pre, map[string]any{"matcher": matcher, "hooks": []any{map[string]any{
		"type": "command", "command": command, "timeout": int(w.timeout().Seconds()),
	}}})
	settings["hooks"] = hooks
	b, err := json.Marshal(settings)
	return string(b), err
}

// claudeWire adds askuser's hook and a permission-prompt tool (without
// one, -p does not offer AskUserQuestion) to args.
func claudeWire(tokens []token, dir string, w Wiring) ([]string, error) {
	person := ""
	if t, ok := find(tokens, "--settings"); ok {
		person = t.value()
	}
	settings, err := claudeHookSettings(person, dir, w)
	if err != nil {
		return nil, err
	}
	tokens = drop(tokens, false, "--settings")
	args := append(flatten(tokens), "--settings", settings)
	if _, ok := find(tokens, "--permission-prompt-tool"); !ok {
		args = append(args, "--permission-prompt-tool", "stdio")
	}
	return args, nil
}

// shellQuote quotes s for sh when it holds anything but safe characters.
func shellQuote(s string) string {
	safe := s != ""
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,@+%", r)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// ask80 cuts s for an error message.
func ask80(s string) string {
	if len(s) > 80 {
		return strconv.Quote(s[:77] + "...")
	}
	return strconv.Quote(s)
}

// ClaudeMatcher is the PreToolUse matcher askuser run --agent claude
// wires its hook in with: AskUserQuestion, and the tools Claude Code asks
// before running (shell commands, edits, fetches, MCP tools), so their
// approvals can wait for a late answer too. The read-only tools Claude
// Code runs without asking stay its own.
const ClaudeMatcher = "AskUserQuestion|Bash|Edit|MultiEdit|Write|NotebookEdit|WebFetch|WebSearch|mcp__.*"

// ClaudePermissions reads the permission flags of Claude Code arguments:
// --allowedTools and --disallowedTools rules (Claude Code's syntax, one
// list per flag as given) and whether permissions are bypassed
// (--permission-mode bypassPermissions, --dangerously-skip-permissions),
// so askuser's hook decides as those flags say before it asks anyone.
func ClaudePermissions(args []string) (allow, deny []string, bypass bool) {
	for _, t := range scan(args, claudeOptions) {
		switch t.name {
		case "--allowedTools", "--allowed-tools":
			allow = append(allow, t.values...)
		case "--disallowedTools", "--disallowed-tools":
			deny = append(deny, t.values...)
		case "--permission-mode":
			bypass = bypass || t.value() == "bypassPermissions"
		case "--dangerously-skip-permissions":
			bypass = true
		}
	}
	return allow, deny, bypass
}

// CheckExtra refuses, before anything is asked or run, the flags given
// for one continue of a kind host (askuser resume ID -- FLAGS) that
// would send a prompt, fork the session or name another one: a prompt
// while Claude Code's call waits loses the call, and the others' continue
// brings its own prompt.
func CheckExtra(k Kind, extra []string) error {
	var err error
	switch k {
	case Claude:
		err = claudeExtra(scan(extra, claudeOptions))
	case Codex:
		_, err = flagsOnly(extra, codexOptions, "codex")
	case Gemini:
		_, err = flagsOnly(extra, geminiOptions, "gemini")
	case OpenCode:
		_, err = flagsOnly(extra, openCodeOptions, "opencode")
	}
	return err
}

// claudeExtra refuses a prompt, --fork-session, and a session named among
// a continue's extra flags.
func claudeExtra(extra []token) error {
	if err := claudeCheck(extra, "askuser resume"); err != nil {
		return err
	}
	for _, t := range extra {
		if t.positional() || t.name == "--" {
			return fmt.Errorf("askuser resume: %q after -- would be a prompt to claude, and a prompt sent while the call waits loses the call for good; give only claude flags", ask80(strings.Join(t.raw, " ")))
		}
		if t.name == "-r" || t.name == "--resume" || t.name == "-c" || t.name == "--continue" || t.name == "--session-id" {
			return fmt.Errorf("askuser resume: claude %s cannot be given: askuser resumes the session itself", t.name)
		}
	}
	return nil
}
