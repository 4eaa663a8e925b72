import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from './api';
import { useSession } from './session';

export interface Resource<T> {
  data: T | undefined;
  error: ApiError | null;
  loading: boolean;
  reload(): void;
}

/**
 * Loads what `load` returns, again when `deps` or the environment change; the previous data
 * stays on screen while the next one loads (a list keeps its page while turning).
 */
export function useResource<T>(load: () => Promise<T>, deps: unknown[]): Resource<T> {
  const { environment, membership } = useSession();
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<ApiError | null>(null);
  const [loading, setLoading] = useState(true);
  const [generation, setGeneration] = useState(0);
  const latest = useRef(0);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);

  useEffect(() => {
    const call = ++latest.current;
    setLoading(true);
    load().then(
      (value) => {
        if (call !== latest.current) return;
        setData(value);
        setError(null);
        setLoading(false);
      },
      (problem: unknown) => {
        if (call !== latest.current) return;
        setError(problem instanceof ApiError ? problem : new ApiError(0, String(problem), null));
        setLoading(false);
      },
    );
  }, [...deps, environment, membership?.organizationId, generation]);

  return { data, error, loading, reload };
}

/** A form's submission: busy while it runs, the API's error in place, `done` after success. */
export function useAction<A extends unknown[], T>(run: (...args: A) => Promise<T>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [result, setResult] = useState<T | undefined>(undefined);
  const perform = useCallback(
    async (...args: A): Promise<T | undefined> => {
      setBusy(true);
      setError(null);
      try {
        const value = await run(...args);
        setResult(value);
        return value;
      } catch (problem) {
        setError(problem instanceof ApiError ? problem : new ApiError(0, String(problem), null));
        return undefined;
      } finally {
        setBusy(false);
      }
    },
    [run],
  );
  return { perform, busy, error, result, clear: () => setError(null) };
}
