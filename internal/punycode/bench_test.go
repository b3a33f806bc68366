package punycode

import "testing"

// BenchmarkLabel encodes and decodes a label of 20,000 distinct code
// points (60 KB of UTF-8), the shape of issue 32.
func BenchmarkLabel(b *testing.B) {
	u := distinct(20000)
	enc, err := AppendEncode(nil, u)
	if err != nil {
		b.Fatal(err)
	}
	buf := make([]byte, 0, 2*len(u))
	b.Run("encode", func(b *testing.B) {
		b.SetBytes(int64(len(u)))
		b.ReportAllocs()
		for b.Loop() {
			buf, _ = AppendEncode(buf[:0], u)
		}
	})
	b.Run("decode", func(b *testing.B) {
		b.SetBytes(int64(len(enc)))
		b.ReportAllocs()
		for b.Loop() {
			buf, _ = AppendDecode(buf[:0], string(enc))
		}
	})
}
