package agenthost

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Where Codex keeps a thread: CODEX_HOME (or ~/.codex)/sessions/YYYY/MM/DD/
// rollout-<local time>-<thread id>.jsonl, its first line a session_meta
// naming the thread, the folder and the version. A copy keeps resuming
// anywhere under sessions/ as long as its name is kept.

// codexHome is Codex's folder for env.
func codexHome(env []string) (string, error) {
	if d := envValue(env, "CODEX_HOME"); d != "" {
		return d, nil
	}
	home := envValue(env, "HOME")
	if home == "" {
		var err error
		if home, err = os.UserHomeDir(); err != nil {
			return "", fmt.Errorf("find Codex's folder: %w", err)
		}
	}
	return filepath.Join(home, ".codex"), nil
}

// codexRollout finds the rollout of thread id, or (id "") the newest one
// of dir written since t.
func codexRollout(env []string, id, dir string, t time.Time) (string, error) {
	home, err := codexHome(env)
	if err != nil {
		return "", err
	}
	sessions := filepath.Join(home, "sessions")
	var found []string
	_ = filepath.WalkDir(sessions, func(p string, d os.DirEntry, err error) error {
		name := filepath.Base(p)
		if err != nil || d.IsDir() || !strings.HasPrefix(name, "rollout-") || !strings.HasSuffix(name, ".jsonl") {
			return nil
		}
		if id != "" && strings.HasSuffix(name, "-"+id+".jsonl") {
			found = append(found, p)
		}
		if info, err := d.Info(); id == "" && err == nil && !info.ModTime().Before(t.Add(-time.Second)) {
			if r, err := readRollout(p); err == nil && sameDir(r.cwd, dir) {
				found = append(found, p)
			}
		}
		return nil
	})
	if len(found) == 0 {
		what := "thread " + id
		if id == "" {
			what = "a thread run in " + dir + " since " + t.Format(time.RFC3339)
		}
		return "", fmt.Errorf("%w: Codex has no rollout of %s under %s", ErrNoSession, what, sessions)
	}
	sort.Slice(found, func(i, j int) bool { return filepath.Base(found[i]) > filepath.Base(found[j]) })
	return found[0], nil
}

func sameDir(a, b string) bool {
	if a == b {
		return true
	}
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	return err1 == nil && err2 == nil && ra == rb
}

// rollout is what the host room reads of a Codex rollout.
type rollout struct {
	id, cwd, version string
	last             *Call // the last askuser AskUserQuestion call
}

func readRollout(path string) (rollout, error) {
	f, err := os.Open(path)
	if err != nil {
		return rollout{}, fmt.Errorf("read Codex's rollout: %w", err)
	}
	defer f.Close()
	var r rollout
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var line struct {
			Type    string `json:"type"`
			Payload struct {
				ID         string `json:"id"`
				Cwd        string `json:"cwd"`
				CLIVersion string `json:"cli_version"`
				Type       string `json:"type"`
				Name       string `json:"name"`
				Namespace  string `json:"namespace"`
				CallID     string `json:"call_id"`
				Arguments  string `json:"arguments"`
			} `json:"payload"`
		}
		if json.Unmarshal(sc.Bytes(), &line) != nil {
			continue
		}
		p := line.Payload
		switch {
		case line.Type == "session_meta" && r.id == "":
			r.id, r.cwd, r.version = p.ID, p.Cwd, p.CLIVersion
		case line.Type == "response_item" && p.Type == "function_call" &&
			(p.Namespace == "mcp__askuser" && p.Name == "AskUserQuestion" || p.Name == "mcp__askuser__AskUserQuestion"):
			r.last = &Call{ID: p.CallID, Name: "mcp__askuser__AskUserQuestion", Input: json.RawMessage(p.Arguments)}
		}
	}
	return r, sc.Err()
}

// Export returns the rollout, named as Codex named it (a renamed copy
// does not resume).
func (h codexHost) Export(_ context.Context, s Session, env []string) (Transcript, error) {
	env = envOr(env)
	path, err := codexRollout(env, s.ID, s.Dir, time.Time{})
	if err != nil {
		return Transcript{}, err
	}
	home, _ := codexHome(env)
	root := filepath.Join(home, "sessions")
	rel, err := filepath.Rel(root, path)
	if err != nil {
		return Transcript{}, err
	}
	files, err := readTree(root, rel)
	return Transcript{Host: Codex, ID: s.ID, Files: files}, err
}

// Import puts the rollout under CODEX_HOME/sessions at the same relative
// path, file name kept.
func (h codexHost) Import(_ context.Context, s Session, t Transcript, env []string) error {
	if t.Host != Codex || t.ID != s.ID {
		return fmt.Errorf("import: the transcript is %s session %s, not Codex thread %s", t.Host, t.ID, s.ID)
	}
	home, err := codexHome(envOr(env))
	if err != nil {
		return err
	}
	return writeFiles(filepath.Join(home, "sessions"), t.Files)
}
