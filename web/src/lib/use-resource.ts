import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../api/client';

export type Resource<T> =
  | { status: 'loading'; data?: undefined; error?: undefined }
  | { status: 'error'; data?: undefined; error: ApiError }
  | { status: 'ready'; data: T; error?: undefined };

/**
 * Loads data for a page and reloads it on demand. A reload keeps the old data on screen until the new
 * data arrives, so lists do not flash back to a spinner after every change.
 */
export function useResource<T>(load: () => Promise<T>): Resource<T> & { reload(): Promise<void> } {
  const [state, setState] = useState<Resource<T>>({ status: 'loading' });
  const loadRef = useRef(load);
  loadRef.current = load;
  const generation = useRef(0);

  const reload = useCallback(async () => {
    const mine = ++generation.current;
    try {
      const data = await loadRef.current();
      if (mine === generation.current) setState({ status: 'ready', data });
    } catch (err) {
      if (mine !== generation.current) return;
      const error = err instanceof ApiError ? err : new ApiError(0, 'internal_error', 'Something went wrong while loading.');
      setState({ status: 'error', error });
    }
  }, []);

  useEffect(() => {
    void reload();
    return () => {
      generation.current++;
    };
  }, [reload]);

  return { ...state, reload };
}
