package browsertest

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
)

// Record is what a page did while a [Browser] watched it, each list in the
// order the browser told.
type Record struct {
	// Requests are the URLs of every request the tab sent: the page's own
	// navigation, its subresources, frames and later navigations.
	Requests []string
	// Dialogs are the alert, confirm, prompt and beforeunload dialogs the
	// page opened, as "type: message".
	Dialogs []string
	// Console are the page's console API calls, as "type: args".
	Console []string
	// Exceptions are the page's uncaught exceptions.
	Exceptions []string
	// Log are the browser's log entries for the page (a blocked load, a
	// refused frame), as "source level: text".
	Log []string
	// Violations are the page's Content-Security-Policy violations, as
	// "directive blocked-uri".
	Violations []string
	// Canary are the payloads of the page's calls of [CanaryBinding].
	Canary []string
}

// Quiet reports what the page did beyond loading url: every field of r but
// the one request for url, one line each; nothing for a page that ran no
// script, opened no dialog, fetched nothing, logged nothing and violated
// no policy.
func (r Record) Quiet(url string) []string {
	var out []string
	add := func(what string, items []string) {
		for _, it := range items {
			out = append(out, what+": "+it)
		}
	}
	add("request", slices.DeleteFunc(slices.Clone(r.Requests), func(u string) bool { return u == url }))
	if !slices.Contains(r.Requests, url) {
		out = append(out, "no request for the page itself: the recorder saw nothing")
	}
	add("dialog", r.Dialogs)
	add("console", r.Console)
	add("exception", r.Exceptions)
	add("log", r.Log)
	add("csp violation", r.Violations)
	add("canary", r.Canary)
	return out
}

// recorder collects a tab's events into a Record. Its listen runs in the
// tab's event loop, so it only appends.
type recorder struct {
	mu  sync.Mutex
	rec Record
}

// listen records one event of the tab.
func (r *recorder) listen(ev any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		r.rec.Requests = append(r.rec.Requests, ev.Request.URL)
	case *page.EventJavascriptDialogOpening:
		r.rec.Dialogs = append(r.rec.Dialogs, fmt.Sprintf("%s: %s", ev.Type, ev.Message))
	case *runtime.EventConsoleAPICalled:
		r.rec.Console = append(r.rec.Console, fmt.Sprintf("%s: %s", ev.Type, remoteValues(ev.Args)))
	case *runtime.EventExceptionThrown:
		r.rec.Exceptions = append(r.rec.Exceptions, exceptionText(ev.ExceptionDetails))
	case *log.EventEntryAdded:
		r.rec.Log = append(r.rec.Log, fmt.Sprintf("%s %s: %s", ev.Entry.Source, ev.Entry.Level, ev.Entry.Text))
	case *runtime.EventBindingCalled:
		switch ev.Name {
		case CanaryBinding:
			r.rec.Canary = append(r.rec.Canary, ev.Payload)
		case violationBinding:
			r.rec.Violations = append(r.rec.Violations, ev.Payload)
		}
	}
}

// snapshot copies what was recorded so far.
func (r *recorder) snapshot() Record {
	r.mu.Lock()
	defer r.mu.Unlock()
	return Record{
		Requests:   slices.Clone(r.rec.Requests),
		Dialogs:    slices.Clone(r.rec.Dialogs),
		Console:    slices.Clone(r.rec.Console),
		Exceptions: slices.Clone(r.rec.Exceptions),
		Log:        slices.Clone(r.rec.Log),
		Violations: slices.Clone(r.rec.Violations),
		Canary:     slices.Clone(r.rec.Canary),
	}
}

// remoteValues writes console arguments as the console shows them, roughly.
func remoteValues(args []*runtime.RemoteObject) string {
	var parts []string
	for _, a := range args {
		switch {
		case a.Value != nil:
			parts = append(parts, string(a.Value))
		default:
			parts = append(parts, a.Description)
		}
	}
	return strings.Join(parts, " ")
}

// exceptionText is an exception's message, with its description when the
// browser gives one.
func exceptionText(d *runtime.ExceptionDetails) string {
	if d == nil {
		return "exception"
	}
	if d.Exception != nil && d.Exception.Description != "" {
		return d.Text + " " + d.Exception.Description
	}
	return d.Text
}
