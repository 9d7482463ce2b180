/** What an attacker would try to put into a page through a personalisation value (tests of each source). */
export const XSS_PAYLOADS = [
  '<img src=x onerror=alert(1)>',
  '"><script>alert(1)</script>',
  '</script><script>alert(1)</script>',
  'javascript:alert(1)',
  "'><svg onload=alert(1)>",
];
