// The askuser binary runs on these systems; so do the helpers reused.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestServePlantedJournals serves an inbox beside journals planted under
// fresh ids whose header holds a flag (an --mcp-config that runs a
// command) or a path as its id. Their pages and answers are refused (404):
// their id never reaches askuser resume's command line nor a path, so the
// command does not run, the victim session is not resumed with their answer,
// and no serve.log lands outside the state directory. The victim session,
// answered on its page, is resumed (its id after "--") and finishes.
func TestServePlantedJournals(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "ASKUSER_STATE_DIR=" + state, "NO_COLOR=1"}
	code, _, stderr := runAskuser(t, env, "", "run", "-p", "--on-unanswered", "suspend", "--script",
		filepath.Join(repoRoot(t), "testdata", "auth-demo.yaml"), "Add authentication")
	if code != 6 {
		t.Fatalf("the run should stop to wait (exit 6), got %d: %s", code, stderr)
	}
	victim := waitingIDs(t, env)[0]
	journal, err := os.ReadFile(filepath.Join(state, "sessions", victim+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	pwned := filepath.Join(dir, "pwned")
	planted := map[string]string{
		"2a000000-0000-4000-8000-000000000000": `--mcp-config={"mcpServers":{"x":{"command":"sh","args":["-c","touch ` + pwned + `"]}}}`,
		"2b000000-0000-4000-8000-000000000000": "../../x",
	}
	for name, inner := range planted {
		id, _ := json.Marshal(inner)
		data := bytes.Replace(journal, []byte(`"id":"`+victim+`"`), append([]byte(`"id":`), id...), 1)
		if err := os.WriteFile(filepath.Join(state, "sessions", name+".jsonl"), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}

	p := startBackground(t, env, "serve")
	c, base := inboxClient(t, p.url(t))
	action, csrf := openForm(t, c, base+"/s/"+victim)
	key := path.Base(action)
	form := url.Values{"csrf": {csrf}, "q0": {"1"}, "q1": {"0"}}
	for name := range planted {
		if _, status := inboxGet(t, c, base+"/s/"+name); status != http.StatusNotFound {
			t.Errorf("the page of planted %s: status %d, want 404", name, status)
		}
		if body, status := inboxPost(t, c, base+"/s/"+name+"/answer/"+key, form); status != http.StatusNotFound {
			t.Errorf("an answer to planted %s: status %d, want 404: %s", name, status, body)
		}
	}
	if body, status := inboxPost(t, c, base+action, form); status != http.StatusOK {
		t.Fatalf("the victim session's answer: status %d: %s", status, body)
	}
	// The resume that takes the answer may still hold the session when it
	// no longer lists as waiting: wait for it to finish.
	finished := func() (string, bool) {
		_, out, _ := runAskuser(t, env, "", "sessions", "--json")
		return out, strings.Contains(out, `"id":"`+victim+`","created"`) && strings.Contains(out, `"status":"finished"`)
	}
	for deadline := time.Now().Add(waitLimit); ; time.Sleep(50 * time.Millisecond) {
		out, ok := finished()
		if ok {
			break
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(state, "sessions", victim+".d", "serve.log"))
			t.Fatalf("the victim session did not finish after its answer:\n%s\nserve.log:\n%s", out, log)
		}
	}
	if _, err := os.Stat(pwned); err == nil {
		t.Error("the command in a planted journal's id ran")
	}
	if escaped, _ := filepath.Glob(filepath.Join(dir, "*.d")); len(escaped) > 0 {
		t.Errorf("serve wrote outside the state directory: %v", escaped)
	}
}

// waitingIDs lists the sessions waiting on a question, newest first.
func waitingIDs(t *testing.T, env []string) []string {
	t.Helper()
	_, out, _ := runAskuser(t, env, "", "sessions", "--json", "--waiting")
	var ids []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var s struct{ ID string }
		if json.Unmarshal([]byte(line), &s) == nil && s.ID != "" {
			ids = append(ids, s.ID)
		}
	}
	return ids
}

// inboxClient visits the printed URL, keeping the cookie, and returns the
// client and the inbox's base URL.
func inboxClient(t *testing.T, printed string) (*http.Client, string) {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: 10 * time.Second}
	if _, status := inboxGet(t, c, printed); status != http.StatusOK {
		t.Fatalf("first visit: status %d", status)
	}
	u, _ := url.Parse(printed)
	return c, u.Scheme + "://" + u.Host
}

// openForm waits (bounded) until the page at u shows a form, and returns
// its action and its form token.
func openForm(t *testing.T, c *http.Client, u string) (action, csrf string) {
	t.Helper()
	for deadline := time.Now().Add(waitLimit); ; time.Sleep(20 * time.Millisecond) {
		page, _ := inboxGet(t, c, u)
		a := regexp.MustCompile(`action="([^"]+)"`).FindStringSubmatch(page)
		k := regexp.MustCompile(`name="csrf" value="([0-9a-f]+)"`).FindStringSubmatch(page)
		if a != nil && k != nil {
			return a[1], k[1]
		}
		if time.Now().After(deadline) {
			t.Fatalf("no form on %s:\n%s", u, page)
		}
	}
}

func inboxGet(t *testing.T, c *http.Client, u string) (string, int) {
	t.Helper()
	res, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return string(b), res.StatusCode
}

// inboxPost sends a form as the page's script does.
func inboxPost(t *testing.T, c *http.Client, u string, form url.Values) (string, int) {
	t.Helper()
	req, _ := http.NewRequest("POST", u, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	req.Header.Set("X-Askuser-Fetch", "1")
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return string(b), res.StatusCode
}
