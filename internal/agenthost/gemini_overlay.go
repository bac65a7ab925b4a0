package agenthost

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// Gemini CLI 0.61 reads MCP servers only from settings files: the user's
// (~/.gemini/settings.json), the project's (.gemini/settings.json, read in
// a trusted folder only) and the system's (GEMINI_CLI_SYSTEM_SETTINGS_PATH,
// skipped unless root owns the file and every folder above it and none is
// writable by others: a file under /tmp or a user's home is refused with
// "Security Warning: Skipping system settings file"). To add askuser
// without editing either of the person's files, a run gets a home overlay:
// GEMINI_CLI_HOME points at Scratch/gemini/<session id>, whose .gemini
// holds the person's settings.json with the "askuser" server added and a
// link to every other entry of the person's ~/.gemini (credentials,
// tmp/ where sessions are saved, history/, projects.json…), so sessions
// land where a plain gemini finds them. What Gemini writes there by
// replacing a link (projects.json is saved by rename) or creates anew is
// moved back into the person's ~/.gemini before the next run of the
// overlay. Known differences from a plain run, with GEMINI_CLI_HOME set:
// the upward search for GEMINI.md files no longer stops at the home
// folder, and paths under the real home are not shortened to "~".

// geminiOverlay prepares the overlay named name and returns the folder to
// give as GEMINI_CLI_HOME.
func geminiOverlay(env []string, w Wiring, name string) (string, error) {
	if w.Scratch == "" {
		return "", errors.New("agenthost: Gemini CLI needs the wiring's Scratch folder for its home overlay")
	}
	home, err := geminiHome(env)
	if err != nil {
		return "", err
	}
	real := filepath.Join(home, ".gemini")
	root := filepath.Join(w.Scratch, "gemini", name)
	over := filepath.Join(root, ".gemini")
	for _, d := range []string{filepath.Join(real, "tmp"), filepath.Join(real, "history"), over} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return "", fmt.Errorf("prepare Gemini CLI's home overlay: %w", err)
		}
	}
	if err := geminiReconcileDir(over, real); err != nil {
		return "", err
	}
	settings, err := geminiSettings(filepath.Join(real, "settings.json"), w)
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(over, "settings.json"), settings, 0o600); err != nil {
		return "", err
	}
	entries, err := os.ReadDir(real)
	if err != nil {
		return "", err
	}
	for _, e := range entries {
		if e.Name() == "settings.json" {
			continue
		}
		if err := relink(filepath.Join(over, e.Name()), filepath.Join(real, e.Name())); err != nil {
			return "", err
		}
	}
	if _, err := os.Stat(filepath.Join(home, ".agents")); err == nil {
		if err := relink(filepath.Join(root, ".agents"), filepath.Join(home, ".agents")); err != nil {
			return "", err
		}
	}
	return root, nil
}

// relink makes link a symbolic link to target.
func relink(link, target string) error {
	if got, err := os.Readlink(link); err == nil && got == target {
		return nil
	}
	os.Remove(link)
	return os.Symlink(target, link)
}

// geminiReconcileDir moves into real what a run wrote into the overlay
// folder over: entries it created, and files it replaced a link with.
func geminiReconcileDir(over, real string) error {
	entries, err := os.ReadDir(over)
	if err != nil {
		return err
	}
	for _, e := range entries {
		name := e.Name()
		if name == "settings.json" || e.Type()&fs.ModeSymlink != 0 || strings.HasSuffix(name, ".lock") || strings.HasSuffix(name, ".tmp") {
			continue
		}
		src, dst := filepath.Join(over, name), filepath.Join(real, name)
		if _, err := os.Lstat(dst); err == nil && e.IsDir() {
			continue // both have it: leave the person's
		}
		if err := os.Rename(src, dst); err != nil {
			return fmt.Errorf("move Gemini CLI's %s back into %s: %w", name, real, err)
		}
	}
	return nil
}

