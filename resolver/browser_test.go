package resolver

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// chromium returns the path of a Chromium (or Chrome) binary, or skips.
func chromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("URNRESOLVER_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no Chromium found: the browser test of the lookup page is skipped (apt-get install chromium; .ci/run installs it)")
	return ""
}

// artifactDir is where the test leaves its screenshot: $URIKIT_ARTIFACTS
// when it is set (CI keeps it), else the test's own temporary folder, so
// that runs on one machine never write the same file.
func artifactDir(t *testing.T) string {
	dir := os.Getenv("URIKIT_ARTIFACTS")
	if dir == "" {
		return t.TempDir()
	}
	dir = filepath.Join(dir, fmt.Sprintf("%s-%d-%d", t.Name(), os.Getpid(), time.Now().UnixNano()))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestLookupPageInBrowser drives the lookup page in headless Chromium:
// a lookup through the enhanced form (the script fetches the result and
// updates the address), an invalid URN with its offset marked, the page
// without script, and no script error or CSP violation on the way.
func TestLookupPageInBrowser(t *testing.T) {
	bin := chromium(t)
	e := newEnv(t, t.TempDir()+"/db", Config{})
	tok := e.token("nbn", "isbn")
	e.mustPut(tok, "urn:nbn:de:101:1-2010", Record{
		URLs:     []string{"https://d-nb.example/1-2012.pdf", "https://mirror.example/1-2012"},
		Metadata: []byte(`{"title":"Eine Dissertation","year":"2012"}`),
		Synonyms: []string{"urn:isbn:978-3-16-148410-0"},
	})

	ctx, problems, run, text := newBrowser(t, bin)

	run(chromedp.Navigate(e.url+"/"), chromedp.WaitVisible(chromedp.ID("urn")))
	enhanced, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.documentElement.classList.contains("enhanced")`))
	if err != nil || !enhanced {
		t.Errorf("the script did not run: %v", err)
	}
	// Lexically equivalent input: uppercase scheme and NID, uppercase
	// country code (RFC 8458).
	run(chromedp.SendKeys(chromedp.ID("urn"), "URN:NBN:DE:101:1-2010"),
		chromedp.Click(chromedp.CSS("#lookup button")),
		chromedp.WaitVisible(chromedp.ID("locations")))
	href, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(href, "/?urn=URN%3ANBN%3ADE%3A101%3A1-2010") {
		t.Errorf("address %q: the enhanced form should push the lookup into history", href)
	}
	if l := text("#locations"); !strings.Contains(l, "https://d-nb.example/1-2012.pdf") || !strings.Contains(l, "https://mirror.example/1-2012") {
		t.Errorf("locations %q", l)
	}
	if m := text("#metadata"); !strings.Contains(m, "Eine Dissertation") {
		t.Errorf("metadata %q", m)
	}
	if eq := text("#equivalent"); !strings.Contains(eq, "urn:nbn:de:101:1-2010") || !strings.Contains(eq, "urn:isbn:978-3-16-148410-0") {
		t.Errorf("equivalent forms %q", eq)
	}

	// An invalid URN: the reason, and the offending character marked.
	run(chromedp.Evaluate[chromedp.Void](`document.getElementById("urn").value = ""`),
		chromedp.SendKeys(chromedp.ID("urn"), "urn:nbn:/x"),
		chromedp.Click(chromedp.CSS("#lookup button")),
		chromedp.WaitVisible(chromedp.ID("error")))
	if reason, marked := text("#error .reason"), text("#error mark"); !strings.Contains(reason, "offset 8") || marked != "/" {
		t.Errorf("reason %q, marked %q", reason, marked)
	}

	// Back to the record (the script restores it from history), then the
	// screenshot.
	run(chromedp.NavigateBack(), chromedp.WaitVisible(chromedp.ID("locations")))
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(artifactDir(t), "resolver-lookup-page.png")
	if err := os.WriteFile(path, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s (%d bytes)", path, len(shot))

	// Without script, the page is rendered by the server alone.
	if _, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
		t.Fatal(err)
	}
	run(chromedp.Navigate(e.url+"/?urn=urn:isbn:978-3-16-148410-0"), chromedp.WaitVisible(chromedp.ID("record")))
	if title := text("#record h2"); title != "urn:isbn:978-3-16-148410-0" {
		t.Errorf("no-script title %q", title)
	}

	for _, p := range problems() {
		t.Errorf("browser console: %s", p)
	}
}

// newBrowser starts a headless Chromium for a test: its context, what
// its console reported as errors so far (a script error, or a CSP
// violation, which the browser logs as an error), and helpers that run
// actions and read an element's text, failing the test on error.
func newBrowser(t *testing.T, bin string) (ctx context.Context, problems func() []string,
	run func(...chromedp.Action[chromedp.Void]), text func(string) string) {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(bin), chromedp.NoSandbox, chromedp.Headless, chromedp.DisableGPU,
		chromedp.WindowSize(1000, 900), chromedp.Flag("no-first-run", true))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancel = chromedp.NewContext(actx)
	t.Cleanup(cancel)
	ctx, cancel = context.WithTimeout(ctx, 60*time.Second)
	t.Cleanup(cancel)

	// Collect what the page writes to the console: a script error or a
	// CSP violation (which the browser logs as an error) fails the test.
	var mu sync.Mutex
	var found []string
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			// Network entries are the 400 and 404 answers the page
			// shows on purpose; anything else is a fault.
			if (m.Type == chromedp.ConsoleError && m.Source != "network") || m.IsException() {
				mu.Lock()
				found = append(found, m.String())
				mu.Unlock()
			}
		}
	}()

	run = func(actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, actions...); err != nil {
			t.Fatal(err)
		}
	}
	text = func(sel string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
		if err != nil {
			t.Fatalf("text of %s: %v", sel, err)
		}
		return v
	}

	problems = func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), found...)
	}
	return ctx, problems, run, text
}
