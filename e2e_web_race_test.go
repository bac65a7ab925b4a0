// The askuser binary runs on these systems; so do the helpers reused.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"bufio"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// TestWebCardRacingAnswers: twenty people answer askuser ask --frontend
// web's card at once (their connections all open before any request is
// sent). The card takes one answer and askuser exits; every other answer
// gets 409 "already answered", none a reset connection.
func TestWebCardRacingAnswers(t *testing.T) {
	t.Parallel()
	const racers = 20
	p := startBackground(t, nil, "ask", "testdata/questions/auth.json", "--frontend", "web")
	c, base := inboxClient(t, p.url(t))
	action, csrf := openForm(t, c, base+"/") // the card shows once the set is asked
	u, _ := url.Parse(base)
	cookies := c.Jar.Cookies(u)
	form := url.Values{"csrf": {csrf}, "q0": {"1"}, "q1": {"0"}}.Encode()
	conns := make([]net.Conn, racers)
	for i := range conns {
		conn, err := net.Dial("tcp", u.Host)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		conns[i] = conn
	}
	statuses := make([]string, racers)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, conn := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest("POST", base+action, strings.NewReader(form))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set("Sec-Fetch-Site", "same-origin")
			req.Header.Set("X-Askuser-Fetch", "1")
			for _, ck := range cookies {
				req.AddCookie(ck)
			}
			<-start
			if err := req.Write(conn); err != nil {
				statuses[i] = "write: " + err.Error()
				return
			}
			res, err := http.ReadResponse(bufio.NewReader(conn), req)
			if err != nil {
				statuses[i] = "read: " + err.Error()
				return
			}
			res.Body.Close()
			statuses[i] = res.Status
		}()
	}
	close(start)
	wg.Wait()
	count := map[string]int{}
	for _, s := range statuses {
		count[s]++
	}
	if count["200 OK"] != 1 || count["409 Conflict"] != racers-1 {
		t.Errorf("the racing answers got %v; want one 200 OK and %d 409 Conflict", count, racers-1)
	}
	if code := p.exit(t); code != 0 || p.stdout.String() == "" {
		t.Errorf("askuser ask: exit %d, printed %q", code, p.stdout)
	}
}
