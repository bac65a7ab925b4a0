package main

import (
	"strings"
	"testing"

	"github.com/askuser/askuser/internal/fakeprovider"
)

// askuser names itself and its version to a model provider: "askuser/"
// and the version it says it is, on the
// Anthropic API and on an OpenAI-compatible server alike.
func TestRunSendsItsVersionAsUserAgent(t *testing.T) {
	_, out, _ := runAskuser(t, nil, "", "--version")
	fields := strings.Fields(out)
	if len(fields) == 0 {
		t.Fatalf("askuser --version said %q", out)
	}
	want := "askuser/" + fields[len(fields)-1]
	for _, p := range []struct {
		name string
		srv  *fakeprovider.Server
		env  func(url string) []string
	}{
		{"anthropic", fakeprovider.NewAnthropic(fakeprovider.Turn{Text: "Done."}),
			func(url string) []string {
				return []string{"ANTHROPIC_BASE_URL=" + url, "ANTHROPIC_API_KEY=" + fakeKey}
			}},
		{"openai", fakeprovider.NewOpenAI(fakeprovider.Turn{Text: "Done."}),
			func(url string) []string { return []string{"OPENAI_BASE_URL=" + url, "OPENAI_API_KEY=" + fakeKey} }},
	} {
		t.Run(p.name, func(t *testing.T) {
			defer p.srv.Close()
			env := append([]string{"PATH=/usr/bin:/bin", "HOME=" + t.TempDir(), "ASKUSER_STATE_DIR=" + t.TempDir(), "NO_COLOR=1"}, p.env(p.srv.URL)...)
			code, stdout, stderr := runAskuser(t, env, "", "run", "-p", "--provider", p.name, "Say done")
			if code != 0 || !strings.Contains(stdout, "Done.") {
				t.Fatalf("exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
			}
			reqs := p.srv.Requests()
			if len(reqs) == 0 {
				t.Fatal("no request reached the provider")
			}
			if ua := reqs[0].Header.Get("User-Agent"); ua != want {
				t.Errorf("User-Agent %q, want %s (askuser and the version it says)", ua, want)
			}
		})
	}
}
