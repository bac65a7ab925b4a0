package approval

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// realBash runs command lines in real bash, each in a temporary folder
// of its own, with rm (and every other command the line names through
// PATH) replaced by a script that only writes down that it was called.
// Nothing outside the folder is touched: HOME is the folder, and rm
// never runs. runit, also there, runs the command its words name, as a
// runner askuser does not know would.
type realBash struct {
	t    *testing.T
	bash string
}

// needBash finds bash, or skips (fails under CI=true).
func needBash(t *testing.T) realBash {
	t.Helper()
	p, err := exec.LookPath("bash")
	if err != nil {
		msg := "bash is not installed: the rules are checked against what real bash runs"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return realBash{t: t, bash: p}
}

// runsRm reports whether bash, running line, calls rm.
func (b realBash) runsRm(line string) bool {
	b.t.Helper()
	dir := b.t.TempDir()
	bin := filepath.Join(dir, "bin")
	log := filepath.Join(dir, "rm.log")
	if err := os.Mkdir(bin, 0o755); err != nil {
		b.t.Fatal(err)
	}
	fake := "#!/bin/sh\necho \"rm $*\" >> " + quoted(log) + "\n"
	if err := os.WriteFile(filepath.Join(bin, "rm"), []byte(fake), 0o755); err != nil {
		b.t.Fatal(err)
	}
	// runit stands for a runner askuser does not know: it runs its words.
	if err := os.WriteFile(filepath.Join(bin, "runit"), []byte("#!/bin/sh\nexec \"$@\"\n"), 0o755); err != nil {
		b.t.Fatal(err)
	}
	// The bound only stops a line that would wait for ever; it is no result.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, b.bash, "-c", line)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + bin + ":/usr/local/bin:/usr/bin:/bin", "HOME=" + dir, "LC_ALL=C", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null"}
	out, _ := cmd.CombinedOutput()
	if ctx.Err() != nil {
		b.t.Fatalf("%q did not end: %.200s", line, out)
	}
	got, err := os.ReadFile(log)
	if err != nil && !os.IsNotExist(err) {
		b.t.Fatal(err)
	}
	return strings.Contains(string(got), "rm ")
}

// decisions are a line's decision under each way a deny rule for rm may
// stand alone between it and running: allow Bash beside it, the bypass
// mode, a grant for Bash for the session, and an ask rule in place of the
// deny rule.
func decisions(t *testing.T, line string) map[string]string {
	t.Helper()
	rm := mustRules(t, "Bash(rm:*)")
	grant := Grants{"Bash": {Allow: true, Scope: ScopeSession, By: ByPerson, Why: "the user"}}
	req := call("Bash", mustJSONString(t, map[string]string{"command": line}))
	out := map[string]string{}
	for mode, c := range map[string]struct {
		p Policy
		g Grants
	}{
		"allow Bash":        {Policy{Allow: mustRules(t, "Bash"), Deny: rm}, nil},
		"bypassPermissions": {Policy{Deny: rm, Mode: ModeBypass}, nil},
		"a grant":           {Policy{Deny: rm, Mode: ModeDefault}, grant},
		"an ask rule":       {Policy{Ask: rm, Mode: ModeBypass}, nil},
	} {
		d, ok := c.p.Decide(req, c.g)
		switch {
		case !ok:
			out[mode] = "asked"
		case d.Allow:
			out[mode] = "allowed"
		default:
			out[mode] = "denied"
		}
	}
	return out
}

// needs reports whether the programs a line runs are installed; a line
// whose program is missing is skipped, since it cannot run rm here.
func needs(t *testing.T, programs ...string) bool {
	t.Helper()
	for _, p := range programs {
		if _, err := exec.LookPath(p); err != nil {
			t.Logf("skipped: %s is not installed", p)
			return false
		}
	}
	return true
}
