package agenthost

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseKind(t *testing.T) {
	for _, k := range Kinds {
		if got, err := ParseKind(string(k)); err != nil || got != k {
			t.Errorf("%s: %v %v", k, got, err)
		}
		if h, err := For(k); err != nil || h.Kind() != k {
			t.Errorf("For(%s): %v", k, err)
		}
	}
	if _, err := ParseKind("crush"); err == nil || !strings.Contains(err.Error(), "claude, codex, gemini or opencode") {
		t.Errorf("crush: %v", err)
	}
}

// TestChecksNameTheFlagAndTheFix: what would break a continue is refused
// before anything runs, naming the flag.
func TestChecksNameTheFlagAndTheFix(t *testing.T) {
	for _, c := range []struct {
		host Host
		args []string
		want string
	}{
		{codexHost{}, []string{"exec", "--ephemeral", "task"}, "--ephemeral"},
		{codexHost{}, []string{"--oss", "exec", "task"}, "--oss"},
		{codexHost{}, []string{"review"}, "give exec"},
		{geminiHost{}, []string{"task"}, "-p"},
		{geminiHost{}, []string{"-i", "task"}, "-i"},
		{openCodeHost{}, []string{"run", "--attach", "http://x", "task"}, "--attach"},
		{openCodeHost{}, []string{"task"}, "give run"},
		{openCodeHost{}, []string{"run", "-s", "ses_1", "--fork", "task"}, "--fork"},
	} {
		err := c.host.Check(c.args)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %q: %v; want an error naming %s", c.host.Kind(), c.args, err, c.want)
		}
	}
	for _, c := range []struct {
		host Host
		args []string
	}{
		{codexHost{}, []string{"-c", "x=1", "exec", "--skip-git-repo-check", "-m", "gpt", "task"}},
		{codexHost{}, []string{"e", "task"}},
		{geminiHost{}, []string{"--skip-trust", "-p", "task"}},
		{openCodeHost{}, []string{"--print-logs", "run", "-m", "a/b", "task"}},
	} {
		if err := c.host.Check(c.args); err != nil {
			t.Errorf("%s %q: %v", c.host.Kind(), c.args, err)
		}
	}
}

// TestPeerContinueArgs: a continue keeps the first run's options, drops
// its prompt and session flags, adds its own, and refuses a prompt among
// the extra flags.
func TestPeerContinueArgs(t *testing.T) {
	w := Wiring{Askuser: "/bin/askuser", Args: []string{"--state-dir", "/s"}, Env: []string{"ASKUSER_X=1"}, Scratch: t.TempDir()}
	pending := &Call{ID: "c1", Name: "AskUserQuestion", Input: json.RawMessage(dbInput)}
	c := Continuation{Answers: personSQLite, Env: []string{"HOME=" + t.TempDir()}}
	in, err := questionsOf(pending)
	if err != nil {
		t.Fatal(err)
	}
	prompt := Prompt(in, personSQLite)
	for _, tc := range []struct {
		s    Session
		want []string
	}{
		{Session{Host: Codex, ID: "019", Dir: "/p", Args: []string{"-c", "model=\"x\"", "exec", "--skip-git-repo-check", "-s", "workspace-write", "-i", "a.png", "do it"}},
			[]string{"-c", "model=\"x\"", "exec", "resume", "--skip-git-repo-check", "-c", `sandbox_mode="workspace-write"`, "019", prompt}},
		{Session{Host: Gemini, ID: "g1", Dir: "/p", Args: []string{"--skip-trust", "-m", "gemini-x", "-p", "do it", "--session-id", "g1"}},
			[]string{"--skip-trust", "-m", "gemini-x", "-r", "g1", "-p", prompt}},
		{Session{Host: OpenCode, ID: "ses_1", Dir: "/p", Args: []string{"run", "--format", "json", "--title", "t", "do", "it"}},
			[]string{"run", "--format", "json", "-s", "ses_1", "--dir", "/p"}},
	} {
		tc.s.Pending = pending
		h, _ := For(tc.s.Host)
		cmd, err := h.Continue(context.Background(), tc.s, c, w)
		if err != nil {
			t.Fatalf("%s: %v", tc.s.Host, err)
		}
		got := cmd.Args[1:]
		if tc.s.Host == Codex {
			got = got[len(codexWire(w)):]
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s continue args:\n%q\nwant\n%q", tc.s.Host, got, tc.want)
		}
		if envValue(cmd.Env, "PWD") != "/p" || cmd.Dir != "/p" {
			t.Errorf("%s: dir %s, PWD %s", tc.s.Host, cmd.Dir, envValue(cmd.Env, "PWD"))
		}
		bad := c
		bad.Extra = []string{"and another prompt"}
		if _, err := h.Continue(context.Background(), tc.s, bad, w); err == nil || !strings.Contains(err.Error(), "brings its own prompt") {
			t.Errorf("%s: a prompt among the extra flags: %v", tc.s.Host, err)
		}
		noAnswers := c
		noAnswers.Answers = nil
		if _, err := h.Continue(context.Background(), tc.s, noAnswers, w); err == nil {
			t.Errorf("%s: a continue with no answers", tc.s.Host)
		}
	}
}

