package agenthost

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// geminiHost is Gemini CLI (0.61): no defer; askuser's MCP call ends with
// "no answer yet", and gemini -r ID -p PROMPT, run in the same folder,
// continues the session headless with the answer as a new user turn.
type geminiHost struct{}

var _ Host = geminiHost{}

func (geminiHost) Kind() Kind { return Gemini }

// geminiOptions are Gemini CLI 0.61's options (yargs: a string takes the
// next argument unless it looks like an option; an array takes every
// following one that does not).
var geminiOptions = func() options {
	o := options{}
	for _, n := range strings.Fields(`-m --model -p --prompt -i --prompt-interactive -w --worktree --approval-mode
		-r --resume --session-file --session-id --delete-session -o --output-format`) {
		o[n] = optional
	}
	for _, n := range strings.Fields(`--policy --admin-policy --allowed-mcp-server-names --allowed-tools -e
		--extensions --include-directories`) {
		o[n] = greedy
	}
	return o
}()

var geminiRefused = map[string]string{
	"-i":                   "it continues interactively; askuser runs gemini headless with -p",
	"--prompt-interactive": "it continues interactively; askuser runs gemini headless with -p",
	"--acp":                "an ACP server is driven by its client, not by askuser",
	"--experimental-acp":   "an ACP server is driven by its client, not by askuser",
	"-w":                   "the session would belong to a new worktree; run askuser in that worktree instead",
	"--worktree":           "the session would belong to a new worktree; run askuser in that worktree instead",
	"--list-sessions":      "it lists sessions and exits",
	"--delete-session":     "it deletes a session and exits",
}

func geminiCheck(tokens []token, what string) error {
	if err := refuse(tokens, geminiRefused, "gemini", what); err != nil {
		return err
	}
	if _, ok := find(tokens, "-p", "--prompt"); !ok {
		return fmt.Errorf("%s: askuser runs gemini headless: give the prompt with -p \"the task\"", what)
	}
	return nil
}

func (geminiHost) Check(args []string) error {
	return geminiCheck(scan(args, geminiOptions), "askuser run --agent gemini")
}

// Start runs gemini with --session-id chosen by askuser (unless the
// arguments resume or name a session) and askuser added as the MCP server
// "askuser" through a home overlay (geminiOverlay): Gemini CLI reads MCP
// servers from settings files only, and a system settings file is read only
// when root owns it and every folder above it.
func (h geminiHost) Start(run *Run, w Wiring) (*exec.Cmd, error) {
	if err := w.check(); err != nil {
		return nil, err
	}
	tokens := scan(run.Args, geminiOptions)
	if err := geminiCheck(tokens, "askuser run --agent gemini"); err != nil {
		return nil, err
	}
	run.SessionID = ""
	overlayName := ""
	if t, ok := find(tokens, "--session-id"); ok {
		run.SessionID = t.value()
	} else if t, ok := find(tokens, "-r", "--resume"); ok {
		if uuidRE().MatchString(t.value()) {
			run.SessionID = t.value()
		}
	} else if _, ok := find(tokens, "--session-file"); !ok {
		run.SessionID = newUUID()
		tokens = append(tokens, token{name: "--session-id", raw: []string{"--session-id", run.SessionID}})
	}
	if overlayName = run.SessionID; overlayName == "" {
		overlayName = newUUID()
	}
	env := envOr(run.Env)
	overlay, err := geminiOverlay(env, w, overlayName)
	if err != nil {
		return nil, err
	}
	run.Started = time.Now()
	cmd := exec.Command(bin(run.Bin, Gemini), flatten(tokens)...)
	place(cmd, run.Dir, withEnv(env, "GEMINI_CLI_HOME", overlay))
	return cmd, nil
}

// geminiHome is the folder holding the person's .gemini (GEMINI_CLI_HOME
// or HOME).
func geminiHome(env []string) (string, error) {
	if d := envValue(env, "GEMINI_CLI_HOME"); d != "" {
		return d, nil
	}
	if d := envValue(env, "HOME"); d != "" {
		return d, nil
	}
	return os.UserHomeDir()
}

// Stopped finds the session file (by the id askuser chose, else the newest
// of the folder since the start) and the last askuser call in it.
func (h geminiHost) Stopped(_ context.Context, run *Run, stdout []byte) (Session, error) {
	env := envOr(run.Env)
	s := Session{Host: Gemini, ID: run.SessionID, Dir: run.Dir, Bin: run.Bin, Args: run.Args}
	if s.ID == "" {
		var out struct {
			SessionID string `json:"session_id"`
		}
		if json.Unmarshal(stdout, &out) == nil {
			s.ID = out.SessionID
		}
	}
	paths, err := geminiSessionFiles(env, s.ID, run.Started)
	if err != nil {
		return s, err
	}
	for _, p := range paths {
		gs, err := readGeminiSession(p)
		if err != nil {
			return s, err
		}
		s.ID = gs.id
		if gs.last != nil {
			s.Pending = gs.last
		}
	}
	s.Transcript = paths[0]
	return s, nil
}

