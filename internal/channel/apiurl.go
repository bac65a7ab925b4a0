package channel

import (
	"fmt"
	"net"
	"net/url"

	"github.com/askuser/askuser/ask"
)

// checkAPI checks an API base a person set (ASKUSER_<NAME>_API_URL): an
// http(s) URL with a host and no credentials in it. Every call to it
// carries a token (in a header, or in the path for Telegram), so plain
// http is taken only to this machine (a test's fake, a local proxy):
// anywhere else it would send the token in the clear. A URL is quoted
// with the channel's secrets taken out (a token pasted into it).
func checkAPI(env, raw string, secrets []string) error {
	shown := ask.Excerpt(Redact(raw, secrets...))
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") || u.User != nil {
		return fmt.Errorf("%s %s is not an http(s) URL like https://host/", env, shown)
	}
	if u.Scheme == "http" && !loopback(u.Hostname()) {
		return fmt.Errorf("%s %s is plain http to another machine, which would send the token in the clear: use https", env, shown)
	}
	return nil
}

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
