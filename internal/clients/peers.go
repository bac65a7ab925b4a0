package clients

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The pinned versions of the other MCP hosts askuser is tested with.
// What they were seen to do headless is in CONTRACTS.md and
// CONTRACTS-RESUME.md. CodexVersion is the one a test runs when it names
// none; CodexLatest is the newest seen on npm.
const (
	CodexVersion    = "0.169.0"
	CodexLatest     = "0.171.0"
	GeminiVersion   = "0.61.0"
	OpenCodeVersion = "1.18.33"
)

// CodexVersions lists the pinned Codex CLI versions, oldest first, for
// tests that run on each.
var CodexVersions = []string{CodexVersion, CodexLatest}

var (
	geminiTool   = tool{"Gemini CLI " + GeminiVersion, "gemini-" + GeminiVersion, "@google/gemini-cli@" + GeminiVersion, "gemini"}
	openCodeTool = tool{"OpenCode " + OpenCodeVersion, "opencode-" + OpenCodeVersion, "opencode-ai@" + OpenCodeVersion, "opencode"}
)

func codexTool(version string) tool {
	return tool{"Codex CLI " + version, "codex-" + version, "@openai/codex@" + version, "codex"}
}

// Codex returns the path of the pinned Codex CLI (CodexVersion), or skips
// (fails under CI=true) when it is not installed.
func Codex(tb testing.TB) string {
	tb.Helper()
	return CodexAt(tb, CodexVersion)
}

// CodexAt returns the path of the pinned Codex CLI of version, or skips
// (fails under CI=true) when it is not installed.
func CodexAt(tb testing.TB, version string) string {
	tb.Helper()
	return need(tb, codexTool(version))
}

// Gemini returns the path of the pinned Gemini CLI, or skips (fails under
// CI=true) when it is not installed.
func Gemini(tb testing.TB) string {
	tb.Helper()
	return need(tb, geminiTool)
}

// CodexModel is the model name the fake is asked for; Codex warns that it
// has no metadata for it, and goes on.
const CodexModel = "gpt-fake"

// codexKeyVar holds the fake provider's key: the provider names it
// (env_key), so no OPENAI_API_KEY is needed or read.
const codexKeyVar = "FAKEPROVIDER_API_KEY"

// CodexCommand returns a command running the pinned Codex CLI with args,
// its model calls going to the fake Responses API at baseURL (the root
// plus /v1, as fakeprovider.NewResponses gives it) and home as its HOME,
// with CODEX_HOME at home/.codex (made here), where a test may write
// config.toml. The fake provider and what keeps Codex on loopback are
// given as -c flags before args, so config.toml holds only what the test
// puts there:
//   - a provider "fake" with wire_api "responses", no retries (a failed
//     call fails the test at once, not after five reconnects);
//   - features.plugins off: Codex 0.169 otherwise runs git ls-remote on
//     github.com/openai/plugins and looks up api.github.com and
//     chatgpt.com at start (seen with strace);
//   - analytics off.
//
// Stdin is /dev/null; the caller sets Dir and the outputs.
func CodexCommand(ctx context.Context, tb testing.TB, home, baseURL string, args ...string) *exec.Cmd {
	tb.Helper()
	return CodexCommandAt(ctx, tb, CodexVersion, home, baseURL, args...)
}

// CodexCommandAt is CodexCommand running the pinned Codex CLI of version.
func CodexCommandAt(ctx context.Context, tb testing.TB, version, home, baseURL string, args ...string) *exec.Cmd {
	tb.Helper()
	provider := `{name="fake", base_url="` + baseURL + `", env_key="` + codexKeyVar + `", wire_api="responses", ` +
		`request_max_retries=0, stream_max_retries=0}`
	flags := []string{
		"-c", `model_provider="fake"`,
		"-c", "model_providers.fake=" + provider,
		"-c", `model="` + CodexModel + `"`,
		"-c", "features.plugins=false",
		"-c", "analytics.enabled=false",
	}
	codexHome := filepath.Join(home, ".codex")
	if err := os.MkdirAll(codexHome, 0o700); err != nil { // Codex will not start without it
		tb.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, CodexAt(tb, version), append(flags, args...)...)
	cmd.Env = append(isolated(home, "OPENAI_", "CODEX_", "AZURE_OPENAI_"),
		"CODEX_HOME="+codexHome, codexKeyVar+"=sk-fake-clients")
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// GeminiCommand returns a command running the pinned Gemini CLI with
// args, its model calls going to the fake Gemini API at baseURL and home
// as its HOME. It writes home/.gemini/settings.json (user settings, which
// a project's .gemini/settings.json is merged over): an API key as the
// auth method, usage statistics and auto-update off, and one attempt per
// model call (a failed call fails the test at once; Gemini retries a 500
// for about two minutes). Trusting the folder is left to the caller, as
// README tells a person to do it.
func GeminiCommand(ctx context.Context, tb testing.TB, home, baseURL string, args ...string) *exec.Cmd {
	tb.Helper()
	settings := map[string]any{
		"security": map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}},
		"privacy":  map[string]any{"usageStatisticsEnabled": false},
		"general":  map[string]any{"enableAutoUpdate": false, "enableAutoUpdateNotification": false, "maxAttempts": 1},
	}
	writeJSON(tb, filepath.Join(home, ".gemini", "settings.json"), settings)
	// Gemini writes a report of a failed model call to the temporary
	// directory: keep it with the rest of the run.
	tmp := filepath.Join(home, "tmp")
	if err := os.MkdirAll(tmp, 0o700); err != nil {
		tb.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, Gemini(tb), args...)
	cmd.Env = append(isolated(home, "GEMINI_", "GOOGLE_", "CLOUDSDK_", "TMPDIR"),
		"GOOGLE_GEMINI_BASE_URL="+baseURL, "GEMINI_API_KEY=fake-clients", "TMPDIR="+tmp)
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// isolated is the current environment less every variable that could
// point a client elsewhere (dropped, and the prefixes given), with HOME
// set to home.
func isolated(home string, prefixes ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		upper := strings.ToUpper(name)
		drop := dropped(name)
		for _, p := range prefixes {
			drop = drop || strings.HasPrefix(upper, p)
		}
		if !drop {
			env = append(env, kv)
		}
	}
	return append(env, "HOME="+home)
}

func writeJSON(tb testing.TB, path string, v any) {
	tb.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err == nil {
		err = os.MkdirAll(filepath.Dir(path), 0o700)
	}
	if err == nil {
		err = os.WriteFile(path, b, 0o600)
	}
	if err != nil {
		tb.Fatal(err)
	}
}
