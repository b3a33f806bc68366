//go:build !amd64 || purego

package whatwg

// haveClassify is false where there is no classify64 in assembly: the
// word scans of parseFastWords are faster than classifyGo.
const haveClassify = false

func classify64(s string, m *fastMasks) { classifyGo(s, m) }
