// Package relay is what askuser's chat channels share: the frontends that
// ask through the inbox and the channels, the one path every answer takes
// (the mailbox), and the relay, which holds a channel for a state
// directory and serves it.
//
// How an answer travels:
//   - A frontend named inbox or after a channel (Frontend) registers the
//     set in the registry, with the channels it wants ("inbox": every
//     channel askuser serve holds), and waits on the set's mailbox.
//   - Whichever process holds a channel (its lock in the state directory:
//     askuser serve, or else a live run asking through it) is the relay
//     for that channel: it sends every registered set that wants it,
//     retrying while the platform is down, and hands taps to its Host,
//     which checks who tapped, on which revision, and posts the answer to
//     the mailbox. The first answer wins; a second is told whose it was.
//   - Mailboxed wraps whatever asks for a session or a set that can be
//     answered from elsewhere: an answer already in the mailbox is taken
//     at once (askuser resume reads late answers so); an answer given
//     here (at the terminal, by the answers file's policy) is posted
//     before it is used, and if another came first, that one is used and
//     the person told. So a set is answered once, wherever the answers
//     come from.
//   - A tap on a set whose session no process holds is a late answer: the
//     relay in askuser serve resumes the session in the background, and
//     when it ends, posts what the agent did next beside the question.
//   - The relay learns what became of a set from the mailbox, the waiter's
//     lock and the session's journal, and shows it on the set's widget:
//     answered, and by whom, withdrawn, cancelled. Buttons of a set that
//     no longer waits do nothing.
//   - A send, an update or a reply the platform rate-limited is made again
//     when the platform said (channel.RetryLater), not before and not on
//     the relay's own later backoff; other failures back off.
//   - A send is noted in the registry before it is made and the note
//     cleared when it ends (send.go): a note left by a killed process has
//     the channel look for the message it may have posted (channel.Finder)
//     or the set sent again saying so (channel.Set.Resent), never silently
//     twice.
//
// Invariants:
//   - A set is named by Key: its session, its id and when it was first
//     asked, so a model that reuses an id never gets an earlier set's
//     answer. Outside a session an asking is named anew (Claim) when
//     another asks the same id now or an earlier asking was answered: two
//     askings of one id, at once or in turn, on one machine or several,
//     never share a mailbox.
//   - Nothing is recorded as an answer from a tap that is not on the
//     channel's allow-list, on an outdated revision, or on a set that no
//     longer waits; a redelivered tap gets the verdict the first got.
//   - A machine's answer is never passed off as a person's: taps are a
//     person's; what was posted from elsewhere keeps its own source.
//   - The stores are interfaces declared here (Mailbox, Registry,
//     Sessions); internal/session implements them in files.
package relay
