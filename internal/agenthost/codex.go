package agenthost

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// codexHost is Codex CLI (0.169, 0.171): no defer; askuser's MCP call ends
// with "no answer yet", and codex exec resume THREAD_ID PROMPT continues
// the thread headless with the answer as a new user message.
type codexHost struct{}

var _ Host = codexHost{}

func (codexHost) Kind() Kind { return Codex }

// codexOptions are codex's and codex exec's options (0.169 and 0.171).
var codexOptions = func() options {
	o := options{}
	for _, n := range strings.Fields(`-c --config --enable --disable --remote --remote-auth-token-env -m --model
		--local-provider -p --profile -s --sandbox -C --cd --add-dir -a --ask-for-approval --thread-source
		--cyber-access-program --output-schema --color -o --output-last-message`) {
		o[n] = one
	}
	o["-i"], o["--image"] = greedy, greedy
	return o
}()

// codexRefused are codex exec options a continue cannot repeat: codex exec
// resume has no such option, or nothing would be saved to resume.
var codexRefused = map[string]string{
	"--ephemeral":      "codex then saves no session to resume; leave it out",
	"--oss":            "codex exec resume has no --oss; set the provider in config.toml or with -c model_provider=… instead",
	"--local-provider": "codex exec resume has no --local-provider; set the provider in config.toml or with -c instead",
	"--add-dir":        "codex exec resume has no --add-dir; set sandbox_workspace_write.writable_roots with -c instead",
	"--approve-for-me": "codex exec resume has no --approve-for-me; leave it out",
	"--worktree":       "the session would belong to a new worktree; run askuser in that worktree instead",
}

// codexSplit splits the arguments at the exec subcommand: the options
// before it, and exec's own tokens after it.
func codexSplit(args []string, what string) (global, execTokens []token, err error) {
	tokens := scan(args, codexOptions)
	for i, t := range tokens {
		if !t.positional() {
			continue
		}
		if t.raw[0] != "exec" && t.raw[0] != "e" {
			break
		}
		global, execTokens = tokens[:i], tokens[i+1:]
		if err := refuse(append(append([]token{}, global...), execTokens...), codexRefused, "codex", what); err != nil {
			return nil, nil, err
		}
		return global, execTokens, nil
	}
	return nil, nil, fmt.Errorf("%s: askuser runs codex exec headless: give exec and its arguments (exec --skip-git-repo-check \"the task\")", what)
}

func (codexHost) Check(args []string) error {
	_, _, err := codexSplit(args, "askuser run --agent codex")
	return err
}

// codexWire are the -c flags that add askuser as the MCP server "askuser"
// for this run only: approved without asking (codex exec's policy is
// "never"), with the wiring's time limit and environment.
func codexWire(w Wiring) []string {
	args, _ := json.Marshal(append([]string{"mcp"}, w.Args...))
	var env []string
	for _, kv := range w.Env {
		k, v, _ := strings.Cut(kv, "=")
		env = append(env, jsonString(k)+"="+jsonString(v))
	}
	flags := []string{
		"-c", "mcp_servers.askuser.command=" + jsonString(w.Askuser),
		"-c", "mcp_servers.askuser.args=" + string(args),
		"-c", "mcp_servers.askuser.enabled=true",
		"-c", `mcp_servers.askuser.default_tools_approval_mode="approve"`,
		"-c", fmt.Sprintf("mcp_servers.askuser.tool_timeout_sec=%d", int(w.timeout().Seconds())),
	}
	if len(env) > 0 {
		flags = append(flags, "-c", "mcp_servers.askuser.env={"+strings.Join(env, ", ")+"}")
	}
	return flags
}

func (h codexHost) Start(run *Run, w Wiring) (*exec.Cmd, error) {
	if err := w.check(); err != nil {
		return nil, err
	}
	global, execTokens, err := codexSplit(run.Args, "askuser run --agent codex")
	if err != nil {
		return nil, err
	}
	run.SessionID = ""
	if len(execTokens) > 1 && execTokens[0].positional() && execTokens[0].raw[0] == "resume" {
		for _, t := range execTokens[1:] {
			if t.positional() && uuidRE().MatchString(t.raw[0]) {
				run.SessionID = t.raw[0]
				break
			}
		}
	}
	args := append(codexWire(w), flatten(global)...)
	args = append(append(args, "exec"), flatten(execTokens)...)
	run.Started = time.Now()
	cmd := exec.Command(bin(run.Bin, Codex), args...)
	place(cmd, codexDir(run.Dir, global, execTokens), run.Env)
	return cmd, nil
}

