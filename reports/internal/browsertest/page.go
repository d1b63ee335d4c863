package browsertest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// CanaryBinding is the name of a function every page gets: a script that
// calls it is recorded in [Record.Canary]. Hostile test text calls it, so
// any of that text that runs as script shows up.
const CanaryBinding = "toolcertCanary"

// violationBinding reports the page's Content-Security-Policy violations;
// violationScript, which the browser runs before any script of the page,
// calls it on each.
const (
	violationBinding = "toolcertViolation"
	violationScript  = `document.addEventListener("securitypolicyviolation", e => ` +
		violationBinding + `(e.violatedDirective + " " + e.blockedURI));`
)

// settle is how long Open waits after the load event for what a page does
// late: a meta refresh, a failed image's onerror.
const settle = 200 * time.Millisecond

// Option changes how [Browser.Open] loads a page.
type Option func(*openConfig)

type openConfig struct{ bypassCSP bool }

// WithoutCSP makes the browser ignore the page's Content-Security-Policy,
// so that a test sees what the page's markup alone lets through.
func WithoutCSP() Option { return func(c *openConfig) { c.bypassCSP = true } }

// Page is one tab of a [Browser] with a page loaded and what the page did
// recorded.
type Page struct {
	tb  testing.TB
	ctx context.Context
	rec *recorder
}

// Open opens a new tab, gives it the canary and the violation listener,
// loads url in it and waits for the load event and then [settle]. The tab
// closes when the test ends.
func (b *Browser) Open(url string, opts ...Option) (*Page, error) {
	var cfg openConfig
	for _, o := range opts {
		o(&cfg)
	}
	rec := &recorder{}
	ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithListener(rec.listen))
	b.tb.Cleanup(cancel)
	if err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		return prepare(ctx, t, cfg)
	})); err != nil {
		return nil, fmt.Errorf("prepare tab: %w", err)
	}
	go dismissDialogs(ctx)
	if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.Sleep(settle)); err != nil {
		return nil, fmt.Errorf("load %s: %w", url, err)
	}
	return &Page{tb: b.tb, ctx: ctx, rec: rec}, nil
}

// prepare installs the bindings and the violation listener in a new tab.
func prepare(ctx context.Context, t *chromedp.Target, cfg openConfig) error {
	for _, name := range []string{CanaryBinding, violationBinding} {
		if _, err := cdp.Call(ctx, t, runtime.AddBinding, runtime.AddBindingParams{Name: name}); err != nil {
			return fmt.Errorf("add binding %s: %w", name, err)
		}
	}
	if _, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument,
		page.AddScriptToEvaluateOnNewDocumentParams{Source: violationScript}); err != nil {
		return fmt.Errorf("add violation listener: %w", err)
	}
	if _, err := chromedp.EmulateViewport(ViewportWidth, ViewportHeight)(ctx, t); err != nil {
		return fmt.Errorf("set viewport: %w", err)
	}
	if cfg.bypassCSP {
		if _, err := cdp.Call(ctx, t, page.SetBypassCSP, page.SetBypassCSPParams{Enabled: true}); err != nil {
			return fmt.Errorf("bypass csp: %w", err)
		}
	}
	return nil
}

// dismissDialogs dismisses every dialog the tab opens until the tab ends:
// an open alert blocks the page. The listener records them.
func dismissDialogs(ctx context.Context) {
	for _, err := range chromedp.Events(ctx, page.JavascriptDialogOpening) {
		if err != nil {
			return
		}
		_, _ = chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
	}
}

// Record returns what the page did so far.
func (p *Page) Record() Record { return p.rec.snapshot() }

// Evaluate runs expr in the page and decodes its value into a T. It runs
// as the DevTools console does, not as a script of the page: the page's
// Content-Security-Policy does not apply to it.
func Evaluate[T any](p *Page, expr string) (T, error) {
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		return v, fmt.Errorf("evaluate %.40q: %w", expr, err)
	}
	return v, nil
}

// maxShotHeight bounds a screenshot's height in CSS pixels: three
// windows, what a person reads before deciding. The browser refuses to
// capture a page much taller than 12,000 px, and a tall PNG takes seconds.
const maxShotHeight = 3 * ViewportHeight

// Screenshot takes a PNG of the page as a person scrolls it (the window's
// width, the page's height up to three windows) into the test's temporary
// folder as name, copies it into $TOOLCERT_SCREENSHOT_DIR when that is set,
// and returns the PNG.
func (p *Page) Screenshot(name string) ([]byte, error) {
	png, err := chromedp.Run(p.ctx, fullPage)
	if err != nil {
		return nil, fmt.Errorf("screenshot %s: %w", name, err)
	}
	if err := os.WriteFile(filepath.Join(p.tb.TempDir(), name), png, 0o644); err != nil {
		return nil, fmt.Errorf("screenshot %s: %w", name, err)
	}
	if dir := os.Getenv(ScreenshotDirEnv); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("screenshot %s: %w", name, err)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, png, 0o644); err != nil {
			return nil, fmt.Errorf("screenshot %s: %w", name, err)
		}
		p.tb.Logf("screenshot: %s", path)
	}
	return png, nil
}

// fullPage captures the page from its top, the window's width wide and as
// tall as its content, up to maxShotHeight.
func fullPage(ctx context.Context, t *chromedp.Target) ([]byte, error) {
	m, err := cdp.Call(ctx, t, page.GetLayoutMetrics, cdp.Empty{})
	if err != nil {
		return nil, fmt.Errorf("layout metrics: %w", err)
	}
	height := float64(ViewportHeight)
	if m.CSSContentSize != nil {
		height = min(max(height, m.CSSContentSize.Height), maxShotHeight)
	}
	beyond := true
	res, err := cdp.Call(ctx, t, page.CaptureScreenshot, page.CaptureScreenshotParams{
		Format:                page.CaptureScreenshotFormatPng,
		CaptureBeyondViewport: &beyond,
		Clip:                  &page.Viewport{Width: ViewportWidth, Height: height, Scale: 1},
	})
	if err != nil {
		return nil, err
	}
	return res.Data, nil
}
