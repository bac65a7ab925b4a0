package postgres

import (
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/session"
	"github.com/askuser/askuser/internal/store/pgtest"
)

// Every client of the database may LISTEN, and sees every notification:
// one listening with pgx, as any could, while a person's answer is posted
// through the session package's mailbox, sees the answered set's key and
// nothing else (not the answer, not who gave it). A second answer,
// refused, notifies nobody: the next notification is the next set's.
func TestNotificationCarriesOnlyTheKey(t *testing.T) {
	url := pgtest.DB(t)
	ctx := ctxT(t)
	mb := procsOf(t, url)().Mailbox()
	listener, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { listener.Close(ctx) })
	if _, err := listener.Exec(ctx, "LISTEN "+answerChannel); err != nil {
		t.Fatal(err)
	}

	alice := personal(t, "", "SQLite, the one on staging", channel.Who{Channel: "testchan", ID: "U-alice", Name: "@alice"})
	first := session.Box{Key: channel.Key("", "toolu_db")}
	if err := mb.Post(ctx, first, alice); err != nil {
		t.Fatal(err)
	}
	n, err := listener.WaitForNotification(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n.Channel != answerChannel || n.Payload != first.Key {
		t.Errorf("notification on %q: %q; want exactly the set's key %q on %q", n.Channel, n.Payload, first.Key, answerChannel)
	}

	bob := personal(t, "PostgreSQL", "", channel.Who{Channel: "testchan", ID: "U-bob", Name: "@bob"})
	var already *session.AnsweredError
	if err := mb.Post(ctx, first, bob); !errors.As(err, &already) {
		t.Fatalf("a second answer: %v; want it refused", err)
	}
	next := session.Box{Key: channel.Key("", "toolu_region")}
	if err := mb.Post(ctx, next, bob); err != nil {
		t.Fatal(err)
	}
	if n, err = listener.WaitForNotification(ctx); err != nil || n.Payload != next.Key {
		t.Errorf("after a refused answer and the next set's: notification %+v, %v; want exactly %q", n, err, next.Key)
	}
}

// personal is who's answer to the database question: label, or else the
// text typed for Other.
func personal(t *testing.T, label, custom string, who channel.Who) session.Delivery {
	t.Helper()
	q := ask.Question{Question: "Which database should we use?", Header: "Database",
		Options: []ask.Option{{Label: "PostgreSQL"}, {Label: "SQLite"}}}
	var labels []string
	if label != "" {
		labels = []string{label}
	}
	a, err := ask.Selection(q, labels, custom, ask.SourcePerson)
	if err != nil {
		t.Fatal(err)
	}
	a.Via = ask.ViaOn(who.Name, who.Channel)
	return session.Delivery{Answers: []ask.Answer{a}, By: a.Via, Who: &who, At: t0}
}
