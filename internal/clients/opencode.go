package clients

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// OpenCodeModel is the model OpenCodeCommand configures: the provider
// "fake" (OpenAI-compatible, pointed at the fake) and its one model.
const OpenCodeModel = "fake/fake-model"

// OpenCode returns the path of the pinned OpenCode, or skips (fails under
// CI=true) when it is not installed.
func OpenCode(tb testing.TB) string {
	tb.Helper()
	return need(tb, openCodeTool)
}

// OpenCodeCommand returns a command running the pinned OpenCode with args,
// its model calls going to the fake OpenAI Chat Completions API at baseURL
// (the root plus /v1, as fakeprovider.NewOpenAI gives it) and home as its
// HOME. It writes the user's config, home/.config/opencode/opencode.json
// (a config given in OPENCODE_CONFIG_CONTENT is merged over it, as a
// person's would be): a provider "fake" through the bundled
// @ai-sdk/openai-compatible, whose one model calls tools, as the default
// model; sharing and auto-update off. What keeps OpenCode 1.18.33 on
// loopback (strace saw no other connection in a whole run):
//   - OPENCODE_DISABLE_MODELS_FETCH=1: no download of the models list;
//   - OPENCODE_DISABLE_AUTOUPDATE=1, OPENCODE_DISABLE_LSP_DOWNLOAD=1;
//   - a node_modules folder and a package-lock.json naming
//     @opencode-ai/plugin in the config folder: otherwise OpenCode installs
//     that package there from registry.npmjs.org in the background at
//     every start (Npm.install skips a folder whose lock file already
//     lists every dependency).
//
// Stdin is /dev/null; the caller sets Dir and the outputs.
func OpenCodeCommand(ctx context.Context, tb testing.TB, home, baseURL string, args ...string) *exec.Cmd {
	tb.Helper()
	bin := OpenCode(tb)
	config := filepath.Join(home, ".config", "opencode")
	writeJSON(tb, filepath.Join(config, "opencode.json"), map[string]any{
		"$schema": "https://opencode.ai/config.json",
		"provider": map[string]any{"fake": map[string]any{
			"npm":     "@ai-sdk/openai-compatible",
			"options": map[string]any{"baseURL": baseURL, "apiKey": "sk-fake-clients"},
			"models":  map[string]any{"fake-model": map[string]any{"tool_call": true}},
		}},
		"model":      OpenCodeModel,
		"autoupdate": false,
		"share":      "disabled",
	})
	pluginDeps := map[string]any{"@opencode-ai/plugin": "*"}
	writeJSON(tb, filepath.Join(config, "package.json"), map[string]any{"dependencies": pluginDeps})
	writeJSON(tb, filepath.Join(config, "package-lock.json"), map[string]any{"packages": map[string]any{"": map[string]any{"dependencies": pluginDeps}}})
	if err := os.MkdirAll(filepath.Join(config, "node_modules"), 0o700); err != nil {
		tb.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(OpenCodeEnv(home),
		"OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_LSP_DOWNLOAD=1")
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// OpenCodeEnv is the environment OpenCodeCommand starts from: the current
// one less every variable that could point OpenCode elsewhere (its own, the
// XDG folders it keeps its config, data and sessions in, and the providers'
// keys it would pick up), with HOME set to home. PWD is left out too:
// OpenCode takes its folder from $PWD before its working directory, so the
// test's own PWD would put every session in the test's package folder; a
// caller that sets PWD must set it to Dir.
func OpenCodeEnv(home string) []string {
	return isolated(home, "OPENCODE_", "XDG_", "OPENAI_", "AZURE_", "GEMINI_", "GOOGLE_", "AWS_", "OPENROUTER_", "GROQ_", "MISTRAL_",
		"XAI_", "DEEPSEEK_", "PWD")
}
