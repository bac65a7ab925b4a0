package session

// InUse reports whether a process holds session id now (it runs, or asks
// a question): List says so of every session, this of one, for a page
// that shows a single session (askuser serve). id is a whole id, never a
// prefix: anything else is not in use.
func (st *Store) InUse(id string) bool {
	parsed, err := ParseID(id)
	return err == nil && st.backend().InUse(parsed)
}
