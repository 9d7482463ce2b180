// The renders this process is making, by id: a cancel aborts its own process's render at once; other processes notice at their next progress write.

/** Aborts of the renders in flight in this process. */
export class RunningRenders {
  private readonly controllers = new Map<string, AbortController>();

  /** A new abort signal for render `id`, until `done(id)`. */
  start(id: string): AbortController {
    const controller = new AbortController();
    this.controllers.set(id, controller);
    return controller;
  }

  done(id: string): void {
    this.controllers.delete(id);
  }

  /** Aborts render `id` if this process is making it (a cancel). */
  abort(id: string, reason = 'cancelled'): void {
    this.controllers.get(id)?.abort(new RenderCancelled(reason));
  }

  /** Aborts every render in flight (the process is stopping: the job is retried elsewhere). */
  abortAll(): void {
    for (const id of this.controllers.keys()) this.abort(id, 'the worker stopped');
  }
}

/** A render ended on purpose: a cancel, or the worker stopping. */
export class RenderCancelled extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'RenderCancelled';
  }
}
