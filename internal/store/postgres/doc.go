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
//   - Locks are session-level advisory locks on the process's own
//     connection, outside the pool, released by the server when the
//     process or that connection dies (lock.go).
//   - A waiter is woken by LISTEN/NOTIFY carrying only the set's key, on
//     that same connection, and reads again after every reconnect, since
//     notifications sent while a connection is down are lost (wake.go,
//     own.go). A process that holds its session and waits costs the
//     server two connections (its own, and an idle pooled one).
//   - The schema is migrated by Open, in versioned steps, one transaction
//     each; a database newer than the binary is refused (migrate.go).
//   - No error shows the URL's password: the URL is shown without it, and
//     a driver's message is scrubbed of it (db.go).
package postgres
