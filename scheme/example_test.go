package scheme_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/urikit/urikit/scheme"
	"github.com/urikit/urikit/uri"
)

func ExampleParseHTTP() {
	v, _ := scheme.ParseHTTP(uri.MustParse("http://user@www.example.org:8080/where?q=now#frag"))
	p, _ := v.Plan(scheme.PlanOptions{})
	fmt.Printf("%q\n", p.Request)
	fmt.Println(v.AbsoluteForm(), v.Warnings())
	// Output:
	// "GET /where?q=now HTTP/1.1\r\nHost: www.example.org:8080\r\n"
	// http://www.example.org:8080/where?q=now [nondefault-port]
}

func ExampleParseFTP() {
	// RFC 1738 3.2.2: "%2F" in a segment; one CWD per segment.
	v, _ := scheme.ParseFTP(uri.MustParse("ftp://myname@host.dom/%2Fetc/motd"))
	p, _ := v.Plan(scheme.PlanOptions{})
	fmt.Println(strings.Join(slices.Collect(p.Commands()), " | "))
	// Output: USER myname | PASS <ask> | CWD /etc | TYPE I | RETR motd
}

func ExampleParseGopher() {
	v, _ := scheme.ParseGopher(uri.MustParse("gopher://host/7a_gopher_selector%09foobar"))
	p, _ := v.Plan(scheme.PlanOptions{})
	fmt.Printf("%c %q\n", v.ItemType(), p.Request)
	// Output: 7 "a_gopher_selector\tfoobar\r\n"
}

func ExampleGopher_Plan() {
	// RFC 1738 section 6: an encoded CR LF would reach the server as
	// another command (here SMTP); the plan refuses it.
	v, _ := scheme.ParseGopher(uri.MustParse("gopher://mail.example:25/_HELO%20x%0D%0AQUIT"))
	_, err := v.Plan(scheme.PlanOptions{})
	fmt.Println(err)
	// Output: refused: a percent-encoded CR in the selector would be decoded into a protocol line (RFC 1738 section 6) at offset 34
}

func ExampleParseMailto() {
	v, _ := scheme.ParseMailto(uri.MustParse("mailto:joe@example.com?cc=bob@example.com&subject=hi%20there"))
	s, _ := v.Subject()
	fmt.Println(v.To(), v.Cc(), s)
	// Output: [joe@example.com] [bob@example.com] hi there
}

func ExampleParseNews() {
	for _, s := range []string{"news:comp.infosystems.www.servers.unix", "news:p0ue1la8d@example.org", "news:*"} {
		v, _ := scheme.ParseNews(uri.MustParse(s))
		fmt.Println(v.Kind(), v.Newsgroup()+v.MessageID())
	}
	// Output:
	// group comp.infosystems.www.servers.unix
	// article p0ue1la8d@example.org
	// all
}

func ExampleParseNNTP() {
	v, _ := scheme.ParseNNTP(uri.MustParse("nntp://news.server.example/example.group.this/12345"))
	p, _ := v.Plan(scheme.PlanOptions{})
	fmt.Println(p.Host, p.Port, slices.Collect(p.Commands()))
	// Output: news.server.example 119 [GROUP example.group.this ARTICLE 12345]
}

func ExampleParseTelnet() {
	v, _ := scheme.ParseTelnet(uri.MustParse("telnet://joe:secret@192.0.2.16:80/"))
	user, _ := v.User()
	fmt.Println(user, v.Host(), v.Port(), v.DefaultPort(), v.Warnings())
	// Output: joe 192.0.2.16 80 23 [nondefault-port reserved-port password]
}

func ExampleParseWAIS() {
	v, _ := scheme.ParseWAIS(uri.MustParse("wais://wais.example/db/TEXT/doc%201"))
	fmt.Println(v.Form(), v.Database(), v.WType(), v.WPath())
	// Output: document db TEXT doc 1
}

func ExampleParseProspero() {
	v, _ := scheme.ParseProspero(uri.MustParse("prospero://host/pub/x%0012"))
	ver, _ := v.Version()
	fmt.Println(v.HSOName(), ver, v.DefaultPort())
	// Output: pub/x 12 1525
}

func ExampleParseFile() {
	v, _ := scheme.ParseFile(uri.MustParse("file:///c:/path/to/file"))
	fmt.Println(v.Local(), v.WindowsPath())
	// Output: true c:\path\to\file
}

func ExampleParseMessageID() {
	v, _ := scheme.ParseMessageID(uri.MustParse("mid:960830.1639@XIson.com/partA.960830.1639@XIson.com"))
	m, _ := v.MessageID()
	c, _ := v.ContentID()
	fmt.Println(m, c)
	// Output: 960830.1639@XIson.com partA.960830.1639@XIson.com
}

