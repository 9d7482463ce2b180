import { testConfig } from '../../src/config';
import { createDocumentPool, type DocumentPool } from '../../src/document-tasks';

/**
 * The document workers for a generator built outside an app (its caller closes them), with the SSRF
 * guard's syntax check opened to 127.0.0.1 like the tests' `net`: the test sites' stylesheets and fonts
 * are kept in snapshots as on any public site.
 */
export function testDocumentPool(): DocumentPool {
  return createDocumentPool(testConfig({ ALLOW_PRIVATE_NETWORK_CIDRS: '127.0.0.1/32' }));
}
