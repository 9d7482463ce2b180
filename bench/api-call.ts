/** A JSON call to the API of a bench's server with an API key; binary bodies (step images) go as they are. */
export function keyedApi(serverUrl: string, key: string) {
  return async (method: string, path: string, body?: unknown, type = 'application/json') => {
    const res = await fetch(`${serverUrl}/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': type }) },
      body: body === undefined ? undefined : body instanceof Buffer ? new Uint8Array(body) : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()).data;
  };
}
