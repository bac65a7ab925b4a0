package agenthost

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/askuser/askuser/ask"
)

// An askuser session keeps the agent's arguments, to continue it later
// with the same ones, and a team store shares them with every machine of
// the team. So arguments that carry a secret inline (an MCP server's
// token in --mcp-config JSON, a header in a -c override) are refused
// before anything runs, naming where the secret is and how to give it
// instead; the environment is never kept.

// secretName matches a key that names a secret.
var secretName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(token|secret|passw(or)?d|api[_-]?key|apikey|authorization|bearer|credential|private[_-]?key|access[_-]?key|cookie)`)
})

// notSecretName matches a key whose value names where a secret is (a
// variable, a file), not the secret itself.
var notSecretName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(env|env[_-]?var|env[_-]?key|var|file|path|command|helper)$`)
})

// secretKey finds a key of a key/value pair in JSON ("key": "value"),
// TOML, shell and flag forms (key = "value", key=value, --key=value); its
// value is read from where it ends (secretValue).
var secretKey = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`["']?([A-Za-z0-9_.-]+)["']?\s*[:=]\s*`) })

// secretValue is a value at the start of a string: quoted, or bare.
var secretValue = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^("(?:[^"\\]|\\.)*"|'[^']*'|[^\s,;}\]]+)`) })

// bearerValue finds a bearer credential written out.
var bearerValue = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\bbearer\s+[A-Za-z0-9._~+/=-]{8,}`) })

// CheckSecrets refuses arguments that hold a secret inline; what names the
// command for the message.
func CheckSecrets(args []string, what string) error {
	for i, a := range args {
		if name, ok := secretIn(a); ok {
			where := fmt.Sprintf("argument %d", i+1)
			if i > 0 && looksLikeOption(args[i-1]) && !looksLikeOption(a) {
				where += ", the value of " + ask.Excerpt(args[i-1])
			}
			return fmt.Errorf("%s: the agent's %s holds what looks like a secret, under %s: askuser keeps the agent's "+
				"arguments with the session, to continue it later, and a team store shares them; give the secret in the "+
				"environment or in a file the argument names instead", what, where, ask.Excerpt(name))
		}
	}
	return nil
}

// secretIn reports whether arg holds a secret inline, and the key that
// names it.
func secretIn(arg string) (string, bool) {
	if m := bearerValue().FindString(arg); m != "" {
		return "Bearer …", true
	}
	for _, m := range secretKey().FindAllStringSubmatchIndex(arg, -1) {
		name := strings.TrimLeft(arg[m[2]:m[3]], "-")
		value := strings.Trim(secretValue().FindString(arg[m[1]:]), `"'`)
		if !secretName().MatchString(name) || notSecretName().MatchString(name) || reference(value) {
			continue
		}
		return name, true
	}
	return "", false
}

// reference reports whether a value points at a secret rather than
// holding one: empty, a variable ($X, ${X}, {env:X}) or a file ({file:…}).
func reference(v string) bool {
	v = strings.TrimSpace(v)
	return v == "" || strings.HasPrefix(v, "$") || strings.HasPrefix(v, "{env:") || strings.HasPrefix(v, "{file:") ||
		strings.HasPrefix(v, "env:") || v == "true" || v == "false" || v == "null" || v == "{" || v == "["
}
