// The askuser binary runs on these systems; so do the helpers reused.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"encoding/json"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/channel/whatsapp/whatsappfake"
	"github.com/askuser/askuser/internal/store/pgtest"
)

// A typed WhatsApp reply answers only the question set it was meant for
// (issue 30's two cases, through real askuser processes): one written
// before an approval was sent, delivered after it, and one delivered
// again after serve restarted, allow nothing.

// approveOnWhatsApp starts askuser hook asking, through WhatsApp, to run
// command with Bash.
func (w *waRig) approveOnWhatsApp(t *testing.T, id, command string) *bgAskuser {
	t.Helper()
	ev, err := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_use_id": id,
		"tool_input": map[string]any{"command": command}})
	if err != nil {
		t.Fatal(err)
	}
	return startBackgroundStdin(t, w.env, strings.NewReader(string(ev)), "hook", "--frontend", "whatsapp")
}

// tapLabel taps the choice titled label on message m as alice.
func (w *waRig) tapLabel(t *testing.T, m whatsappfake.Sent, label string) {
	t.Helper()
	i := slices.IndexFunc(m.Choices(), func(c whatsappfake.Choice) bool { return c.Title == label })
	if i < 0 {
		t.Fatalf("no %q on:\n%s", label, whatsappfake.Render(m))
	}
	took(t)(w.fake.Tap(waAlice, m, i))
}

// Question A is sent and alice types "1" for it; approval B (rm -rf
// ~/project) is sent 2.5 s later, and only then does her reply arrive,
// signed and stamped before B existed. It allows nothing: two sets wait,
// so she is told which and how to answer one. Deny then denies B, and
// "3" quoting A answers A.
func TestWhatsAppReplyWrittenBeforeAnApproval(t *testing.T) {
	t.Parallel()
	w := newWARig(t)
	w.serve(t)
	a := startBackground(t, w.env, "ask", "--frontend", "whatsapp", "testdata/questions/database.json")
	qa := w.message(t, "asking A", waAsking("Database"))
	w.waitState(t, qa.ID)
	body, typed := w.fake.Written(waAlice, "1", "")
	time.Sleep(2500 * time.Millisecond)
	hook := w.approveOnWhatsApp(t, "toolu_b", "rm -rf ~/project")
	qb := w.message(t, "asking B", waAsking("Approve"))
	w.waitState(t, qb.ID)
	took(t)(w.fake.Deliver(body))
	told := w.message(t, "saying which questions wait", func(m whatsappfake.Sent) bool { return m.ReplyTo == typed })
	for _, want := range []string{"*Database*", "*Approve*", "reply to"} {
		if !strings.Contains(strings.ToLower(told.Text()), strings.ToLower(want)) {
			t.Errorf("the reply to the unquoted answer lacks %q:\n%s", want, told.Text())
		}
	}
	w.tapLabel(t, qb, "Deny")
	if d := hook.decision(t); d.HookSpecificOutput.Decision != "deny" {
		t.Fatalf("approval B: %+v; want deny (the reply written for A must not answer it)\n%s", d, w.fake.Transcript())
	}
	took(t)(w.fake.Type(waAlice, "3", qa.ID))
	if code := a.exit(t); code != 0 || !strings.Contains(a.stdout.String(), "Selected: SQLite") {
		t.Fatalf("question A: exit %d\n%s\n%s", code, a.stdout, a.stderr)
	}
}

// The genuinely signed delivery that answered question A is delivered
// again after serve stopped and started as usual, while approval B
// waits: it is taken no second time, and allows nothing.
func TestWhatsAppReplyDeliveredAgainAfterARestart(t *testing.T) {
	t.Parallel()
	w := newWARig(t)
	serve := w.serve(t)
	a := startBackground(t, w.env, "ask", "--frontend", "whatsapp", "testdata/questions/database.json")
	qa := w.message(t, "asking A", waAsking("Database"))
	w.waitState(t, qa.ID)
	body, _ := w.fake.Written(waAlice, "1", "")
	took(t)(w.fake.Deliver(body))
	if code := a.exit(t); code != 0 || !strings.Contains(a.stdout.String(), "Selected: PostgreSQL") {
		t.Fatalf("question A: exit %d\n%s\n%s", code, a.stdout, a.stderr)
	}
	if err := serve.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := serve.exit(t); code != 0 {
		t.Fatalf("serve: exit %d: %s", code, serve.stderr)
	}
	w.serve(t)
	hook := w.approveOnWhatsApp(t, "toolu_b", "rm -rf ~/project")
	qb := w.message(t, "asking B", waAsking("Approve"))
	w.waitState(t, qb.ID)
	took(t)(w.fake.Deliver(body))
	w.tapLabel(t, qb, "Deny")
	if d := hook.decision(t); d.HookSpecificOutput.Decision != "deny" {
		t.Fatalf("approval B: %+v; want deny (the redelivered answer to A must not answer it)\n%s", d, w.fake.Transcript())
	}
}

// On a team store, a delivery taken by one machine's serve is taken by
// no other: machine A's serve refuses "7" (no such option), stops, and
// machine B's serve, taking WhatsApp over at the same address, gets the
// same delivery again and says nothing; "8" is refused by B as usual.
func TestWhatsAppDeliveryTakenOnceAcrossMachines(t *testing.T) {
	t.Parallel()
	w := newWARig(t)
	ms, _ := newTeam(t, pgtest.DB(t), "machine-a", "machine-b")
	onA, onB := append(slices.Clone(w.env), ms[0].env...), append(slices.Clone(w.env), ms[1].env...)
	serveOn := func(env []string) *bgAskuser {
		p := startBackground(t, env, "serve", "--listen", w.listen)
		w.serves = append(w.serves, p)
		for deadline := time.Now().Add(waitLimit); !strings.Contains(p.stderr.String(), "serving chat channels: whatsapp"); time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("serve did not start serving WhatsApp: %s", p.stderr)
			}
		}
		return p
	}
	serveA := serveOn(onA)
	a := startBackground(t, onA, "ask", "--frontend", "whatsapp", "testdata/questions/database.json")
	m := w.message(t, "asking", waAsking("Database"))
	body, seven := w.fake.Written(waAlice, "7", m.ID)
	took(t)(w.fake.Deliver(body))
	w.message(t, "refusing 7 on A", waReplyTo(seven, `There is no option "7"`))
	if err := serveA.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	serveA.exit(t)
	serveOn(onB)
	took(t)(w.fake.Deliver(body))
	eight := took(t)(w.fake.Type(waAlice, "8", m.ID))
	w.message(t, "refusing 8 on B", waReplyTo(eight.ID, `There is no option "8"`))
	n := 0
	for _, x := range w.fake.Sent() {
		if x.ReplyTo == seven {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the delivery taken on A was answered %d times; want once:\n%s", n, w.fake.Transcript())
	}
	w.tapLabel(t, m, "SQLite")
	if code := a.exit(t); code != 0 || !strings.Contains(a.stdout.String(), "Selected: SQLite") {
		t.Fatalf("ask: exit %d\n%s\n%s", code, a.stdout, a.stderr)
	}
}
