// The CLI's client of an instance's HTTP API (`--url`/DEMOSHARE_URL, `--token`/DEMOSHARE_TOKEN): the `demos` commands run in CI with it.

/** An answer of the API that is not a success: its status and the error envelope's code, message and details. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Array<{ field: string; message: string }> = [],
  ) {
    super(message);
  }

  /** The message, then one line per detail (`  steps[3].image: is not a PNG…`). */
  describe(): string {
    return [`Error: ${this.message} (${this.status} ${this.code})`, ...this.details.map((d) => `  ${d.field}: ${d.message}`)].join('\n');
  }
}

export interface ApiClientOptions {
  /** The instance's address (its APP_URL or API_URL), with or without the trailing /v1. */
  url: string;
  /** An API key (`dsk_…`) or an OAuth access token. */
  token: string;
  fetch?: typeof fetch;
}

/**
 * A small client of the REST API: bearer token, the /v1 prefix, errors as {@link ApiError}.
 *
 * @example
 * ```ts
 * const api = new ApiClient({ url: 'https://demos.example.com', token: process.env.DEMOSHARE_TOKEN! });
 * const demo = await api.json<{ data: { title: string } }>('GET', '/demos/demo_01j…');
 * const zip = await api.bytes('GET', '/demos/demo_01j…/export');
 * ```
 */
export class ApiClient {
  readonly base: string;
  private readonly token: string;
  private readonly fetch: typeof fetch;

  constructor(options: ApiClientOptions) {
    const url = options.url.replace(/\/+$/, '');
    this.base = url.endsWith('/v1') ? url : `${url}/v1`;
    this.token = options.token;
    this.fetch = options.fetch ?? globalThis.fetch;
  }

  /** The answer of `method path` (path under /v1), or an ApiError for any status but 2xx. */
  async request(method: string, path: string, body?: { bytes: Uint8Array; type: string }): Promise<Response> {
    let response: Response;
    try {
      response = await this.fetch(`${this.base}${path}`, {
        method,
        headers: { authorization: `Bearer ${this.token}`, ...(body ? { 'content-type': body.type } : {}) },
        body: body ? Buffer.from(body.bytes) : undefined,
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new ApiError(0, 'unreachable', `Cannot reach ${this.base}: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
    }
    if (response.ok) return response;
    const text = await response.text();
    let envelope: { error?: { code?: string; message?: string; details?: Array<{ field: string; message: string }> } } = {};
    try {
      envelope = JSON.parse(text);
    } catch {
      // Not the API's envelope (a proxy's page): the status says enough.
    }
    const e = envelope.error;
    throw new ApiError(response.status, e?.code ?? 'http_error', e?.message ?? `${method} ${path} answered ${response.status}`, e?.details ?? []);
  }

  async json<T>(method: string, path: string, body?: { bytes: Uint8Array; type: string }): Promise<T> {
    return (await (await this.request(method, path, body)).json()) as T;
  }

  async bytes(method: string, path: string): Promise<Uint8Array> {
    return new Uint8Array(await (await this.request(method, path)).arrayBuffer());
  }
}

/** The client a command's `--url` / `--token` (or DEMOSHARE_URL / DEMOSHARE_TOKEN) describe; a message when one is missing. */
export function apiClientFrom(flags: { url?: string; token?: string }, env: NodeJS.ProcessEnv): ApiClient | string {
  const url = flags.url ?? env.DEMOSHARE_URL;
  const token = flags.token ?? env.DEMOSHARE_TOKEN;
  if (!url) return 'Set the instance with --url or DEMOSHARE_URL (e.g. https://demos.example.com).';
  if (!token) return 'Set an API key with --token or DEMOSHARE_TOKEN (scopes demos:read, and demos:write to import or push).';
  return new ApiClient({ url, token });
}
