import { useEffect, useState } from 'react';

/** One page of a server-paginated list: its rows and the cursor of the next page (null on the last). */
export interface Page<T> {
  items: T[];
  next: string | null;
}

export interface PagerState {
  hasPrevious: boolean;
  hasNext: boolean;
  previous(): void;
  next(): void;
}

/**
 * A server-paginated list with a stack of cursors (for «Anterior»). `fetchPage` (memoised by the caller) loads one
 * page; undefined while there is nothing to load. `reset` goes back to the first page, `reload` fetches the
 * current page again.
 */
export function usePagedList<T>(fetchPage: ((cursor: string | undefined) => Promise<Page<T>>) | undefined, onError: (e: unknown) => void) {
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const [rows, setRows] = useState<T[] | undefined>();
  const [next, setNext] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  const cursor = cursors.at(-1);

  useEffect(() => {
    if (!fetchPage) return;
    let current = true;
    setRows(undefined);
    fetchPage(cursor)
      .then((page) => {
        if (!current) return;
        setRows(page.items);
        setNext(page.next);
      })
      .catch((e) => current && onError(e));
    return () => {
      current = false;
    };
    // tick: reload() asks for the same page again.
  }, [fetchPage, cursor, onError, tick]);

  const pager: PagerState = {
    hasPrevious: cursors.length > 1,
    hasNext: next !== null,
    previous: () => setCursors((stack) => (stack.length > 1 ? stack.slice(0, -1) : stack)),
    next: () => next && setCursors((stack) => [...stack, next]),
  };
  return { rows, page: cursors.length, pager, reset: () => setCursors([undefined]), reload: () => setTick((n) => n + 1) };
}

/** «Anterior» and «Siguiente» under a paginated table. */
export function Pager({ pager }: { pager: PagerState }) {
  return (
    <nav className="pager" aria-label="Paginación">
      <button type="button" className="secondary" disabled={!pager.hasPrevious} onClick={pager.previous}>
        Anterior
      </button>
      <button type="button" className="secondary" disabled={!pager.hasNext} onClick={pager.next}>
        Siguiente
      </button>
    </nav>
  );
}