// geminiSettings is the person's user settings with the MCP server
// "askuser" added: trusted (headless Gemini offers an untrusted server's
// tools to nobody), with the wiring's time limit and environment.
func geminiSettings(path string, w Wiring) ([]byte, error) {
	settings := map[string]any{}
	b, err := os.ReadFile(path)
	switch {
	case err == nil:
		if err := json.Unmarshal(stripJSONComments(b), &settings); err != nil {
			return nil, fmt.Errorf("read %s to add askuser to it (for this run only): %w", path, err)
		}
	case !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	servers, _ := settings["mcpServers"].(map[string]any)
	if servers == nil {
		servers = map[string]any{}
	}
	env := map[string]string{}
	for _, kv := range w.Env {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	servers["askuser"] = map[string]any{
		"command": w.Askuser, "args": append([]string{"mcp"}, w.Args...), "env": env,
		"timeout": w.timeout().Milliseconds(), "trust": true,
	}
	settings["mcpServers"] = servers
	return json.MarshalIndent(settings, "", "  ")
}

var jsonComment = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)("(?:[^"\\]|\\.)*")|//[^\n]*|/\*[\s\S]*?\*/`) })

// stripJSONComments removes // and /* */ comments outside strings, as
// Gemini CLI allows them in settings.json.
func stripJSONComments(b []byte) []byte {
	return jsonComment().ReplaceAllFunc(b, func(m []byte) []byte {
		if m[0] == '"' {
			return m
		}
		return nil
	})
}

// geminiProject returns the project folder (gemini/tmp/<slug>) Gemini CLI
// uses for cwd, claiming one with an ownership marker as Gemini does when
// it has none: projects.json's entry, else a folder whose .project_root
// names cwd, else the folder's slugged name (with -1, -2… when taken).
func geminiProject(gdir, cwd string) (string, error) {
	cwd = filepath.Clean(cwd)
	tmp := filepath.Join(gdir, "tmp")
	var registry struct {
		Projects map[string]string `json:"projects"`
	}
	if b, err := os.ReadFile(filepath.Join(gdir, "projects.json")); err == nil {
		_ = json.Unmarshal(b, &registry)
	}
	if slug := registry.Projects[cwd]; slug != "" && owner(tmp, slug) != "other" {
		return claim(tmp, slug, cwd)
	}
	if entries, err := os.ReadDir(tmp); err == nil {
		for _, e := range entries {
			if e.IsDir() && owner(tmp, e.Name()) == cwd {
				return filepath.Join(tmp, e.Name()), nil
			}
		}
	}
	taken := map[string]bool{}
	for _, s := range registry.Projects {
		taken[s] = true
	}
	base := slugify(filepath.Base(cwd))
	for i := 0; ; i++ {
		slug := base
		if i > 0 {
			slug = fmt.Sprintf("%s-%d", base, i)
		}
		if o := owner(tmp, slug); !taken[slug] && (o == "" || o == cwd) {
			return claim(tmp, slug, cwd)
		}
	}
}

// owner is the path a project folder's marker names, "" when it has none,
// "other" when it cannot be read.
func owner(tmp, slug string) string {
	b, err := os.ReadFile(filepath.Join(tmp, slug, ".project_root"))
	if errors.Is(err, fs.ErrNotExist) {
		return ""
	}
	if err != nil {
		return "other"
	}
	return strings.TrimSpace(string(b))
}

func claim(tmp, slug, cwd string) (string, error) {
	dir := filepath.Join(tmp, slug)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	marker := filepath.Join(dir, ".project_root")
	if _, err := os.Stat(marker); errors.Is(err, fs.ErrNotExist) {
		if err := os.WriteFile(marker, []byte(cwd), 0o600); err != nil {
			return "", err
		}
	}
	return dir, nil
}

var nonSlug = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^a-z0-9]+`) })

// slugify is Gemini CLI's: lower case, runs of anything else made one "-",
// no dash at either end, "project" when nothing is left.
func slugify(s string) string {
	s = strings.Trim(nonSlug().ReplaceAllString(strings.ToLower(s), "-"), "-")
	if s == "" {
		return "project"
	}
	return s
}

// Release removes what a run of s left in the wiring's Scratch once the
// askuser session no longer waits on it: Gemini CLI's home overlay, after
// moving back into the person's ~/.gemini what Gemini wrote there. The
// other hosts leave nothing.
func Release(s Session, scratch string, env []string) error {
	if s.Host != Gemini || s.ID == "" || scratch == "" {
		return nil
	}
	root := filepath.Join(scratch, "gemini", s.ID)
	if _, err := os.Stat(root); err != nil {
		return nil
	}
	home, err := geminiHome(envOr(env))
	if err != nil {
		return err
	}
	if err := geminiReconcileDir(filepath.Join(root, ".gemini"), filepath.Join(home, ".gemini")); err != nil {
		return err
	}
	return os.RemoveAll(root)
}
