package session

// InUse reports whether a process holds session id now (it runs, or asks
// a question): List says so of every session, this of one, for a page
// that shows a single session (askuser serve).
func (st *Store) InUse(id string) bool {
	full, err := st.find(id)
	return err == nil && st.backend().InUse(full)
}
