/** Addresses the SSRF guard must refuse (shared by the guard's tests and every module that takes a URL). */
export const REFUSED_URLS = [
  'http://127.0.0.1/',
  'http://127.1/',
  'http://2130706433/',
  'http://0x7f000001/',
  'http://017700000001/',
  'http://[::1]/',
  'http://[::ffff:127.0.0.1]/',
  'http://[::ffff:7f00:1]/',
  'http://169.254.169.254/latest/meta-data/',
  'http://10.0.0.1/',
  'http://10.255.255.255/',
  'http://172.16.0.1/',
  'http://172.31.255.254/',
  'http://192.168.1.1/',
  'http://100.64.0.1/',
  'http://0.0.0.0/',
  'http://0/',
  'http://[::]/',
  'http://[fe80::1]/',
  'http://[fc00::1]/',
  'http://[2002:7f00:1::]/', // 6to4 wrapping 127.0.0.1
  'http://[64:ff9b::7f00:1]/', // NAT64 wrapping 127.0.0.1
  'http://[64:ff9b:1::a00:1]/', // local-use NAT64 (RFC 8215) wrapping 10.0.0.1
  'http://[::127.0.0.1]/', // IPv4-compatible, which URL parsers write [::7f00:1]
  'http://[::7f00:1]/',
  'http://[0:0:0:0:0:0:127.0.0.1]/',
  'http://[::a9fe:a9fe]/', // IPv4-compatible 169.254.169.254
  'http://[::ffff:0:7f00:1]/', // IPv4-translated (RFC 6145)
  'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/', // Teredo, client 127.0.0.1 (stored inverted)
  'http://[4000::1]/', // outside global unicast 2000::/3
  'http://224.0.0.1/',
  'http://255.255.255.255/',
  'file:///etc/passwd',
  'data:text/html,<b>x</b>',
  'ftp://example.com/',
  'javascript:alert(1)',
  'http://user:pass@example.com/',
  'http://user@example.com/',
  'not a url',
];
