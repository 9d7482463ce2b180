import { freshConnection, RecorderError, refreshTokens } from './auth';

export class ApiFailure extends RecorderError {
  constructor(
    readonly status: number,
    readonly code: string | null,
    message: string,
  ) {
    super(message);
  }

  /** Worth trying again later (the server or the network had a problem), as opposed to a refusal. */
  get transient(): boolean {
    return this.status === 0 || this.status === 408 || this.status === 429 || this.status >= 500;
  }
}

/** A call to the Demoshare API with the stored credentials; an expired access token is refreshed once. */
export async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  let connection = await freshConnection();
  for (let attempt = 0; ; attempt++) {
    let res: Response;
    try {
      res = await fetch(`${connection.apiUrl}${path}`, {
        ...init,
        headers: { accept: 'application/json', ...(init.headers as Record<string, string>), authorization: `Bearer ${connection.accessToken}` },
      });
    } catch (error) {
      throw new ApiFailure(0, null, `Demoshare cannot be reached (${(error as Error).message})`);
    }
    if (res.status === 401 && connection.kind === 'oauth' && attempt === 0) {
      connection = await refreshTokens();
      continue;
    }
    if (res.status === 204) return undefined as T;
    const body = (await res.json().catch(() => null)) as { data?: T; error?: { code?: string; message?: string } } | null;
    if (!res.ok) {
      throw new ApiFailure(res.status, body?.error?.code ?? null, body?.error?.message ?? `Demoshare answered ${res.status}`);
    }
    return body?.data as T;
  }
}