func ExampleStripPrefix() {
	s, ok := scheme.StripPrefix("URL:ftp://ftp.example.com/pub")
	fmt.Println(s, ok)
	// Output: ftp://ftp.example.com/pub true
}

func ExampleViewOf() {
	v, _ := scheme.ViewOf(uri.MustParse("gopher://host/0a%09%09!"))
	g := v.(scheme.Gopher)
	fmt.Println(g.GplusKind())
	// Every view, a URN's included, warns in the same codes.
	for _, s := range []string{"ftp://u:pw@h:2121/f", "urn:X-foo:bar"} {
		v, _ := scheme.ViewOf(uri.MustParse(s))
		fmt.Println(v, v.Warnings())
	}
	// Output:
	// attributes
	// ftp://u:xxxxx@h:2121/f [nondefault-port password]
	// urn:X-foo:bar [reserved-nid]
}

func ExampleFTP_Redacted() {
	v, _ := scheme.ParseFTP(uri.MustParse("ftp://user:pw@host/f"))
	// Printing a view never shows the password, whatever the verb.
	fmt.Printf("%v %q\n", v, v)
	fmt.Println(v.Redacted())
	// Output:
	// ftp://user:xxxxx@host/f "ftp://user:xxxxx@host/f"
	// ftp://user:xxxxx@host/f
}

func ExampleEndpoint() {
	for _, s := range []string{"http://h/", "https://h:8443/", "news:comp.lang.go", "telnet://h:2323"} {
		v, _ := scheme.ViewOf(uri.MustParse(s))
		e := v.(scheme.Endpoint)
		fmt.Println(s, e.Port(), e.DefaultPort(), e.ConnectPort())
	}
	// Output:
	// http://h/ -1 80 80
	// https://h:8443/ 8443 443 8443
	// news:comp.lang.go -1 119 119
	// telnet://h:2323 2323 23 2323
}

func ExampleWarning_Message() {
	fmt.Println(scheme.WarnEncodedCRLF.Message())
	// Output: a percent-encoded CR or LF that a client decodes into a protocol line or a mail header (RFC 1738 section 6, RFC 6068 section 7)
}

func ExampleURN() {
	v, _ := scheme.ViewOf(uri.MustParse("urn:example:a%00"))
	n := v.(scheme.URN)
	fmt.Println(n.NID(), n.Warnings())
	// Output: example [encoded-nul]
}

func ExamplePlanOptions_Check() {
	// The email is sent as the argument of PASS: a CR LF in it would
	// start another FTP command.
	fmt.Println(scheme.PlanOptions{Email: "me@example.com"}.Check())
	fmt.Println(scheme.PlanOptions{Email: "me@x\r\nDELE important"}.Check())
	// Output:
	// <nil>
	// the email holds a space or a control character (byte 0x0d at offset 4)
}

func ExamplePlanOptions_askData() {
	// The 1994 draft's filled-in +ASK form: its data block reaches the
	// wire only when asked for, and only on port 70.
	const ask = "/0sel%09%09+%091%0D%0A+-1%0D%0Avalue%0D%0A.%0D%0A"
	for _, s := range []string{"gopher://h" + ask, "gopher://h:25" + ask} {
		v, _ := scheme.ParseGopher(uri.MustParse(s))
		p, err := v.Plan(scheme.PlanOptions{AskData: true})
		fmt.Printf("%q %v\n", p.Request, err != nil)
	}
	// Output:
	// "sel\t+\t1\r\n+-1\r\nvalue\r\n.\r\n" false
	// "" true
}

func ExampleCheck() {
	// Valid URI references that their schemes' rules refuse.
	for _, s := range []string{"http://example.com/", "http://", "http://h:65536/"} {
		fmt.Println(s, scheme.Check(uri.MustParse(s)))
	}
	// Output:
	// http://example.com/ <nil>
	// http:// uri: the scheme needs a host at offset 7 in host of "http://"
	// http://h:65536/ uri: port above 65535 at offset 9 in port of "http://h:65536/"
}

func ExampleParseMailto_grammar() {
	// RFC 6068 6.1: "The following example, using "?" twice, is
	// incorrect" -- a valid URI reference that is no mailto URL.
	_, err := scheme.ParseMailto(uri.MustParse("mailto:joe@example.com?cc=bob@example.com?body=hello"))
	fmt.Println(errors.Is(err, scheme.ErrMailQuestion), errors.Is(err, scheme.ErrSchemeSyntax))
	// The three spellings of the same recipients are one URL.
	a := uri.MustParse("mailto:addr1@an.example,addr2@an.example")
	b := uri.MustParse("mailto:addr1@an.example?to=addr2@an.example")
	fmt.Println(uri.Equal(a, b))
	// Output:
	// true true
	// true
}
