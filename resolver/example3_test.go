package resolver_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"

	"github.com/urikit/urikit/resolver"
)

// Harvest stores another resolver's records from its /oai: the first
// harvest takes every record, a deleted one as a deactivation; the next
// asks only for what changed since (here the records of the first
// harvest's last second come again, unchanged).
func ExampleHarvest() {
	dir, _ := os.MkdirTemp("", "resolver-example")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	src, _ := resolver.OpenStore(ctx, filepath.Join(dir, "source.db"))
	defer src.Close()
	resolver.Import(ctx, src, strings.NewReader("urn,url,title\nurn:nbn:no-1,https://nb.example/1,Bok\nurn:nbn:no-2,https://nb.example/2,Bok 2\n"),
		resolver.FormatCSV, resolver.ImportOptions{})
	srv, _ := resolver.New(resolver.Config{Store: src})
	scope, _ := resolver.ParseScope("nbn")
	tok, _, _ := src.CreateToken(ctx, []resolver.Scope{scope}, "", resolver.AuditEntry{})
	request(srv, "DELETE", "/admin/records/urn:nbn:no-2", tok, "")
	hs := httptest.NewServer(srv)
	defer hs.Close()

	mirror, _ := resolver.OpenStore(ctx, filepath.Join(dir, "mirror.db"))
	defer mirror.Close()
	r, err := resolver.Harvest(ctx, mirror, hs.URL+"/oai", resolver.HarvestOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.Records, "records:", r.Created, "created,", r.Deleted, "deleted")
	r, _ = resolver.Harvest(ctx, mirror, hs.URL+"/oai", resolver.HarvestOptions{})
	fmt.Println(r.Created+r.Updated+r.Deleted, "changed since")
	msrv, _ := resolver.New(resolver.Config{Store: mirror})
	fmt.Println(request(msrv, "GET", "/uri-res/N2L?urn:nbn:no-2", "", "").Code)
	// Output:
	// 2 records: 1 created, 1 deleted
	// 0 changed since
	// 410
}
