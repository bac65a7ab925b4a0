package channel

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/askuser/askuser/ask"
)

// maxFileBytes bounds the config file: a few tokens and ids.
const maxFileBytes = 64 << 10

// ReadFile reads a channels config file: KEY=value lines (an "export "
// before the key and quotes around the value are allowed), blank lines
// and # comments. It holds tokens, so it must be a regular file that only
// its owner can read or write (mode 0600): a wider one is refused, with
// the command that fixes it. A key that no channel reads is an error
// naming its line, so a typo does not go unnoticed. A file that does not
// exist is empty when optional. No error quotes a value.
func ReadFile(path string, optional bool) (map[string]string, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|openFlags, 0)
	if errors.Is(err, fs.ErrNotExist) && optional {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("channels file: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("channels file: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("channels file %s is not a regular file", path)
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return nil, fmt.Errorf("channels file %s can be read or written by others (mode %04o), and it holds tokens: run chmod 600 %s", path, perm, path)
	}
	if err := ownedByMe(fi); err != nil {
		return nil, fmt.Errorf("channels file %s: %w", path, err)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("channels file: %w", err)
	}
	if len(data) > maxFileBytes {
		return nil, fmt.Errorf("channels file %s is over %d KiB; it holds a few settings", path, maxFileBytes>>10)
	}
	return parseFile(path, data)
}

func parseFile(path string, data []byte) (map[string]string, error) {
	known := map[string]bool{}
	for _, s := range Specs() {
		for _, set := range s.Settings() {
			known[set.Env] = true
		}
	}
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		key, value, ok := strings.Cut(strings.TrimPrefix(line, "export "), "=")
		key = strings.TrimSpace(key)
		if !ok {
			return nil, fmt.Errorf("%s:%d: not KEY=value", path, n)
		}
		if !known[key] {
			return nil, fmt.Errorf("%s:%d: %s is not a channel setting (%s)", path, n, ask.Excerpt(Redact(key)), knownKeys())
		}
		value = strings.TrimSpace(value)
		if len(value) >= 2 && (value[0] == '"' || value[0] == '\'') && value[len(value)-1] == value[0] {
			value = value[1 : len(value)-1]
		}
		out[key] = value
	}
	return out, sc.Err()
}

func knownKeys() string {
	var names []string
	for _, s := range Specs() {
		names = append(names, s.Name+": "+strings.Join(envNames(s.Settings()), ", "))
	}
	return strings.Join(names, "; ")
}

func envNames(ss []Setting) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = s.Env
	}
	return out
}
