import { useCallback, useState } from 'react';
import { acknowledgeLockout, clearLock, lockState, refreshLock } from '../session/lockout';
import { sessionState } from '../session/storage';

export interface Lockout {
  /** bloqueo 'true' and the stored time not passed (an expired lock is cleared on mount). */
  locked: boolean;
  /** ENTENDIDO on the lockout panel: 'cleared' (the panel goes away), 'toEntry' (go to /{apikey}) or 'stay' (locked, at the entry). */
  acknowledge: (atEntry: boolean) => 'cleared' | 'toEntry' | 'stay';
}

/** The lockout rules of docs/flow.md §4 for a screen that shows the lockout panel. */
export function useLockout(): Lockout {
  const [locked, setLocked] = useState(() => refreshLock(sessionState(), Date.now()));
  const acknowledge = useCallback((atEntry: boolean) => {
    const storage = sessionState();
    const decision = acknowledgeLockout(lockState(storage.get('bloqueo'), storage.get('time'), Date.now()), atEntry);
    if (decision.clear) {
      clearLock(storage);
      setLocked(false);
      return 'cleared' as const;
    }
    return decision.toEntry ? ('toEntry' as const) : ('stay' as const);
  }, []);
  return { locked, acknowledge };
}
