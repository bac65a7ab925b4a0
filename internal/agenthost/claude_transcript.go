package agenthost

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf16"
)

// Where Claude Code keeps a session (seen on 2.1.197, 2.1.330, 2.1.332):
// <config>/projects/<cwd, every character but [a-zA-Z0-9] made "-">/<id>.jsonl,
// <config> being CLAUDE_CONFIG_DIR or ~/.claude. A name longer than 200
// characters is cut to 200 and followed by "-" and a hash of the whole
// path (the binary's own rule). A subagent's transcript is in
// <id>/subagents/agent-<agent id>.jsonl beside it.

// claudeConfigDir is Claude Code's folder for env.
func claudeConfigDir(env []string) (string, error) {
	if d := envValue(env, "CLAUDE_CONFIG_DIR"); d != "" {
		return d, nil
	}
	home := envValue(env, "HOME")
	if home == "" {
		var err error
		if home, err = os.UserHomeDir(); err != nil {
			return "", fmt.Errorf("find Claude Code's folder: %w", err)
		}
	}
	return filepath.Join(home, ".claude"), nil
}

// claudeProjectName is the folder name Claude Code gives a working
// directory.
func claudeProjectName(cwd string) string {
	var b strings.Builder
	for _, r := range cwd {
		if r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			b.WriteRune(r)
			continue
		}
		// JavaScript's replace works on UTF-16 code units: a character
		// outside the BMP becomes two dashes.
		b.WriteString(strings.Repeat("-", len(utf16.Encode([]rune{r}))))
	}
	name := b.String()
	if len(name) <= 200 {
		return name
	}
	return name[:200] + "-" + strconv.FormatInt(jsHashAbs(cwd), 36)
}

// jsHashAbs is Math.abs of Claude Code's 32-bit string hash
// (h = (h<<5) - h + code unit, kept to 32 bits).
func jsHashAbs(s string) int64 {
	var h int32
	for _, u := range utf16.Encode([]rune(s)) {
		h = (h << 5) - h + int32(u)
	}
	v := int64(h)
	if v < 0 {
		v = -v
	}
	return v
}

// claudeTranscript finds the transcript of session id run in dir: in the
// folder named after dir (its real path, then as given), else in any
// project folder (2.1.33x keeps a session in its first folder when resumed
// from another one).
func claudeTranscript(env []string, dir, id string) (string, error) {
	config, err := claudeConfigDir(env)
	if err != nil {
		return "", err
	}
	projects := filepath.Join(config, "projects")
	var dirs []string
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dirs = append(dirs, real)
	}
	for _, d := range append(dirs, dir) {
		p := filepath.Join(projects, claudeProjectName(d), id+".jsonl")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	matches, _ := filepath.Glob(filepath.Join(projects, "*", id+".jsonl"))
	if len(matches) > 0 {
		return matches[0], nil
	}
	return "", fmt.Errorf("%w: Claude Code has no transcript of session %s under %s", ErrNoSession, id, projects)
}

// claudeEntry is the part of a transcript line the host room reads.
type claudeEntry struct {
	Type    string `json:"type"`
	Version string `json:"version"`
	Message *struct {
		ID      string          `json:"id"`
		Content json.RawMessage `json:"content"`
	} `json:"message"`
	Attachment *struct {
		Type      string          `json:"type"`
		ToolUseID string          `json:"toolUseID"`
		ToolName  string          `json:"toolName"`
		ToolInput json.RawMessage `json:"toolInput"`
	} `json:"attachment"`
}

// claudeBlock is one content block of a message.
type claudeBlock struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	Text      string          `json:"text"`
}

// claudeMissingResult is the result Claude Code gives the model for a
// call whose result it lost (a prompt sent while the call waited).
const claudeMissingResult = "[Tool result missing due to internal error]"

// callState is where a deferred call stands in a transcript.
type callState int

const (
	// stateUnknown: no marker of the call was found.
	stateUnknown callState = iota
	// statePending: the call's last marker ends the conversation: a resume
	// without a prompt runs it.
	statePending
	// stateRan: the transcript holds the call's tool result.
	stateRan
	// stateLost: the conversation went on past the marker without the
	// call's result (a prompt was sent while it waited).
	stateLost
)

// claudeScan is what one pass over a transcript learned.
type claudeScan struct {
	version string
	// last is the last deferred call, and whether the conversation went on
	// after its marker.
	last      *Call
	lastMoved bool
	// results maps tool_use ids to their result text.
	results map[string]string
	// uses maps tool_use ids to the message id holding them, and
	// messages lists each message's tool_use ids in order.
	uses     map[string]string
	messages map[string][]string
}

// scanClaude reads a transcript. Lines it cannot read are skipped, as
// Claude Code skips them.
func scanClaude(path string) (*claudeScan, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read Claude Code's transcript: %w", err)
	}
	defer f.Close()
	s := &claudeScan{results: map[string]string{}, uses: map[string]string{}, messages: map[string][]string{}}
	r := bufio.NewReader(f)
	for {
		line, err := r.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			s.add(line)
		}
		if errors.Is(err, io.EOF) {
			return s, nil
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
	}
}

func (s *claudeScan) add(line []byte) {
	var e claudeEntry
	if json.Unmarshal(line, &e) != nil {
		return
	}
	if e.Version != "" {
		s.version = e.Version
	}
	if a := e.Attachment; e.Type == "attachment" && a != nil && a.Type == "hook_deferred_tool" {
		s.last = &Call{ID: a.ToolUseID, Name: a.ToolName, Input: a.ToolInput}
		s.lastMoved = false
		return
	}
	if (e.Type != "user" && e.Type != "assistant") || e.Message == nil {
		return
	}
	var blocks []claudeBlock
	if json.Unmarshal(e.Message.Content, &blocks) != nil {
		s.lastMoved = true // a prompt given as a string
		return
	}
	for _, b := range blocks {
		// The results of the other calls of the deferred call's message
		// (denied, or run at once) do not move the conversation on; a
		// prompt or the model's next message does.
		if e.Type == "assistant" || b.Type != "tool_result" {
			s.lastMoved = true
		}
		switch {
		case b.Type == "tool_result" && e.Type == "user":
			// Claude Code's stand-in for a result it lost is not a run.
			if text := blockText(b.Content); text != claudeMissingResult {
				s.results[b.ToolUseID] = text
			}
		case b.Type == "tool_use" && e.Type == "assistant":
			s.uses[b.ID] = e.Message.ID
			s.messages[e.Message.ID] = append(s.messages[e.Message.ID], b.ID)
		}
	}
}

// state returns where the call id stands.
func (s *claudeScan) state(id string) callState {
	if _, ok := s.results[id]; ok {
		return stateRan
	}
	if s.last == nil || s.last.ID != id {
		return stateUnknown
	}
	if s.lastMoved {
		return stateLost
	}
	return statePending
}

// pending returns the call waiting at the end of the transcript, or nil.
func (s *claudeScan) pending() *Call {
	if s.last == nil || s.state(s.last.ID) != statePending {
		return nil
	}
	return s.last
}

// blockText flattens a tool result's content (a string or text blocks).
func blockText(raw json.RawMessage) string {
	var str string
	if json.Unmarshal(raw, &str) == nil {
		return str
	}
	var blocks []claudeBlock
	if json.Unmarshal(raw, &blocks) != nil {
		return ""
	}
	var texts []string
	for _, b := range blocks {
		if b.Type == "text" {
			texts = append(texts, b.Text)
		}
	}
	return strings.Join(texts, "\n")
}
