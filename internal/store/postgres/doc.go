// Package postgres is askuser's team store: sessions, their journals, the
// answer mailbox, the registry of waiting sets and the locks, in one
// PostgreSQL database that the agents of many machines share, so that one
// person's answer reaches an agent wherever it waits.
//
// It is the only importer of pgx, and is reached only through the session
// package's store interface: the command line constructs it, nothing else
// names it. It never decodes what it stores: journal records, answers and
// registry entries are the session package's JSON, kept as text, so a
// session's records are the very lines the files store would write.
//
// Invariants:
//   - A journal record is one INSERT, in one statement with its session's
//     row: a dropped connection leaves both or neither (journal.go).
//   - The first answer to a set wins, by a conditional update from pending
//     to answered; a second is refused and told the first (mailbox.go).
//   - A waiting process holds no connection: the pool closes idle ones
//     (db.go), and what says it is alive is its row of holders, renewed,
//     not a connection kept open. What it holds (a session, a chat
//     channel, a set it waits on) are leases under that row, free once
//     its expiry passes, or at once when a process of its machine sees it
//     gone (lease.go, holder.go). An outage never expires a holder: every
//     holder is alive for a grace after the server starts.
//   - A waiter is woken by its watch, which looks for the answers of the
//     sets waited on in one query; the processes of one state directory
//     share one watch. A few watches keep a connection between looks;
//     past heldWatches, each connects for a look and closes at once, and
//     looks less often the more they are (watch.go, hub.go). A look reads
//     rows, not events: an answer given during an outage is found by the
//     next.
//   - No connection is not a failure: every operation waits out the
//     store out of reach (full, restarting, down) for as long as its
//     process's patience and its context allow, and a connection broken
//     by a restart is tried again at once (retry.go). Operations are
//     written so that a try repeated after its reply was lost is one
//     try.
//   - Nothing needs a session of its own on the server (no session-level
//     advisory lock, no LISTEN): the store works through a pooler in
//     transaction mode.
//   - The schema is migrated by Open, in versioned steps, one transaction
//     each; a database newer than the binary is refused (migrate.go).
//   - No error shows the URL's password: the URL is shown without it, and
//     a driver's message is scrubbed of it (db.go).
package postgres
