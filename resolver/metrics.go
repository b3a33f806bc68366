package resolver

import (
	"fmt"
	"io"
	"math"
	"runtime"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Metrics counts requests and store errors and writes them in the
// Prometheus text exposition format (version 0.0.4). The format is a few
// lines of text, so the standard library writes it; the official client
// would bring a dozen modules for the same output.
type Metrics struct {
	start    time.Time
	mu       sync.RWMutex
	requests map[reqLabel]*atomic.Uint64
	latency  map[string]*histogram
	storeErr map[string]*atomic.Uint64
}

type reqLabel struct {
	service string
	code    int
}

// latencyBuckets are the upper bounds, in seconds, of the request
// latency histogram: fine below 5 ms, where a lookup should be.
var latencyBuckets = []float64{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}

type histogram struct {
	counts [17]atomic.Uint64 // len(latencyBuckets)+1, the last for +Inf
	sumNs  atomic.Uint64
}

func newMetrics() *Metrics {
	return &Metrics{start: time.Now(), requests: map[reqLabel]*atomic.Uint64{},
		latency: map[string]*histogram{}, storeErr: map[string]*atomic.Uint64{}}
}

// observe records one request.
func (m *Metrics) observe(service string, code int, d time.Duration) {
	l := reqLabel{service, code}
	m.mu.RLock()
	c, ok1 := m.requests[l]
	h, ok2 := m.latency[service]
	m.mu.RUnlock()
	if !ok1 || !ok2 {
		m.mu.Lock()
		if c, ok1 = m.requests[l]; !ok1 {
			c = new(atomic.Uint64)
			m.requests[l] = c
		}
		if h, ok2 = m.latency[service]; !ok2 {
			h = new(histogram)
			m.latency[service] = h
		}
		m.mu.Unlock()
	}
	c.Add(1)
	s := d.Seconds()
	i := sort.SearchFloat64s(latencyBuckets, s)
	h.counts[i].Add(1)
	h.sumNs.Add(uint64(d.Nanoseconds()))
}

// storeError counts a failed store operation.
func (m *Metrics) storeError(op string) {
	m.mu.RLock()
	c, ok := m.storeErr[op]
	m.mu.RUnlock()
	if !ok {
		m.mu.Lock()
		if c, ok = m.storeErr[op]; !ok {
			c = new(atomic.Uint64)
			m.storeErr[op] = c
		}
		m.mu.Unlock()
	}
	c.Add(1)
}

// Requests returns the number of requests counted for service and code.
func (m *Metrics) Requests(service string, code int) uint64 {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if c, ok := m.requests[reqLabel{service, code}]; ok {
		return c.Load()
	}
	return 0
}

// WriteTo writes the metrics in the text exposition format.
func (m *Metrics) WriteTo(w io.Writer) (int64, error) {
	cw := &countWriter{w: w}
	m.mu.RLock()
	reqs := make([]reqLabel, 0, len(m.requests))
	for l := range m.requests {
		reqs = append(reqs, l)
	}
	svcs := make([]string, 0, len(m.latency))
	for s := range m.latency {
		svcs = append(svcs, s)
	}
	ops := make([]string, 0, len(m.storeErr))
	for o := range m.storeErr {
		ops = append(ops, o)
	}
	m.mu.RUnlock()
	sort.Slice(reqs, func(i, j int) bool {
		if reqs[i].service != reqs[j].service {
			return reqs[i].service < reqs[j].service
		}
		return reqs[i].code < reqs[j].code
	})
	sort.Strings(svcs)
	sort.Strings(ops)

	fmt.Fprintln(cw, "# HELP urnresolver_requests_total HTTP requests by resolution service (or endpoint) and status code.")
	fmt.Fprintln(cw, "# TYPE urnresolver_requests_total counter")
	m.mu.RLock()
	for _, l := range reqs {
		fmt.Fprintf(cw, "urnresolver_requests_total{service=%s,code=\"%d\"} %d\n", quoteLabel(l.service), l.code, m.requests[l].Load())
	}
	m.mu.RUnlock()

	fmt.Fprintln(cw, "# HELP urnresolver_request_duration_seconds Time to answer a request, by service.")
	fmt.Fprintln(cw, "# TYPE urnresolver_request_duration_seconds histogram")
	for _, s := range svcs {
		m.mu.RLock()
		h := m.latency[s]
		m.mu.RUnlock()
		var cum uint64
		for i, b := range latencyBuckets {
			cum += h.counts[i].Load()
			fmt.Fprintf(cw, "urnresolver_request_duration_seconds_bucket{service=%s,le=\"%s\"} %d\n", quoteLabel(s), formatFloat(b), cum)
		}
		cum += h.counts[len(latencyBuckets)].Load()
		fmt.Fprintf(cw, "urnresolver_request_duration_seconds_bucket{service=%s,le=\"+Inf\"} %d\n", quoteLabel(s), cum)
		fmt.Fprintf(cw, "urnresolver_request_duration_seconds_sum{service=%s} %s\n", quoteLabel(s), formatFloat(float64(h.sumNs.Load())/1e9))
		fmt.Fprintf(cw, "urnresolver_request_duration_seconds_count{service=%s} %d\n", quoteLabel(s), cum)
	}

	fmt.Fprintln(cw, "# HELP urnresolver_store_errors_total Failed database operations, by operation.")
	fmt.Fprintln(cw, "# TYPE urnresolver_store_errors_total counter")
	for _, o := range ops {
		m.mu.RLock()
		c := m.storeErr[o]
		m.mu.RUnlock()
		fmt.Fprintf(cw, "urnresolver_store_errors_total{op=%s} %d\n", quoteLabel(o), c.Load())
	}

	fmt.Fprintln(cw, "# HELP urnresolver_uptime_seconds Time since the server started.")
	fmt.Fprintln(cw, "# TYPE urnresolver_uptime_seconds gauge")
	fmt.Fprintf(cw, "urnresolver_uptime_seconds %s\n", formatFloat(time.Since(m.start).Seconds()))
	fmt.Fprintln(cw, "# HELP go_goroutines Number of goroutines.")
	fmt.Fprintln(cw, "# TYPE go_goroutines gauge")
	fmt.Fprintf(cw, "go_goroutines %d\n", runtime.NumGoroutine())
	return cw.n, cw.err
}

// quoteLabel quotes a label value as the exposition format escapes it:
// backslash, double quote and line feed.
func quoteLabel(s string) string {
	b := []byte{'"'}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\', '"':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		default:
			b = append(b, c)
		}
	}
	return string(append(b, '"'))
}

func formatFloat(f float64) string {
	if math.IsInf(f, 1) {
		return "+Inf"
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

type countWriter struct {
	w   io.Writer
	n   int64
	err error
}

func (c *countWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	c.n += int64(n)
	c.err = err
	return n, err
}
