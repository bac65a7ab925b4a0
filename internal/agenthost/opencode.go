package agenthost

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// openCodeHost is OpenCode (1.18.33): no defer, MCP tools run without a
// permission prompt; askuser's call ends with "no answer yet", and
// opencode run -s ID --dir DIR continues the session headless with the
// answer as a new user message. Sessions live in a SQLite database;
// opencode export and import carry one to another machine.
type openCodeHost struct{}

var _ Host = openCodeHost{}

func (openCodeHost) Kind() Kind { return OpenCode }

// openCodeOptions are opencode's and opencode run's options (yargs).
var openCodeOptions = func() options {
	o := options{}
	for _, n := range strings.Fields(`--log-level --command -s --session -m --model --agent --format --title
		--attach -p --password -u --username --dir --port --variant`) {
		o[n] = optional
	}
	o["-f"], o["--file"] = greedy, greedy
	return o
}()

var openCodeRefused = map[string]string{
	"--attach":      "the session would live on that server, where askuser cannot continue it; run opencode here",
	"--fork":        "it continues into a copy of the session, and askuser must continue the session itself",
	"-i":            "it runs interactively; askuser runs opencode run headless",
	"--interactive": "it runs interactively; askuser runs opencode run headless",
}

// openCodeSplit splits the arguments at the run subcommand.
func openCodeSplit(args []string, what string) (global, runTokens []token, err error) {
	tokens := scan(args, openCodeOptions)
	for i, t := range tokens {
		if err := refuse([]token{t}, openCodeRefused, "opencode", what); err != nil {
			return nil, nil, err
		}
		if t.positional() && global == nil && runTokens == nil {
			if t.raw[0] != "run" {
				break
			}
			global, runTokens = tokens[:i:i], tokens[i+1:]
		}
	}
	if runTokens == nil && global == nil {
		return nil, nil, fmt.Errorf("%s: askuser runs opencode run headless: give run and its arguments (run \"the task\")", what)
	}
	return global, runTokens, nil
}

func (openCodeHost) Check(args []string) error {
	_, _, err := openCodeSplit(args, "askuser run --agent opencode")
	return err
}

// openCodeWire adds askuser as the local MCP server "askuser" to the
// config OpenCode reads from OPENCODE_CONFIG_CONTENT (merged over the
// person's own files, which are not touched), with the wiring's time
// limit (OpenCode's own is 60 s) and environment.
func openCodeWire(env []string, w Wiring) ([]string, error) {
	config := map[string]any{}
	if old := envValue(env, "OPENCODE_CONFIG_CONTENT"); old != "" {
		if err := json.Unmarshal([]byte(old), &config); err != nil {
			return nil, fmt.Errorf("OPENCODE_CONFIG_CONTENT is not a JSON object (%v); askuser adds its MCP server to it", err)
		}
	}
	mcp, _ := config["mcp"].(map[string]any)
	if mcp == nil {
		mcp = map[string]any{}
	}
	environment := map[string]string{}
	for _, kv := range w.Env {
		k, v, _ := strings.Cut(kv, "=")
		environment[k] = v
	}
	mcp["askuser"] = map[string]any{
		"type": "local", "command": append([]string{w.Askuser, "mcp"}, w.Args...), "environment": environment,
		"enabled": true, "timeout": w.timeout().Milliseconds(),
	}
	config["mcp"] = mcp
	b, err := json.Marshal(config)
	if err != nil {
		return nil, err
	}
	return withEnv(env, "OPENCODE_CONFIG_CONTENT", string(b)), nil
}

// openCodeDir is the session's folder: --dir, from dir.
func openCodeDir(dir string, runTokens []token) string {
	if t, ok := find(runTokens, "--dir"); ok && t.value() != "" {
		if filepath.IsAbs(t.value()) {
			return t.value()
		}
		return filepath.Join(dir, t.value())
	}
	return dir
}

func (h openCodeHost) Start(run *Run, w Wiring) (*exec.Cmd, error) {
	if err := w.check(); err != nil {
		return nil, err
	}
	_, runTokens, err := openCodeSplit(run.Args, "askuser run --agent opencode")
	if err != nil {
		return nil, err
	}
	run.SessionID = ""
	if t, ok := find(runTokens, "-s", "--session"); ok {
		run.SessionID = t.value()
	}
	env, err := openCodeWire(envOr(run.Env), w)
	if err != nil {
		return nil, err
	}
	run.Started = time.Now()
	cmd := exec.Command(bin(run.Bin, OpenCode), run.Args...)
	place(cmd, run.Dir, env)
	return cmd, nil
}

// Stopped finds the session: --session, the sessionID of --format json
// events, else the one session of the folder created since the start
// (opencode session list; when several, the one whose export holds an
// askuser call); and the last askuser call in its export.
func (h openCodeHost) Stopped(ctx context.Context, run *Run, stdout []byte) (Session, error) {
	env := envOr(run.Env)
	_, runTokens, _ := openCodeSplit(run.Args, "")
	dir := openCodeDir(run.Dir, runTokens)
	s := Session{Host: OpenCode, ID: run.SessionID, Dir: dir, Bin: run.Bin, Args: run.Args}
	if s.ID == "" {
		var ev struct {
			SessionID string `json:"sessionID"`
		}
		line, _, _ := bytes.Cut(stdout, []byte("\n"))
		if json.Unmarshal(line, &ev) == nil {
			s.ID = ev.SessionID
		}
	}
	candidates := []string{s.ID}
	if s.ID == "" {
		var err error
		if candidates, err = openCodeSessions(ctx, s.Bin, env, dir, run.Started); err != nil {
			return s, err
		}
	}
	for _, id := range candidates {
		export, err := openCodeExport(ctx, s.Bin, env, dir, id)
		if err != nil {
			return s, err
		}
		if last := openCodeLastCall(export); last != nil || len(candidates) == 1 {
			s.ID, s.Pending = id, last
			return s, nil
		}
	}
	return s, fmt.Errorf("%w: none of OpenCode's sessions %v holds an askuser call", ErrNoSession, candidates)
}

