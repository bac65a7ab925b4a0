package channel

import (
	"strings"
	"testing"
)

// Every channel's API base is checked where it is read: a token never
// goes out over plain http to another machine, whichever channel.
func TestAPIBaseKeepsTokensOffPlainHTTP(t *testing.T) {
	set := map[string]map[string]string{
		"slack":    {"ASKUSER_SLACK_CHANNEL": "C1", "ASKUSER_SLACK_USERS": "U1", "SLACK_BOT_TOKEN": "xoxb-1", "SLACK_APP_TOKEN": "xapp-1"},
		"telegram": {"ASKUSER_TELEGRAM_CHAT": "-100", "ASKUSER_TELEGRAM_USERS": "11", "TELEGRAM_BOT_TOKEN": "123456:abc"},
		"whatsapp": {"ASKUSER_WHATSAPP_TO": "+16505551234", "WHATSAPP_TOKEN": "t", "WHATSAPP_PHONE_NUMBER_ID": "1",
			"WHATSAPP_APP_SECRET": "s", "WHATSAPP_VERIFY_TOKEN": "v"},
	}
	for name, env := range set {
		spec, _ := Lookup(name)
		for api, want := range map[string]string{
			"":                                   "",
			"https://proxy.example/api/":         "",
			"http://127.0.0.1:8080/api/":         "",
			"http://localhost:9/api/":            "",
			"http://[::1]:9/api/":                "",
			"http://proxy.example/api/":          "plain http to another machine",
			"http://10.0.0.5/api/":               "plain http to another machine",
			"https://me:pw@proxy.example/":       "is not an http(s) URL",
			"ftp://proxy.example/":               "is not an http(s) URL",
			"proxy.example":                      "is not an http(s) URL",
			"http://proxy.example/bot123456:abc": "plain http to another machine",
		} {
			e := map[string]string{spec.API.Env: api}
			for k, v := range env {
				e[k] = v
			}
			_, err := spec.Read(sources(nil, e, nil))
			for _, sec := range spec.Secrets {
				if v := env[sec.Env]; err != nil && len(v) >= 4 && strings.Contains(err.Error(), v) {
					t.Errorf("%s: the error quotes %s: %v", name, sec.Env, err)
				}
			}
			switch {
			case want == "" && err != nil && strings.Contains(err.Error(), spec.API.Env):
				t.Errorf("%s, %q: %v", name, api, err)
			case want != "" && (err == nil || !strings.Contains(err.Error(), spec.API.Env+` "`) || !strings.Contains(err.Error(), want)):
				t.Errorf("%s, %q: err = %v, want %q naming %s", name, api, err, want, spec.API.Env)
			}
		}
	}
}
