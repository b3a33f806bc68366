package resolver

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestLookupPageChainInBrowser follows a deactivated record's chain of
// successors in headless Chromium: the page shows the registrar and the
// chain, and its links lead to each successor's page, the last one
// active (issue 30.5).
func TestLookupPageChainInBrowser(t *testing.T) {
	bin := chromium(t)
	e := newRegistrarEnv(t, t.TempDir()+"/db", [3]string{"aba001", "nbn:cz:aba001-", "resolver"})
	tok := e.toks["aba001"]
	var urns []string
	for i := range 3 {
		urns = append(urns, e.mint("aba001", fmt.Sprintf(`{"urls":["https://kramerius.example/%d"],"metadata":{"title":"Edition %d"}}`, i, i+1)))
	}
	for i := 1; i >= 0; i-- {
		body := fmt.Sprintf(`{"reason":"superseded","successor":%q}`, urns[i+1])
		if r := e.do("DELETE", "/admin/records/"+urns[i], map[string]string{"Authorization": "Bearer " + tok, "Content-Type": "application/json"}, body); r.code != 204 {
			t.Fatalf("deactivate %s: %d %s", urns[i], r.code, r.body)
		}
	}

	ctx, problems, run, text := newBrowser(t, bin)
	run(chromedp.Navigate(e.url+"/?urn="+urns[0]), chromedp.WaitVisible(chromedp.ID("successors")))
	if reg := text("#registrar"); !strings.Contains(reg, "aba001") || !strings.Contains(reg, "urn:nbn:cz:aba001-") {
		t.Errorf("registrar %q", reg)
	}
	chain := text("#successors")
	if !strings.Contains(chain, urns[1]+" — deactivated") || !strings.Contains(chain, urns[2]+" — active") {
		t.Errorf("successors %q", chain)
	}
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(artifactDir(t), "resolver-lookup-successors.png")
	if err := os.WriteFile(path, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s (%d bytes)", path, len(shot))

	// Follow the chain: the middle link, then the active end.
	run(chromedp.Click(chromedp.CSS("#successors li.former a")), chromedp.WaitVisible(chromedp.ID("gone")))
	if h := text("#record h2"); h != "Edition 2" {
		t.Errorf("after the first link: heading %q", h)
	}
	run(chromedp.Click(chromedp.CSS("#successors li.active a")), chromedp.WaitVisible(chromedp.ID("locations")))
	href, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(href, "/?urn="+strings.ReplaceAll(urns[2], ":", "%3a")) && !strings.HasSuffix(href, "/?urn="+strings.ReplaceAll(urns[2], ":", "%3A")) {
		t.Errorf("address %q, want the lookup of %s", href, urns[2])
	}
	if h, l := text("#record h2"), text("#locations"); h != "Edition 3" || !strings.Contains(l, "https://kramerius.example/2") {
		t.Errorf("the active end: heading %q, locations %q", h, l)
	}
	if reg := text("#registrar"); !strings.Contains(reg, "aba001") {
		t.Errorf("the active end: registrar %q", reg)
	}
	for _, p := range problems() {
		t.Errorf("browser console: %s", p)
	}
}
