// Why a generation failed, as a stable code and a sentence saying what happened and what to do about it.
import type { GenerationErrorCode } from './demos.tables';

/** A failed generation in words: `message` says what happened (first sentence) and then what to do. */
export interface GenerationFailure {
  code: GenerationErrorCode;
  message: string;
}

interface FailureContext {
  sourceUrl: string | null;
  /** GENERATION_TIMEOUT, for the timeout advice. */
  timeoutMs: number;
}

const RETRY = 'then retry';

/**
 * Turns what the generator threw (its messages, or the raw Node, undici and Chromium errors inside them)
 * into a code and plain words. The raw text is matched because it crosses the generator as a message; a
 * text no rule knows keeps its words under `failed`.
 *
 * @example
 * ```ts
 * explainGenerationFailure('Could not capture http://127.0.0.1:9/: connect ECONNREFUSED 127.0.0.1:9', {
 *   sourceUrl: 'http://127.0.0.1:9/',
 *   timeoutMs: 60_000,
 * }).code; // 'unreachable'
 * ```
 */
export function explainGenerationFailure(raw: string, context: FailureContext): GenerationFailure {
  const host = hostOf(context.sourceUrl);
  const blocked = /(\S+) is ((?:an? |the |outside )[\w ()/:-]+)/.exec(raw);
  if (/This address cannot be used/.test(raw) && blocked && !/not an IP address/.test(raw)) {
    const ip = blocked[1]!;
    const range = ip.includes(':') ? `${ip}/128` : `${ip}/32`;
    return {
      code: 'blocked_address',
      message:
        `${host} leads to a private network address (${ip} is ${blocked[2]!.trim()}), and this server does not capture private ` +
        'addresses, so that a demo cannot be used to reach its own network. ' +
        `An admin of this server can allow it by adding ${range} to the ALLOW_PRIVATE_NETWORK_CIDRS setting and restarting; ${RETRY}.`,
    };
  }
  if (/does not resolve|ENOTFOUND|EAI_AGAIN|ERR_NAME_NOT_RESOLVED|host name does not resolve/i.test(raw)) {
    return {
      code: 'dns_failure',
      message: `${host} could not be found: no address is registered for this name (DNS). Check the spelling of the address, ${RETRY}.`,
    };
  }
  if (/forbidden address|not a valid URL|scheme is not allowed|credentials in the URL|no source_url/i.test(raw)) {
    return { code: 'invalid_address', message: `The address ${context.sourceUrl ?? ''} cannot be captured (${reasonOf(raw)}). Use a public http:// or https:// address.` };
  }
  const status = /answered HTTP (\d{3})/.exec(raw)?.[1];
  if (status) return { code: 'http_error', message: httpMessage(host, Number(status)) };
  if (/ECONNREFUSED|connection was refused|ERR_CONNECTION_REFUSED|EHOSTUNREACH|ENETUNREACH|ECONNRESET|ERR_CONNECTION|ERR_ADDRESS_UNREACHABLE|socket hang up|other side closed/i.test(raw)) {
    return {
      code: 'unreachable',
      message: `Nothing answered at ${host}: the connection was refused or the server could not be reached. Check that the address is right and that the site is up, ${RETRY}.`,
    };
  }
  if (/SSL|TLS|certificate|CERT_|ERR_SSL|ERR_CERT/i.test(raw)) {
    return {
      code: 'tls_error',
      message: `The secure connection to ${host} failed: its HTTPS set-up or certificate was not accepted. Check whether the address should start with http:// or https://, and that the site's certificate is valid, ${RETRY}.`,
    };
  }
  if (/took too long|took longer than|Timeout \d+ms exceeded|ETIMEDOUT|UND_ERR_.*TIMEOUT|no time left/i.test(raw)) {
    return {
      code: 'timeout',
      message: `${host} took too long to answer: generation stops after ${Math.round(context.timeoutMs / 1000)} s. Retry in a moment; an admin can give slow sites more time with the GENERATION_TIMEOUT setting.`,
    };
  }
  if (/is not a web page/.test(raw)) {
    return { code: 'not_a_page', message: `${context.sourceUrl ?? host} is not a web page (${reasonOf(raw)}). Give the address of an HTML page.` };
  }
  if (/No steps could be made|Found no headings, buttons or forms/.test(raw)) {
    return {
      code: 'nothing_to_capture',
      message: `The page at ${host} has no headings, buttons or forms to make steps from. Try a page with more on it, or record it with the browser extension.`,
    };
  }
  if (/^Generation did not finish/.test(raw)) {
    const why = raw.replace(/^Generation did not finish:?\s*/, '') || 'it stopped without a result';
    return { code: 'interrupted', message: `Generation was interrupted before it finished: ${why}. Retry it.` };
  }
  return { code: 'failed', message: `Generation failed: ${reasonOf(raw)}. Retry it, or add the steps by hand.` };
}

function httpMessage(host: string, status: number): string {
  if (status === 404 || status === 410) return `${host} answered “page not found” (HTTP ${status}). Check the address, ${RETRY}.`;
  if (status === 401 || status === 403) {
    return `${host} refused access (HTTP ${status}): the page probably needs a sign-in. Record pages behind a login with the browser extension.`;
  }
  if (status === 429) return `${host} is refusing requests for now (HTTP 429, too many requests). Retry in a few minutes.`;
  if (status >= 500) return `${host} had a server error (HTTP ${status}). The site may be down for a moment: retry later.`;
  return `${host} refused the request (HTTP ${status}). Check the address, ${RETRY}.`;
}

function hostOf(url: string | null): string {
  if (!url) return 'The page';
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** The generator's own words without the address prefix, for failures no rule knows. */
function reasonOf(raw: string): string {
  const text = raw.replace(/^This address cannot be used: /, '').replace(/^Could not capture \S+: /, '').split('\n')[0]!.trim();
  return (text || 'no reason given').replace(/\.$/, '').slice(0, 300);
}
