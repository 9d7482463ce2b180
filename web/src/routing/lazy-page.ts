import { type ComponentType, lazy } from 'react';

/** The load of a page's chunk failed: the network, or a deploy since this tab opened removed that file. */
export class ChunkLoadError extends Error {
  constructor(cause: unknown) {
    super('A part of the app could not be loaded', { cause });
    this.name = 'ChunkLoadError';
  }
}

export type LazyPage = ComponentType & {
  /** Starts loading the page's chunk (once); navigating there later finds it ready. */
  preload(): Promise<unknown>;
};

/**
 * A page in a chunk of its own, loaded the first time it is shown or preloaded. A failed load is
 * forgotten, so a later preload or visit tries again, and is a ChunkLoadError whatever the browser called
 * it, so the boundary that catches it can tell it from a bug in the page.
 */
export function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): LazyPage {
  let loading: Promise<{ default: ComponentType }> | undefined;
  const preload = () => {
    loading ??= load().then(
      (module) => ({ default: pick(module) }),
      (err: unknown) => {
        loading = undefined;
        throw new ChunkLoadError(err);
      },
    );
    return loading;
  };
  return Object.assign(lazy(preload), { preload });
}
