package scheme

import (
	"bufio"
	"io"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/urikit/urikit/uri"
)

// The loopback tests run a client built from Plan against fake servers
// on 127.0.0.1 and compare the bytes the servers receive with the plan.
// Each server takes one connection and ends; every read and write has a
// deadline, so a test cannot hang.

// server listens on 127.0.0.1 and runs handle on the first connection,
// sending what it read on the returned channel.
func server(t *testing.T, handle func(c net.Conn, r *bufio.Reader) []byte) (port int, got <-chan []byte) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skipf("no loopback TCP: %v", err)
	}
	ch := make(chan []byte, 1)
	go func() {
		defer ln.Close()
		ln.(*net.TCPListener).SetDeadline(time.Now().Add(5 * time.Second))
		c, err := ln.Accept()
		if err != nil {
			ch <- nil
			return
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(5 * time.Second))
		ch <- handle(c, bufio.NewReader(c))
	}()
	return ln.Addr().(*net.TCPAddr).Port, ch
}

// dial connects to the test server in place of the plan's host.
func dial(t *testing.T, port int) net.Conn {
	t.Helper()
	c, err := net.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(port), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	c.SetDeadline(time.Now().Add(5 * time.Second))
	return c
}

// TestLoopbackGopher: a gopher client sends Plan().Request and reads
// the answer up to the end of the connection (RFC 1436).
func TestLoopbackGopher(t *testing.T) {
	for _, s := range []string{
		"gopher://127.0.0.1/7a_gopher_selector%09foobar",
		"gopher://127.0.0.1/0a_gopher_selector%09%09+application/postscript%20Es_ES",
		"gopher://127.0.0.1/0a_gopher_selector%09%09+%091%0D%0A+-1%0D%0Aask_item1_value%0D%0A.%0D%0A",
		"gopher://127.0.0.1",
	} {
		v, err := ParseGopher(uri.MustParse(s))
		if err != nil {
			t.Fatal(err)
		}
		// The +ASK block is sent only on request (issue 20).
		p, err := v.Plan(PlanOptions{AskData: true})
		if err != nil {
			t.Fatal(err)
		}
		port, got := server(t, func(c net.Conn, r *bufio.Reader) []byte {
			// A Gopher server reads the request line (and a +ASK data
			// block up to its "." line), answers, and closes.
			var b []byte
			for {
				line, err := r.ReadBytes('\n')
				b = append(b, line...)
				if err != nil || !strings.Contains(string(b), "\t1\r\n") || string(line) == ".\r\n" {
					break
				}
			}
			io.WriteString(c, "iok\t\terror.host\t1\r\n.\r\n")
			return b
		})
		c := dial(t, port)
		c.Write(p.Request)
		reply, _ := io.ReadAll(c)
		c.Close()
		if b := <-got; string(b) != string(p.Request) {
			t.Errorf("%s: server read %q, plan %q", s, b, p.Request)
		}
		if !strings.HasSuffix(string(reply), ".\r\n") {
			t.Errorf("%s: reply %q", s, reply)
		}
	}
}

// TestLoopbackFTP: an FTP client sends each command of the plan with
// CR LF and reads one reply per command (RFC 959 4.2), the server
// recording the control connection.
func TestLoopbackFTP(t *testing.T) {
	for _, s := range []string{
		"ftp://myname:pw@127.0.0.1//etc/motd",
		"ftp://127.0.0.1/pub/a%2Fb/;type=d",
		"ftp://127.0.0.1/pub/",
	} {
		v, err := ParseFTP(uri.MustParse(s))
		if err != nil {
			t.Fatal(err)
		}
		p, err := v.Plan(PlanOptions{Email: "me@example.com"})
		if err != nil {
			t.Fatal(err)
		}
		port, got := server(t, func(c net.Conn, r *bufio.Reader) []byte {
			io.WriteString(c, "220 fake FTP\r\n")
			var b []byte
			for {
				line, err := r.ReadString('\n')
				if err != nil {
					return b
				}
				b = append(b, line...)
				cmd, _, _ := strings.Cut(strings.TrimRight(line, "\r\n"), " ")
				switch cmd {
				case "USER":
					io.WriteString(c, "331 password please\r\n")
				case "PASS":
					io.WriteString(c, "230 logged in\r\n")
				case "CWD":
					io.WriteString(c, "250 ok\r\n")
				case "TYPE":
					io.WriteString(c, "200 ok\r\n")
				case "RETR", "LIST", "NLST":
					io.WriteString(c, "226 done\r\n")
					return b
				default:
					io.WriteString(c, "500 ?\r\n")
				}
			}
		})
		c := dial(t, port)
		r := bufio.NewReader(c)
		if greet, _ := r.ReadString('\n'); !strings.HasPrefix(greet, "220") {
			t.Fatalf("greeting %q", greet)
		}
		var sent strings.Builder
		for cmd := range p.Commands() {
			io.WriteString(c, cmd+"\r\n")
			sent.WriteString(cmd + "\r\n")
			reply, err := r.ReadString('\n')
			if err != nil || reply[0] == '5' {
				t.Fatalf("%s: %q: reply %q, %v", s, cmd, reply, err)
			}
		}
		c.Close()
		if b := <-got; string(b) != sent.String() {
			t.Errorf("%s: server read %q, plan %q", s, b, sent.String())
		}
	}
}

// TestLoopbackHTTP: the request line and Host header of the plan, then
// the blank line that ends the header, read by net/http's server side
// parser conventions (a line-based reader here).
func TestLoopbackHTTP(t *testing.T) {
	for _, tt := range []struct {
		url   string
		proxy bool
	}{
		{"http://127.0.0.1:8080/where?q=now#frag", false},
		{"http://127.0.0.1", true},
	} {
		v, err := ParseHTTP(uri.MustParse(tt.url))
		if err != nil {
			t.Fatal(err)
		}
		p, _ := v.Plan(PlanOptions{Proxy: tt.proxy})
		port, got := server(t, func(c net.Conn, r *bufio.Reader) []byte {
			var b []byte
			for {
				line, err := r.ReadBytes('\n')
				b = append(b, line...)
				if err != nil || string(line) == "\r\n" {
					break
				}
			}
			io.WriteString(c, "HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n")
			return b
		})
		c := dial(t, port)
		c.Write(append(p.Request, "Connection: close\r\n\r\n"...))
		reply, _ := io.ReadAll(c)
		c.Close()
		want := string(p.Request) + "Connection: close\r\n\r\n"
		if b := <-got; string(b) != want {
			t.Errorf("%s: server read %q, want %q", tt.url, b, want)
		}
		if !strings.HasPrefix(string(reply), "HTTP/1.1 204") {
			t.Errorf("%s: reply %q", tt.url, reply)
		}
	}
}
