import { randomUUID } from 'node:crypto';
import type { ServiceProcess } from '../helpers/service-process';

/**
 * Viewers playing a demo through the real viewer API of one or more `demoshare serve` processes, the way the
 * player does it: a session (cookie) per view, one event per request (view_started, each step, completed),
 * and an event that got no acknowledgement sent again with the SAME id, to another process if its own is
 * gone. Every answer is recorded, so that a test can compare what was acknowledged with what is stored.
 */
export interface ViewerLoadResult {
  /** Event ids answered 202, with whether the answer counted them as new. */
  acked: Map<string, 'accepted' | 'duplicate'>;
  /** Every event id sent at least once. */
  sent: Set<string>;
  /** Sessions (views) whose every event was acknowledged. */
  sessions: number;
  /** Status → count of every answer that was not a 2xx, and network failures under 'network'. */
  failures: Map<string, number>;
  /** Bodies of the non-2xx answers (the first few of each status), to check their shape. */
  errorBodies: Array<{ status: number; body: string; retryAfter: string | null }>;
  /** Requests that were re-sent at least once before their acknowledgement. */
  retried: number;
}

export interface ViewerLoadOptions {
  token: string;
  /** The processes to talk to; a viewer starts on `processes[i % n]` and moves on when it stops answering. */
  processes: ServiceProcess[];
  viewers: number;
  /** Number of steps of the demo: a session reaches each of them, then completes. */
  steps: number;
  /** Sessions are started until this says stop; a session started is always finished. */
  keepGoing: () => boolean;
  /** Pause between retries of an unacknowledged event. */
  retryDelayMs?: number;
  /** A retry loop longer than this fails the load (the service never recovered). */
  giveUpAfterMs?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runViewerLoad(options: ViewerLoadOptions): Promise<ViewerLoadResult> {
  const result: ViewerLoadResult = {
    acked: new Map(),
    sent: new Set(),
    sessions: 0,
    failures: new Map(),
    errorBodies: [],
    retried: 0,
  };
  const retryDelay = options.retryDelayMs ?? 150;
  const giveUpAfter = options.giveUpAfterMs ?? 90_000;
  const fail = (key: string) => result.failures.set(key, (result.failures.get(key) ?? 0) + 1);

  /** Sends one request until a process acknowledges it, moving to the next process on failure. */
  async function until2xx(viewer: number, send: (p: ServiceProcess) => Promise<Response>): Promise<Response> {
    const started = Date.now();
    let turn = viewer;
    for (let attempt = 0; ; attempt++) {
      const live = options.processes.filter((p) => p.running);
      const target = live[turn % Math.max(1, live.length)];
      if (target) {
        try {
          const res = await send(target);
          if (res.ok) {
            if (attempt > 0) result.retried++;
            return res;
          }
          const body = await res.text();
          fail(String(res.status));
          if (result.errorBodies.filter((e) => e.status === res.status).length < 5) {
            result.errorBodies.push({ status: res.status, body, retryAfter: res.headers.get('retry-after') });
          }
        } catch {
          fail('network');
        }
      }
      if (Date.now() - started > giveUpAfter) throw new Error(`viewer ${viewer}: no process acknowledged for ${giveUpAfter} ms`);
      turn++;
      await sleep(retryDelay);
    }
  }

  async function playSession(viewer: number) {
    const cookies = new Map<string, string>();
    const cookieHeader = () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const keep = (res: Response) => {
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const eq = pair!.indexOf('=');
        cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
      }
    };
    const open = await until2xx(viewer, (p) =>
      p.fetch(`/v1/viewer/${options.token}`, { headers: { 'user-agent': `fault-viewer-${viewer}` } }),
    );
    keep(open);
    await open.arrayBuffer();
    const events: object[] = [{ id: randomUUID(), type: 'view_started' }];
    for (let s = 2; s <= options.steps; s++) events.push({ id: randomUUID(), type: 'step_reached', step_number: s, seconds_on_previous: 1 });
    events.push({ id: randomUUID(), type: 'completed', seconds_on_previous: 1 });
    for (const event of events) {
      const id = (event as { id: string }).id;
      result.sent.add(id);
      const res = await until2xx(viewer, (p) =>
        p.fetch(`/v1/viewer/${options.token}/events`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie: cookieHeader(), 'user-agent': `fault-viewer-${viewer}` },
          body: JSON.stringify({ events: [event] }),
        }),
      );
      const { data } = (await res.json()) as { data: { accepted: number; duplicates: number } };
      result.acked.set(id, data.accepted === 1 ? 'accepted' : 'duplicate');
    }
    result.sessions++;
  }

  await Promise.all(
    Array.from({ length: options.viewers }, async (_, viewer) => {
      while (options.keepGoing()) await playSession(viewer);
    }),
  );
  return result;
}