// geminiSessionFiles finds the files of session id (their names end in the
// id's first 8 characters and their first line names it), or with id ""
// of the newest session written since t, oldest name first. A session may
// have several: a resume in a later minute than the file's name appends to
// the session's file and also writes a stub named after the new minute
// holding only the session context (Gemini CLI 0.61); gemini reads, of the
// files of one id, the one updated last.
func geminiSessionFiles(env []string, id string, t time.Time) ([]string, error) {
	home, err := geminiHome(env)
	if err != nil {
		return nil, err
	}
	pattern := "session-*.jsonl"
	if len(id) >= 8 {
		pattern = "session-*-" + id[:8] + ".jsonl"
	}
	matches, _ := filepath.Glob(filepath.Join(home, ".gemini", "tmp", "*", "chats", pattern))
	sort.Slice(matches, func(i, j int) bool { return filepath.Base(matches[i]) > filepath.Base(matches[j]) })
	var found []string
	for _, m := range matches {
		info, err := os.Stat(m)
		if err != nil || (id == "" && info.ModTime().Before(t.Add(-time.Second))) {
			continue
		}
		gs, err := readGeminiSession(m)
		if err != nil || (id != "" && gs.id != id) || (len(found) > 0 && filepath.Dir(m) != filepath.Dir(found[0])) {
			continue
		}
		if id == "" {
			id = gs.id // the newest session: gather its other files
		}
		found = append(found, m)
	}
	if len(found) == 0 {
		return nil, fmt.Errorf("%w: Gemini CLI has no session file of %s under %s", ErrNoSession, orAny(id), filepath.Join(home, ".gemini", "tmp"))
	}
	sort.Strings(found)
	return found, nil
}

func orAny(id string) string {
	if id == "" {
		return "a session run since the start"
	}
	return "session " + id
}

// geminiSession is what the host room reads of a session file.
type geminiSession struct {
	id   string
	last *Call
}

func readGeminiSession(path string) (geminiSession, error) {
	f, err := os.Open(path)
	if err != nil {
		return geminiSession{}, fmt.Errorf("read Gemini CLI's session file: %w", err)
	}
	defer f.Close()
	var gs geminiSession
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var line struct {
			SessionID string `json:"sessionId"`
			Kind      string `json:"kind"`
			ToolCalls []struct {
				ID   string          `json:"id"`
				Name string          `json:"name"`
				Args json.RawMessage `json:"args"`
			} `json:"toolCalls"`
		}
		if json.Unmarshal(sc.Bytes(), &line) != nil {
			continue
		}
		if line.SessionID != "" && gs.id == "" {
			gs.id = line.SessionID
		}
		for _, tc := range line.ToolCalls {
			if tc.Name == "mcp_askuser_AskUserQuestion" {
				gs.last = &Call{ID: tc.ID, Name: tc.Name, Input: tc.Args}
			}
		}
	}
	if gs.id == "" {
		return gs, fmt.Errorf("%s names no session", path)
	}
	return gs, sc.Err()
}

// geminiResumeDropped are the options a continue leaves out: it resumes by
// id with its own prompt.
var geminiResumeDropped = []string{"-p", "--prompt", "-r", "--resume", "--session-id", "--session-file"}

// Continue runs gemini -r ID -p PROMPT in the session's folder (Gemini
// finds a session by its folder only), with askuser wired in again.
func (h geminiHost) Continue(_ context.Context, s Session, c Continuation, w Wiring) (*exec.Cmd, error) {
	if err := w.check(); err != nil {
		return nil, err
	}
	prompt, err := continuationPrompt(s, c)
	if err != nil {
		return nil, err
	}
	extra, err := flagsOnly(c.Extra, geminiOptions, "gemini")
	if err != nil {
		return nil, err
	}
	env := envOr(c.Env)
	overlay, err := geminiOverlay(env, w, s.ID)
	if err != nil {
		return nil, err
	}
	kept := drop(scan(s.Args, geminiOptions), true, geminiResumeDropped...)
	args := append(append(flatten(kept), extra...), "-r", s.ID, "-p", prompt)
	cmd := exec.Command(bin(s.Bin, Gemini), args...)
	place(cmd, s.Dir, withEnv(env, "GEMINI_CLI_HOME", overlay))
	return cmd, nil
}

func (h geminiHost) Outcome(s Session, env []string, r Result) Outcome {
	return peerOutcome(s, r)
}

// Export returns the session's files, named relative to their project
// folder (chats/session-….jsonl).
func (h geminiHost) Export(_ context.Context, s Session, env []string) (Transcript, error) {
	paths, err := geminiSessionFiles(envOr(env), s.ID, time.Time{})
	if err != nil {
		return Transcript{}, err
	}
	t := Transcript{Host: Gemini, ID: s.ID}
	for _, p := range paths {
		files, err := readTree(filepath.Dir(filepath.Dir(p)), filepath.Join("chats", filepath.Base(p)))
		if err != nil {
			return Transcript{}, err
		}
		t.Files = append(t.Files, files...)
	}
	return t, nil
}

// Import puts the session file in the project folder Gemini CLI gives the
// session's folder under env's HOME: the one projects.json or an ownership
// marker names, else a new one claimed with a marker, as Gemini does.
func (h geminiHost) Import(_ context.Context, s Session, t Transcript, env []string) error {
	if t.Host != Gemini || t.ID != s.ID {
		return fmt.Errorf("import: the transcript is %s session %s, not Gemini CLI session %s", t.Host, t.ID, s.ID)
	}
	home, err := geminiHome(envOr(env))
	if err != nil {
		return err
	}
	project, err := geminiProject(filepath.Join(home, ".gemini"), s.Dir)
	if err != nil {
		return err
	}
	return writeFiles(project, t.Files)
}
