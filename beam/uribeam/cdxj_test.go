package uribeam

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/urikit/urikit/internal/testshared"
)

// indexWARC indexes the WARC file b as the cdxj job does, and returns
// its lines in file order, its dead letters and its tally.
func indexWARC(t *testing.T, name string, b []byte, postAppend bool, max int64) ([]string, []DeadLetter, tally) {
	t.Helper()
	var lines []string
	var dead []DeadLetter
	var tl tally
	x := &cdxjIndexer{filename: name, postAppend: postAppend, max: max, t: &tl, path: name,
		line: func(s string) { lines = append(lines, s) },
		bad:  func(d DeadLetter) { dead = append(dead, d) }}
	x.index(bytes.NewReader(b))
	if tl.in != tl.out+tl.dead+sum(tl.skipped) {
		t.Errorf("%s: %d in, %d out, %d dead, skipped %v: the counts do not add up", name, tl.in, tl.out, tl.dead, tl.skipped)
	}
	return lines, dead, tl
}

func sum(m map[string]int64) int64 {
	var n int64
	for _, v := range m {
		n += v
	}
	return n
}

// The expected lines of webrecorder/cdxj-indexer's own tests
// (test/test_indexer.py at 9ad2b9e1c54d, the test named with each),
// for its test WARCs (testdata/conformance/cdxj-indexer), in file order
// as cdxj-indexer writes them unsorted. The ARC tests (example.arc,
// bad.arc) are not here: uripipe cdxj reads WARC files only.
var cdxjIndexerVectors = []struct {
	test, file string
	post       bool
	want       string
}{
	{"test_warc_cdxj", "example.warc.gz", false, `com,example)/ 20170306040206 {"url": "http://example.com/", "mime": "text/html", "status": "200", "digest": "sha1:G7HRM7BGOKSKMSXZAHMUQTTV53QOFSMK", "length": "1242", "offset": "784", "filename": "example.warc.gz"}
com,example)/ 20170306040348 {"url": "http://example.com/", "mime": "warc/revisit", "status": "200", "digest": "sha1:G7HRM7BGOKSKMSXZAHMUQTTV53QOFSMK", "length": "585", "offset": "2635", "filename": "example.warc.gz"}`},
	// test_warc_cdxj_with_record_digests, without the recordDigest field
	// (-d, not an option of uripipe): post_append changes nothing here.
	{"test_warc_cdxj_with_record_digests", "example.warc.gz", true, `com,example)/ 20170306040206 {"url": "http://example.com/", "mime": "text/html", "status": "200", "digest": "sha1:G7HRM7BGOKSKMSXZAHMUQTTV53QOFSMK", "length": "1242", "offset": "784", "filename": "example.warc.gz"}
com,example)/ 20170306040348 {"url": "http://example.com/", "mime": "warc/revisit", "status": "200", "digest": "sha1:G7HRM7BGOKSKMSXZAHMUQTTV53QOFSMK", "length": "585", "offset": "2635", "filename": "example.warc.gz"}`},
	{"test_warc_cdxj_sorted", "cc.warc.gz", false, `org,commoncrawl)/ 20170722005011 {"url": "https://commoncrawl.org/", "mime": "text/html", "status": "200", "digest": "sha1:RXZILWL37W7MAZTH76FEVIHSF2DZ5HTM", "length": "5357", "offset": "377", "filename": "cc.warc.gz"}`},
	{"test_warc_post_query_append", "post-test.warc.gz", true, `org,httpbin)/post?__wb_method=post&foo=bar&test=abc 20140610000859 {"url": "http://httpbin.org/post", "mime": "application/json", "status": "200", "digest": "sha1:M532K5WS4GY2H4OVZO6HRPOP47A7KDWU", "length": "720", "offset": "0", "filename": "post-test.warc.gz", "requestBody": "foo=bar&test=abc", "method": "POST"}
org,httpbin)/post?__wb_method=post&a=1&b=[]&c=3 20140610001151 {"url": "http://httpbin.org/post", "mime": "application/json", "status": "200", "digest": "sha1:M7YCTM7HS3YKYQTAWQVMQSQZBNEOXGU2", "length": "723", "offset": "1196", "filename": "post-test.warc.gz", "requestBody": "A=1&B=[]&C=3", "method": "POST"}
org,httpbin)/post?__wb_method=post&data=^&foo=bar 20140610001255 {"url": "http://httpbin.org/post?foo=bar", "mime": "application/json", "status": "200", "digest": "sha1:B6E5P6JUZI6UPDTNO4L2BCHMGLTNCUAJ", "length": "723", "offset": "2395", "filename": "post-test.warc.gz", "requestBody": "data=^", "method": "POST"}`},
	{"test_warc_post_query_append (without)", "post-test.warc.gz", false, `org,httpbin)/post 20140610000859 {"url": "http://httpbin.org/post", "mime": "application/json", "status": "200", "digest": "sha1:M532K5WS4GY2H4OVZO6HRPOP47A7KDWU", "length": "720", "offset": "0", "filename": "post-test.warc.gz"}
org,httpbin)/post 20140610001151 {"url": "http://httpbin.org/post", "mime": "application/json", "status": "200", "digest": "sha1:M7YCTM7HS3YKYQTAWQVMQSQZBNEOXGU2", "length": "723", "offset": "1196", "filename": "post-test.warc.gz"}
org,httpbin)/post?foo=bar 20140610001255 {"url": "http://httpbin.org/post?foo=bar", "mime": "application/json", "status": "200", "digest": "sha1:B6E5P6JUZI6UPDTNO4L2BCHMGLTNCUAJ", "length": "723", "offset": "2395", "filename": "post-test.warc.gz"}`},
	{"test_warc_post_query_append_multi_and_json", "post-test-more.warc", true, `org,httpbin)/post?__wb_method=post&another=more^data&test=some+data 20200809195334 {"url": "https://httpbin.org/post", "mime": "application/json", "status": "200", "digest": "sha1:7AWVEIPQMCA4KTCNDXWSZ465FITB7LSK", "length": "688", "offset": "0", "filename": "post-test-more.warc", "requestBody": "test=some+data&another=more%5Edata", "method": "POST"}
org,httpbin)/post?__wb_method=post&a=json-data 20200809195334 {"url": "https://httpbin.org/post", "mime": "application/json", "status": "200", "digest": "sha1:BYOQWRSQFW3A5SNUBDSASHFLXGL4FNGB", "length": "655", "offset": "1227", "filename": "post-test-more.warc", "requestBody": "a=json-data", "method": "POST"}
org,httpbin)/post?__wb_method=post&__wb_post_data=c29tzwnodw5rlwvuy29kzwrkyxrh 20200810055049 {"url": "https://httpbin.org/post", "mime": "application/json", "status": "200", "digest": "sha1:34LEADQD3MOBQ42FCO2WA5TUSEL5QOKP", "length": "628", "offset": "2338", "filename": "post-test-more.warc", "requestBody": "__wb_post_data=c29tZWNodW5rLWVuY29kZWRkYXRh", "method": "POST"}`},
	{"test_missing_http", "missing-http.warc.gz", false, `com,zoubanio,img1)/icon/u3927203-87.jpg 20170430113919 {"url": "https://img1.zoubanio.com/icon/u3927203-87.jpg", "digest": "sha1:FARQCVFYY7UZ5O5ZKSERUXHUUGEGL4IO", "length": "307", "offset": "0", "filename": "missing-http.warc.gz"}`},
}

// TestCDXJIndexerVectors: the lines of cdxj-indexer's tests, byte for
// byte, and every other record of its WARCs skipped by type.
func TestCDXJIndexerVectors(t *testing.T) {
	for _, v := range cdxjIndexerVectors {
		b, err := os.ReadFile(testshared.Path(t, "conformance", "cdxj-indexer", v.file))
		if err != nil {
			t.Fatal(err)
		}
		lines, dead, tl := indexWARC(t, v.file, b, v.post, DefaultMaxRecord)
		if got := strings.Join(lines, "\n"); got != v.want {
			t.Errorf("%s (%s):\ngot\n%s\nwant\n%s", v.test, v.file, got, v.want)
		}
		if len(dead) > 0 {
			t.Errorf("%s: dead letters %v", v.test, dead)
		}
		t.Logf("%s: %d records, %d lines, skipped %v", v.file, tl.in, tl.out, tl.skipped)
	}
}
