package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// What the waiters benchmark runs on: a database of an ordinary role,
// and a binary built from another revision.

// teamDB makes a new database owned by an ordinary role, team, as a
// team's is (a superuser would take the reserved connections), and
// returns its URL.
func (p *pgServer) teamDB() (string, error) {
	db, err := p.srv.CreateDB()
	if err != nil {
		return "", err
	}
	if _, err := p.srv.SQL(db, "DO $$BEGIN CREATE ROLE team LOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END$$; "+
		"ALTER DATABASE "+db+" OWNER TO team; ALTER SCHEMA public OWNER TO team"); err != nil {
		return "", err
	}
	return strings.Replace(p.srv.URL(db), "://askuser@", "://team@", 1), nil
}

func dbName(url string) string {
	_, rest, _ := strings.Cut(url, "@/")
	name, _, _ := strings.Cut(rest, "?")
	return name
}

// buildAt builds askuser as of git revision rev into dir, and returns
// the binary and the revision's short name.
func buildAt(rev, dir string) (bin, short string, err error) {
	out, err := exec.Command("git", "rev-parse", "--short", rev).Output()
	if err != nil {
		return "", "", fmt.Errorf("-baseline %s: %w", rev, err)
	}
	short = strings.TrimSpace(string(out))
	src := filepath.Join(dir, "src-"+short)
	if err := os.MkdirAll(src, 0o755); err != nil {
		return "", "", err
	}
	extract := exec.Command("sh", "-c", `git archive "$1" | tar -x -C "$2"`, "sh", rev, src)
	extract.Stderr = os.Stderr
	if err := extract.Run(); err != nil {
		return "", "", fmt.Errorf("-baseline %s: extract: %w", rev, err)
	}
	bin = filepath.Join(dir, "askuser-"+short)
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir, build.Env, build.Stderr = src, append(os.Environ(), "CGO_ENABLED=0"), os.Stderr
	if err := build.Run(); err != nil {
		return "", "", fmt.Errorf("-baseline %s: build: %w", rev, err)
	}
	return bin, short, nil
}
