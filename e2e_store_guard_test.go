// The askuser binary runs on these systems; so do the helpers reused.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/askuser/askuser/internal/store/pgtest"
)

// The inbox's guards hold over the team store (e2e_store_test.go has the
// rig; internal/inbox/guard_test.go tests each guard on its own): the
// database is shared, but who may answer stays local to each serve.

// Machine A's session waits in the team store, shown by serves on B and
// C. C refuses B's token; B refuses a post from another site, one without
// its form token, and a request under a foreign Host (a rebound DNS
// name), token or not. None of them answers: B's own form then does.
func TestTeamStoreInboxKeepsItsGuards(t *testing.T) {
	ms, script := newTeam(t, pgtest.DB(t), "machine-a", "machine-b", "machine-c")
	id := ms[0].suspend(t, script)
	b, c := ms[1], ms[2]
	printedB := startBackground(t, b.env, "serve").url(t)
	printedC := startBackground(t, c.env, "serve").url(t)
	ib := newTeamInbox(t, printedB)
	answer := ib.formAt(t, "s/"+id) // the visit sets B's cookie
	_, page := ib.get(t, "s/"+id)
	action, csrf := formAction.FindStringSubmatch(page)[1], formCSRF.FindStringSubmatch(page)[1]

	baseC, _, _ := strings.Cut(printedC, "?")
	_, tokenB, _ := strings.Cut(printedB, "?")
	if code := guardStatus(t, ib.c, "GET", baseC+"?"+tokenB, nil, nil); code != http.StatusForbidden {
		t.Errorf("C with B's token: status %d, want 403", code)
	}

	u, _ := url.Parse(ib.base)
	post := func(csrf string, header map[string]string) int {
		form := url.Values{"q0": {"1"}, "csrf": {csrf}}
		h := map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin", "X-Askuser-Fetch": "1"}
		for k, v := range header {
			h[k] = v
		}
		return guardStatus(t, ib.c, "POST", u.Scheme+"://"+u.Host+action, h, strings.NewReader(form.Encode()))
	}
	for name, code := range map[string]int{
		"cross-site":       post(csrf, map[string]string{"Sec-Fetch-Site": "cross-site"}),
		"foreign origin":   post(csrf, map[string]string{"Sec-Fetch-Site": "", "Origin": "http://attacker.example"}),
		"no form token":    post("", nil),
		"wrong form token": post(strings.Repeat("0", len(csrf)), nil),
		"foreign Host":     post(csrf, map[string]string{"Host": "attacker.example:80"}),
	} {
		if code != http.StatusForbidden {
			t.Errorf("a post to B, %s: status %d, want 403", name, code)
		}
	}
	if code := guardStatus(t, ib.c, "GET", ib.base+"?"+ib.token, map[string]string{"Host": "attacker.example:80"}, nil); code != http.StatusForbidden {
		t.Errorf("B under a foreign Host, with its token: status %d, want 403", code)
	}

	// Had a refused request answered the set, this would be 409.
	if code, body := answer(url.Values{"q0": {"1"}}); code != http.StatusOK {
		t.Errorf("B's own form, after the refused requests: status %d: %s", code, body)
	}
}

// guardStatus sends a request with c (its cookies) and returns the
// status; a header set to "" is removed, and Host sets the request's Host.
func guardStatus(t *testing.T, c *http.Client, method, target string, header map[string]string, body io.Reader) int {
	t.Helper()
	req, err := http.NewRequest(method, target, body)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		switch {
		case k == "Host":
			req.Host = v
		case v == "":
			req.Header.Del(k)
		default:
			req.Header.Set(k, v)
		}
	}
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, res.Body)
	return res.StatusCode
}