// openCodeSessions lists the sessions of dir created since t, newest first.
func openCodeSessions(ctx context.Context, binName string, env []string, dir string, t time.Time) ([]string, error) {
	cmd := exec.CommandContext(ctx, bin(binName, OpenCode), "session", "list", "--format", "json")
	place(cmd, dir, env)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("opencode session list: %v: %s", err, tail(stderr.Bytes()))
	}
	var list []struct {
		ID        string `json:"id"`
		Created   int64  `json:"created"`
		Directory string `json:"directory"`
	}
	if err := json.Unmarshal(out, &list); err != nil {
		return nil, fmt.Errorf("opencode session list printed no JSON list (%v): %s", err, tail(out, stderr.Bytes()))
	}
	var ids []string
	for _, s := range list {
		if sameDir(s.Directory, dir) && !time.UnixMilli(s.Created).Before(t.Add(-2*time.Second)) {
			ids = append(ids, s.ID)
		}
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("%w: OpenCode lists no session of %s created since %s", ErrNoSession, dir, t.Format(time.RFC3339))
	}
	return ids, nil
}

// openCodeExport runs opencode export ID.
func openCodeExport(ctx context.Context, binName string, env []string, dir, id string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, bin(binName, OpenCode), "export", id)
	place(cmd, dir, env)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%w: opencode export %s: %v: %s", ErrNoSession, id, err, tail(stderr.Bytes()))
	}
	return out, nil
}

// openCodeLastCall is the last askuser AskUserQuestion call of an export.
func openCodeLastCall(export []byte) *Call {
	var doc struct {
		Messages []struct {
			Parts []struct {
				Type   string `json:"type"`
				Tool   string `json:"tool"`
				CallID string `json:"callID"`
				State  struct {
					Input json.RawMessage `json:"input"`
				} `json:"state"`
			} `json:"parts"`
		} `json:"messages"`
	}
	if json.Unmarshal(export, &doc) != nil {
		return nil
	}
	var last *Call
	for _, m := range doc.Messages {
		for _, p := range m.Parts {
			if p.Type == "tool" && p.Tool == "askuser_AskUserQuestion" {
				last = &Call{ID: p.CallID, Name: p.Tool, Input: p.State.Input}
			}
		}
	}
	return last
}

// openCodeResumeDropped are the run options a continue leaves out: it
// names the session and folder itself, and the first prompt's files,
// command and title do not carry over.
var openCodeResumeDropped = []string{"-s", "--session", "-c", "--continue", "--title", "-f", "--file", "--command", "--dir"}

// Continue runs opencode run -s ID --dir DIR with the continuation prompt
// on standard input: given as an argument, a prompt holding spaces reaches
// the model wrapped in double quotes; from standard input, verbatim.
func (h openCodeHost) Continue(_ context.Context, s Session, c Continuation, w Wiring) (*exec.Cmd, error) {
	if err := w.check(); err != nil {
		return nil, err
	}
	prompt, err := continuationPrompt(s, c)
	if err != nil {
		return nil, err
	}
	global, runTokens, err := openCodeSplit(s.Args, "askuser resume")
	if err != nil {
		return nil, err
	}
	extra, err := flagsOnly(c.Extra, openCodeOptions, "opencode")
	if err != nil {
		return nil, err
	}
	env, err := openCodeWire(envOr(c.Env), w)
	if err != nil {
		return nil, err
	}
	kept := drop(runTokens, true, openCodeResumeDropped...)
	args := append(append(flatten(global), "run"), flatten(kept)...)
	args = append(append(args, extra...), "-s", s.ID, "--dir", s.Dir)
	cmd := exec.Command(bin(s.Bin, OpenCode), args...)
	place(cmd, s.Dir, env)
	cmd.Stdin = strings.NewReader(prompt)
	return cmd, nil
}

func (h openCodeHost) Outcome(s Session, env []string, r Result) Outcome {
	return peerOutcome(s, r)
}

// Export is opencode export ID.
func (h openCodeHost) Export(ctx context.Context, s Session, env []string) (Transcript, error) {
	out, err := openCodeExport(ctx, s.Bin, envOr(env), s.Dir, s.ID)
	if err != nil {
		return Transcript{}, err
	}
	return Transcript{Host: OpenCode, ID: s.ID, Files: []File{{Path: s.ID + ".json", Data: out}}}, nil
}

// Import is opencode import FILE, unless OpenCode already has the session.
func (h openCodeHost) Import(ctx context.Context, s Session, t Transcript, env []string) error {
	if t.Host != OpenCode || t.ID != s.ID || len(t.Files) != 1 {
		return fmt.Errorf("import: the transcript is not OpenCode session %s's export", s.ID)
	}
	env = envOr(env)
	if _, err := openCodeExport(ctx, s.Bin, env, s.Dir, s.ID); err == nil {
		return nil
	}
	f, err := os.CreateTemp("", "askuser-opencode-*.json")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(t.Files[0].Data); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, bin(s.Bin, OpenCode), "import", f.Name())
	place(cmd, s.Dir, env)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("opencode import: %v: %s", err, tail(out))
	}
	return nil
}
