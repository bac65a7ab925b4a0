package page

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"net/http"
	"path"
	"time"
)

//go:embed assets
var assetFS embed.FS

// assetTypes are the files a page loads, by extension; nothing else is
// served from the embedded tree.
var assetTypes = map[string]string{
	".css": "text/css; charset=utf-8",
	".js":  "text/javascript; charset=utf-8",
}

// ServeAsset serves an embedded file, revalidated by its hash so a new
// askuser never runs with an old script.
func ServeAsset(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	ctype, ok := assetTypes[path.Ext(name)]
	data, err := assetFS.ReadFile("assets/" + name)
	if !ok || err != nil {
		http.NotFound(w, r)
		return
	}
	sum := sha256.Sum256(data)
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("ETag", `"`+hex.EncodeToString(sum[:8])+`"`)
	http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(data))
}