// TestWiringLeavesThePersonsConfig: each host's wiring adds the server
// "askuser" with the time limit and environment, next to what the person
// configured, and touches no file of theirs.
func TestWiringLeavesThePersonsConfig(t *testing.T) {
	w := Wiring{Askuser: "/opt/ask user/askuser", Args: []string{"--state-dir", "/s"}, Env: []string{"ASKUSER_STATE_DIR=/s"}, Timeout: 90 * time.Minute}
	flags := strings.Join(codexWire(w), " ")
	for _, want := range []string{`mcp_servers.askuser.command="/opt/ask user/askuser"`, `mcp_servers.askuser.args=["mcp","--state-dir","/s"]`,
		`default_tools_approval_mode="approve"`, "tool_timeout_sec=5400", `mcp_servers.askuser.env={"ASKUSER_STATE_DIR"="/s"}`} {
		if !strings.Contains(flags, want) {
			t.Errorf("codex flags lack %s: %s", want, flags)
		}
	}

	env, err := openCodeWire([]string{`OPENCODE_CONFIG_CONTENT={"model":"a/b","mcp":{"fs":{"type":"local","command":["fs"]}}}`}, w)
	if err != nil {
		t.Fatal(err)
	}
	var oc struct {
		Model string                    `json:"model"`
		MCP   map[string]map[string]any `json:"mcp"`
	}
	if err := json.Unmarshal([]byte(envValue(env, "OPENCODE_CONFIG_CONTENT")), &oc); err != nil || oc.Model != "a/b" || oc.MCP["fs"] == nil ||
		oc.MCP["askuser"]["timeout"] != float64(5400000) || !reflect.DeepEqual(oc.MCP["askuser"]["command"], []any{"/opt/ask user/askuser", "mcp", "--state-dir", "/s"}) {
		t.Errorf("OPENCODE_CONFIG_CONTENT: %s (%v)", envValue(env, "OPENCODE_CONFIG_CONTENT"), err)
	}

	home := t.TempDir()
	gdir := filepath.Join(home, ".gemini")
	own := "{\n  // the person's own\n  \"model\": {\"name\": \"gemini-x\"}, \"mcpServers\": {\"fs\": {\"command\": \"fs\"}},\n  \"note\": \"// not a comment\"\n}"
	for name, text := range map[string]string{"settings.json": own, "oauth_creds.json": "{}"} {
		if err := os.MkdirAll(gdir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(gdir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	w.Scratch = t.TempDir()
	root, err := geminiOverlay([]string{"HOME=" + home}, w, "sid")
	if err != nil {
		t.Fatal(err)
	}
	var gs struct {
		Note       string                    `json:"note"`
		MCPServers map[string]map[string]any `json:"mcpServers"`
	}
	b, _ := os.ReadFile(filepath.Join(root, ".gemini", "settings.json"))
	if err := json.Unmarshal(b, &gs); err != nil || gs.Note != "// not a comment" || gs.MCPServers["fs"] == nil ||
		gs.MCPServers["askuser"]["trust"] != true || gs.MCPServers["askuser"]["timeout"] != float64(5400000) {
		t.Errorf("overlay settings: %s (%v)", b, err)
	}
	if target, err := os.Readlink(filepath.Join(root, ".gemini", "oauth_creds.json")); err != nil || target != filepath.Join(gdir, "oauth_creds.json") {
		t.Errorf("the person's credentials are not linked: %q %v", target, err)
	}
	if b, _ := os.ReadFile(filepath.Join(gdir, "settings.json")); string(b) != own {
		t.Errorf("the person's settings changed: %s", b)
	}
	// What a run created in the overlay is moved into the person's folder
	// before the next run.
	if err := os.WriteFile(filepath.Join(root, ".gemini", "projects.json"), []byte(`{"projects":{}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := geminiOverlay([]string{"HOME=" + home}, w, "sid"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(gdir, "projects.json")); err != nil {
		t.Errorf("projects.json was not moved back: %v", err)
	}
}

// TestGeminiProjectFolder: the folder Gemini CLI would use for a working
// directory: its registry's, else a marker's, else a new slug that is free.
func TestGeminiProjectFolder(t *testing.T) {
	gdir := t.TempDir()
	other := filepath.Join(gdir, "tmp", "my-app")
	if err := os.MkdirAll(other, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, ".project_root"), []byte("/elsewhere/My App"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := geminiProject(gdir, "/work/My App")
	if err != nil || got != filepath.Join(gdir, "tmp", "my-app-1") {
		t.Fatalf("a taken slug: %s, %v", got, err)
	}
	if again, _ := geminiProject(gdir, "/work/My App/"); again != got {
		t.Errorf("the marker was not found again: %s", again)
	}
	if err := os.WriteFile(filepath.Join(gdir, "projects.json"), []byte(`{"projects":{"/srv/x":"custom"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, _ := geminiProject(gdir, "/srv/x"); got != filepath.Join(gdir, "tmp", "custom") {
		t.Errorf("the registry's slug: %s", got)
	}
	if slugify("..Ünïcode  Dir!") != "n-code-dir" || slugify("___") != "project" {
		t.Errorf("slugify: %q %q", slugify("..Ünïcode  Dir!"), slugify("___"))
	}
}

// TestWriteFilesStaysInside: an imported transcript cannot write outside
// the host's folder, and never replaces a longer copy already there.
func TestWriteFilesStaysInside(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{"../x.jsonl", "/etc/x", "a/../../x", ".."} {
		if err := writeFiles(root, []File{{Path: p, Data: []byte("x")}}); err == nil {
			t.Errorf("%q: written", p)
		}
	}
	if err := writeFiles(root, []File{{Path: "s/t.jsonl", Data: []byte("a\nb\n")}}); err != nil {
		t.Fatal(err)
	}
	_ = writeFiles(root, []File{{Path: "s/t.jsonl", Data: []byte("a\n")}})
	if b, _ := os.ReadFile(filepath.Join(root, "s", "t.jsonl")); string(b) != "a\nb\n" {
		t.Errorf("a longer copy was replaced: %q", b)
	}
	_ = writeFiles(root, []File{{Path: "s/t.jsonl", Data: []byte("a\nb\nc\n")}})
	if b, _ := os.ReadFile(filepath.Join(root, "s", "t.jsonl")); string(b) != "a\nb\nc\n" {
		t.Errorf("a copy the stored one extends was not brought up to date: %q", b)
	}
}

// TestGeminiSessionFiles: a resume in a later minute leaves the session
// in two files, the conversation and a stub (Gemini CLI 0.61); Stopped
// reads the conversation and Export carries both, so the copy resumes.
// Exporting the newest file alone made the continue on the other machine
// fail with "No previous sessions found for this project" whenever the
// first continue crossed a minute.
func TestGeminiSessionFiles(t *testing.T) {
	home := t.TempDir()
	chats := filepath.Join(home, ".gemini", "tmp", "proj", "chats")
	id := "b36cdc67-030b-4417-a59c-d34c10432032"
	meta := `{"sessionId":"` + id + `","projectHash":"f8","startTime":"2026-12-07T02:54:14.547Z","lastUpdated":"2026-12-07T02:54:14.547Z","kind":"main"}`
	files := map[string]string{
		"session-2026-12-07T02-54-b36cdc67.jsonl": meta + "\n" +
			`{"id":"m1","type":"user","content":[{"text":"pick a database"}]}` + "\n" +
			`{"id":"m2","type":"gemini","content":"","toolCalls":[{"id":"mcp_askuser_AskUserQuestion__c1","name":"mcp_askuser_AskUserQuestion","args":` + dbInput + `}]}` + "\n",
		"session-2026-12-07T02-55-b36cdc67.jsonl": strings.Replace(meta, "02:54:14.547Z", "02:55:05.158Z", 2) + "\n" +
			`{"$set":{"messages":[{"id":"c","type":"user","content":[{"text":"<session_context>"}]}]}}` + "\n",
		"session-2026-12-07T02-53-aaaaaaaa.jsonl": strings.Replace(meta, id, "aaaaaaaa-0000-4000-8000-000000000000", 1) + "\n",
	}
	if err := os.MkdirAll(chats, 0o700); err != nil {
		t.Fatal(err)
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(chats, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"HOME=" + home}
	s, err := geminiHost{}.Stopped(context.Background(), &Run{Kind: Gemini, Dir: "/p", SessionID: id, Env: env}, nil)
	if err != nil || s.Pending == nil || s.Pending.ID != "mcp_askuser_AskUserQuestion__c1" || filepath.Base(s.Transcript) != "session-2026-12-07T02-54-b36cdc67.jsonl" {
		t.Fatalf("Stopped: %+v, %v", s, err)
	}
	tr, err := geminiHost{}.Export(context.Background(), s, env)
	var names []string
	for _, f := range tr.Files {
		names = append(names, f.Path)
	}
	if want := []string{"chats/session-2026-12-07T02-54-b36cdc67.jsonl", "chats/session-2026-12-07T02-55-b36cdc67.jsonl"}; err != nil || !reflect.DeepEqual(names, want) {
		t.Errorf("export: %q, %v; want %q", names, err, want)
	}
}
