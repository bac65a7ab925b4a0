// Package inbox is askuser's web side. It holds two things served the same
// way: the question card of --frontend web (Broker, an ask.Frontend that
// shows every open question set as a card on a page and waits for a person
// to answer it there) and the inbox of askuser serve (Inbox, a page of every
// session in the state directory that waits on a question or an approval).
// An answer given in the inbox goes to the set's answer mailbox, as an
// answer given in a chat channel does: a run that waits on the set there
// (--frontend inbox) takes it, and otherwise askuser resume runs in the
// background and takes it, tried again (at most three times in all) when
// it ended without taking it (retry.go). The sets that askuser ask, mcp
// and hook ask through the inbox or a channel, which have no session, are
// listed too while their process waits, and answered on a page of their
// own the same way (asked.go). Pages are written by Go code (package
// inbox/page),
// with html/template's escaping but not its executor, whose calls of
// methods by name would cost every askuser process; with embedded CSS and
// JavaScript, and kept live by server-sent events.
//
// The card's server lives here rather than in package frontend: it is
// mostly HTTP, pages and security, which frontend (ask and wire only)
// should not carry, and the broker's state is exactly what the pages
// render. The frontend chooser (internal/chooser) wires a Broker in as
// the frontend named web.
//
// Invariants:
//   - Nobody without the token sees or answers anything. Every request
//     carries the random token: in the URL askuser printed, which the first
//     visit turns into an HttpOnly cookie, compared in constant time
//     (SameSite=Strict for the card; Lax for askuser serve's kept token,
//     whose pages are linked from chats and notifications without the
//     token). The cookie is never the token: it is derived from the token
//     and the port, and opens this server alone. A browser on this machine
//     keeps it under the server's own name, askuser-….localhost (home.go),
//     since browsers keep cookies apart by name, not by port. A loopback
//     server also answers only to a loopback Host (or a .localhost name),
//     so a DNS-rebound name cannot reach it.
//   - The token never leaves the machine in a link: links given to chat
//     platforms and notifications name a page, and a browser that never
//     opened the printed URL is told to open it once.
//   - A POST must also be same-origin (net/http's CrossOriginProtection:
//     Sec-Fetch-Site, else Origin against Host) and carry the page's own
//     form token, and its body is bounded (MaxBodyBytes).
//   - Model text is made safe to show (ask.Display, ask.DisplayBlock) and
//     then escaped as html/template escapes it for its place (package
//     inbox/page; a test holds the escapers to html/template's). No page has inline
//     script but the two of home.go, each allowed by its hash; the
//     Content-Security-Policy allows only the embedded files.
//   - Nothing is approved unseen: a set's detail (an approval's whole tool
//     input) is on its card, read for a person (ask.ReadJSON), up to
//     page.MaxDetailChars, and whole as plain text one link away.
//   - The inbox tells what askuser resume did in words (readableLog): no
//     JSON line reaches its page, nor the how-to-resume text meant for a
//     terminal (serve resumes with stream-json, which prints none). serve's
//     log on standard error names sessions and answers, never the token.
//   - A question set is answered once. A second answer gets "already
//     answered" (409), naming whose answer won and when when another
//     place (another serve on a team store, a chat channel) gave it, and
//     nothing changes. Closing a server answers every request already
//     made, those still in the listener's backlog too (drain.go), so an
//     answer racing the first never meets a reset.
//     In a race (--frontend web,survey) an answer given on the page is
//     claimed (ask.Claimer) before it is taken: one a hair after the
//     terminal's gets "already answered" too, and a card whose set another
//     frontend won shows that answer and where it was given ("Answered at
//     the terminal."), never the page's as accepted.
//   - A request's header is at most 16 KiB, as documented (net/http's
//     4 KiB of slop taken off MaxHeaderBytes).
//   - A session is resumed in the background only where it can run: on
//     the machine it ran on, in a directory that exists here, and never
//     while a process holds it (machines.go). A team store lists every
//     machine's sessions; one of another machine is answered here and
//     shown as "answered — resumes on <machine> in <directory>".
//   - The list pages: a page holds at most the page size of waiting
//     sessions, whatever the store holds, filtered by machine, directory
//     and age from the query string (filter.go), and says how many match.
//   - Answers are built by ask.Selection from the options the server holds,
//     never from labels the browser sent, and carry ask.SourcePerson: a
//     person chose them on the page.
package inbox