// codexDir is the folder codex works in: -C/--cd, from dir.
func codexDir(dir string, tokens ...[]token) string {
	for _, ts := range tokens {
		if t, ok := find(ts, "-C", "--cd"); ok && t.value() != "" {
			if filepath.IsAbs(t.value()) {
				return t.value()
			}
			return filepath.Join(dir, t.value())
		}
	}
	return dir
}

// Stopped finds the thread: the first line of --json output, else the
// newest rollout of the folder written since the start; and the last
// askuser call in it.
func (h codexHost) Stopped(_ context.Context, run *Run, stdout []byte) (Session, error) {
	env := envOr(run.Env)
	s := Session{Host: Codex, ID: run.SessionID, Dir: run.Dir, Bin: run.Bin, Args: run.Args}
	if s.ID == "" {
		var first struct {
			Type     string `json:"type"`
			ThreadID string `json:"thread_id"`
		}
		line, _, _ := strings.Cut(string(stdout), "\n")
		if json.Unmarshal([]byte(line), &first) == nil && first.Type == "thread.started" {
			s.ID = first.ThreadID
		}
	}
	global, execTokens, _ := codexSplit(run.Args, "")
	dir := codexDir(run.Dir, global, execTokens)
	path, err := codexRollout(env, s.ID, dir, run.Started)
	if err != nil {
		return s, err
	}
	r, err := readRollout(path)
	if err != nil {
		return s, err
	}
	s.ID, s.Transcript, s.Version, s.Pending = r.id, path, r.version, r.last
	return s, nil
}

// codexResumeDropped are the exec options a continue leaves out or
// translates: resume has no -s, -p or -C (given as -c and the folder), and
// the first prompt's images and colours do not carry over.
var codexResumeDropped = []string{"-s", "--sandbox", "-p", "--profile", "-C", "--cd", "-i", "--image", "--color"}

// Continue runs codex exec resume THREAD_ID PROMPT in the session's folder,
// with the first run's options and askuser wired in again.
func (h codexHost) Continue(_ context.Context, s Session, c Continuation, w Wiring) (*exec.Cmd, error) {
	if err := w.check(); err != nil {
		return nil, err
	}
	prompt, err := continuationPrompt(s, c)
	if err != nil {
		return nil, err
	}
	global, execTokens, err := codexSplit(s.Args, "askuser resume")
	if err != nil {
		return nil, err
	}
	extra, err := flagsOnly(c.Extra, codexOptions, "codex")
	if err != nil {
		return nil, err
	}
	var translated []string
	for _, t := range execTokens {
		switch t.name {
		case "-s", "--sandbox":
			translated = append(translated, "-c", "sandbox_mode="+jsonString(t.value()))
		case "-p", "--profile":
			translated = append(translated, "-c", "profile="+jsonString(t.value()))
		}
	}
	kept := drop(execTokens, true, codexResumeDropped...)
	args := append(codexWire(w), flatten(global)...)
	args = append(append(args, "exec", "resume"), flatten(kept)...)
	args = append(append(args, translated...), extra...)
	args = append(args, s.ID, prompt)
	cmd := exec.Command(bin(s.Bin, Codex), args...)
	place(cmd, codexDir(s.Dir, global, execTokens), c.Env)
	return cmd, nil
}

// flagsOnly refuses a prompt among a continue's extra arguments.
func flagsOnly(extra []string, opts options, program string) ([]string, error) {
	for _, t := range scan(extra, opts) {
		if t.positional() || t.name == "--" {
			return nil, fmt.Errorf("askuser resume: %q after -- is not a %s flag; the continue brings its own prompt (the question and the answer)", ask80(strings.Join(t.raw, " ")), program)
		}
	}
	return extra, nil
}

func (h codexHost) Outcome(s Session, env []string, r Result) Outcome {
	return peerOutcome(s, r)
}

// peerOutcome is a continue's outcome on a host without defer: its exit
// code says whether the prompt was taken.
func peerOutcome(s Session, r Result) Outcome {
	if r.ExitCode != 0 {
		return Outcome{State: Failed, Session: s, Err: fmt.Errorf("%s exited %d: %s", s.Host, r.ExitCode, tail(r.Stderr, r.Stdout))}
	}
	// The prompt gave the answer: the call waits no more (a question the
	// continue asked is the holder's to know).
	s.Pending = nil
	return Outcome{State: Done, Session: s}
}
