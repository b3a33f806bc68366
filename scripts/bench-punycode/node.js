// Times Node's URL (ada) on the jobs of whatwg.BenchmarkLongHost: for
// hosts of 1 to 60 KB of distinct code points (the code points of
// distinctHost in whatwg/idna_test.go, three bytes each), "encode"
// parses "http://" + host + "/" and "decode" parses its A-label beside
// "ß", and "decode-rev" the same for the host's code points in
// decreasing order. It prints one line per job in the format of go test -bench, with
// cpu-ns/op from process.cpuUsage (user and system), each job repeated
// until it has used minMs of CPU.
const minMs = Number(process.argv[2] || 200);

function distinctHost(n) {
  const out = [];
  for (const [lo, hi] of [[0x3400, 0x4dbf], [0x4e00, 0x9fff], [0xac00, 0xd7a3]]) {
    for (let r = lo; r <= hi && n > 0; r++, n--) out.push(String.fromCodePoint(r));
  }
  return out.join('');
}

function cpuNs() {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1000;
}

function time(name, input, expect) {
  const href = new URL(input).href; // and the check that it parses
  if (expect !== undefined && href !== expect) throw new Error(name + ': unexpected href');
  let n = 0;
  const t0 = cpuNs();
  let t = t0;
  while (n === 0 || t - t0 < minMs * 1e6) {
    new URL(input);
    n++;
    t = cpuNs();
  }
  console.log(`BenchmarkLongHost/${name}/node\t${n}\t${((t - t0) / n).toFixed(0)} cpu-ns/op`);
}

for (const kb of [1, 2, 4, 8, 16, 32, 60]) {
  const h = distinctHost(Math.floor((kb << 10) / 3));
  const enc = 'http://' + h + '/';
  const host = new URL(enc).host;
  const rev = new URL('http://' + Array.from(h).reverse().join('') + '/').host;
  time(`encode/${kb}KB`, enc);
  time(`decode/${kb}KB`, 'http://' + host + '.ß/', 'http://' + host + '.xn--zca/');
  time(`decode-rev/${kb}KB`, 'http://' + rev + '.ß/', 'http://' + rev + '.xn--zca/');
}
