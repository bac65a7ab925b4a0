package channel

import (
	"errors"
	"fmt"
	"strings"
)

// Sources are where a channel's settings are read from, first found wins:
// flags (never for a secret), the environment, the config file.
type Sources struct {
	// Flag returns the value of a flag by name ("" when not given).
	Flag func(name string) string
	// Env returns an environment variable ("" when unset).
	Env func(name string) string
	// File holds the config file's settings (ReadFile); FilePath names
	// it in messages.
	File     map[string]string
	FilePath string
}

// value finds s: its value and where it came from.
func (src Sources) value(s Setting, secret bool) (value, from string) {
	if !secret && src.Flag != nil {
		if v := strings.TrimSpace(src.Flag(s.Flag())); v != "" {
			return v, "--" + s.Flag()
		}
	}
	if src.Env != nil {
		if v := strings.TrimSpace(src.Env(s.Env)); v != "" {
			return v, s.Env
		}
	}
	if v := strings.TrimSpace(src.File[s.Env]); v != "" {
		return v, s.Env + " in " + src.FilePath
	}
	return "", ""
}

// Configured reports whether the channel's destination is set: askuser
// serve holds every channel that is.
func (s Spec) Configured(src Sources) bool {
	v, _ := src.value(s.Dest, false)
	return v != ""
}

// Config is a channel's configuration, read and checked.
type Config struct {
	Name string
	// Dest is where questions go.
	Dest string
	// Allow is who may answer.
	Allow AllowList
	// API is the API base.
	API     string
	secrets map[string]string
}

// Secret returns the secret read from env (one of the spec's Secrets).
func (c Config) Secret(env string) string { return c.secrets[env] }

// Secrets returns every secret's value, for Redact.
func (c Config) Secrets() []string {
	out := make([]string, 0, len(c.secrets))
	for _, v := range c.secrets {
		out = append(out, v)
	}
	return out
}

// Read reads and checks the channel's configuration from src. Every
// error names the variable to set, and never quotes a secret.
func (s Spec) Read(src Sources) (Config, error) {
	c := Config{Name: s.Name, secrets: map[string]string{}}
	var errs []error
	for _, sec := range s.Secrets {
		v, _ := src.value(sec, true)
		if v == "" {
			errs = append(errs, fmt.Errorf("%s is not set: put %s in the environment or in %s (mode 0600)", sec.Env, sec.Usage, src.fileName()))
			continue
		}
		c.secrets[sec.Env] = v
	}
	c.Dest, _ = src.value(s.Dest, false)
	if c.Dest == "" {
		errs = append(errs, fmt.Errorf("%s (or --%s) is not set: give %s", s.Dest.Env, s.Dest.Flag(), s.Dest.Usage))
	}
	users, from := src.value(s.Users, false)
	if users == "" && s.UsersDefaultToDest {
		users, from = c.Dest, s.Dest.Env
	}
	if from == "" {
		from = s.Users.Env + " (or --" + s.Users.Flag() + ")"
	}
	// An allow-list that defaults to a destination not set is not a
	// second problem: the destination's is said already.
	if users != "" || !s.UsersDefaultToDest {
		var err error
		if c.Allow, err = ParseAllowList(from, users, s.Normalise); err != nil {
			errs = append(errs, err)
		}
	}
	if c.API, _ = src.value(s.API, false); c.API == "" {
		c.API = s.DefaultAPI
	} else if err := checkAPI(s.API.Env, c.API, c.Secrets()); err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return Config{}, fmt.Errorf("%s: %w", s.Name, errors.Join(errs...))
	}
	return c, nil
}

func (src Sources) fileName() string {
	if src.FilePath == "" {
		return "the channels file"
	}
	return src.FilePath
}
