package progress

import (
	"encoding/json"
	"io"
	"sync"
	"time"
)

// jsonLine is one event as --progress json prints it: the version of the
// event format and the time it was reported, then the event.
type jsonLine struct {
	Version   int    `json:"version"`
	Time      string `json:"time"`
	ElapsedMS *int64 `json:"elapsed_ms,omitempty"`
	Event
}

// JSON prints every event as one JSON object on its own line
// (schemas/progress_event_v1.schema.json), for agents driving nullius.
type JSON struct {
	mu  sync.Mutex
	w   io.Writer
	now func() time.Time
}

// NewJSON returns a JSON display writing to w, timestamps from now.
func NewJSON(w io.Writer, now func() time.Time) *JSON { return &JSON{w: w, now: now} }

// Report implements Reporter.
func (j *JSON) Report(e Event) {
	l := jsonLine{Version: 1, Time: j.now().UTC().Format("2006-01-02T15:04:05.000Z"), Event: e}
	if e.Elapsed > 0 {
		ms := e.Elapsed.Milliseconds()
		l.ElapsedMS = &ms
	}
	b, err := json.Marshal(l)
	if err != nil {
		return // an Event always marshals
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	_, _ = j.w.Write(append(b, '\n'))
}

// Writer implements Display: JSON lines never tear.
func (j *JSON) Writer(w io.Writer) io.Writer { return w }

// Close implements Display.
func (j *JSON) Close() {}
