// Reads a JSON array of {url} or {form} cases on stdin and writes, for
// each, what Node's URL (ada) gives: the href or null for a URL, the
// value of the pair named "a" for a form body (URLSearchParams).
// Used by node_test.go.
const chunks = [];
process.stdin.on('data', (c) => chunks.push(c));
process.stdin.on('end', () => {
  const cases = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  const out = cases.map((c) => {
    if (c.url !== undefined) {
      try {
        return new URL(c.url).href;
      } catch (e) {
        return null;
      }
    }
    const p = new URLSearchParams(c.form);
    return { a: p.get('a'), sorted: (() => { p.sort(); return p.toString(); })() };
  });
  process.stdout.write(JSON.stringify(out));
});
