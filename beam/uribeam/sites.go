package uribeam

import (
	"strings"
	"unicode/utf8"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/urikit/urikit/surt"
	"github.com/urikit/urikit/uri"
)

func init() {
	register.Function1x2(siteOne)
	register.Function1x2(siteICANNOne)
}

// siteOf returns the site of a host as the normal form of a URI writes
// it (percent-encoded, IP literals in brackets): its registrable domain
// (the public suffix and one more label, surt.Site) under the whole
// Public Suffix List, or its ICANN section alone; a host without one
// (an IP address, "localhost", a public suffix itself) is its own
// site, as the HTML Standard's "obtain a site" makes it. A host written
// with percent-encoded UTF-8 (RFC 3986 section 3.2.2) is looked up
// decoded, and its site written percent-encoded again.
func siteOf(host string, icann bool) string {
	name := host
	if strings.Contains(host, "%") {
		d, err := uri.Unescape(host)
		if err != nil || !utf8.ValidString(d) {
			return host
		}
		name = d
	}
	lookup := surt.Site
	if icann {
		lookup = surt.SiteICANN
	}
	s, ok := lookup(name)
	if !ok {
		return host
	}
	if name != host {
		return uri.Escape(s, uri.HostSet)
	}
	return s
}

func siteOne(host string) (string, int64)      { return siteOf(host, false), 1 }
func siteICANNOne(host string) (string, int64) { return siteOf(host, true), 1 }

// Sites counts the sites of the hosts of the valid lines, as Hosts
// counts their hosts: a PCollection of KV<string, int64>, SITE and
// COUNT. The site of a host is its registrable domain under the whole
// Public Suffix List (browsers' sites, Common Crawl's "registered
// domain"), or under its ICANN section alone when icann is set
// ("a.b.github.io" is "b.github.io", or "github.io"); a host without
// one (an IP address, a public suffix) is its own site. The dead
// letters are those of Hosts.
func Sites(s beam.Scope, lines beam.PCollection, icann bool) (counts, dead beam.PCollection) {
	s = s.Scope("uribeam.Sites")
	hosts, dead := beam.ParDo2(s, hostFn, lines)
	one := siteOne
	if icann {
		one = siteICANNOne
	}
	return beam.CombinePerKey(s, hostCount, beam.ParDo(s, one, hosts)), dead
}
