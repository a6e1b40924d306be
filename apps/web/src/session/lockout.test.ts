import { describe, expect, it } from 'vitest';
import { acknowledgeLockout, lockDurationMs, lockState, refreshLock, setLock } from './lockout';
import { createStateStorage } from './storage';

const now = 1_800_000_000_000;

describe('lockout (docs/flow.md §4)', () => {
  it('"bloqueo \'true\' and stored time not passed shows the lockout panel"', () => {
    expect(lockState('true', String(now + 1), now)).toBe('active');
    expect(lockState('true', String(now), now)).toBe('expired');
    expect(lockState('true', String(now - 1), now)).toBe('expired');
    expect(lockState(null, String(now + 1), now)).toBe('none');
    expect(lockState('false', String(now + 1), now)).toBe('none');
    expect(lockState('true', 'not-a-time', now)).toBe('expired');
  });

  it('"Setting a lock ...: bloqueo true with time one hour ahead"', () => {
    const storage = createStateStorage(null);
    setLock(storage, now);
    expect(storage.get('bloqueo')).toBe('true');
    expect(Number(storage.get('time'))).toBe(now + lockDurationMs);
    expect(lockDurationMs).toBe(3_600_000);
    expect(refreshLock(storage, now + lockDurationMs - 1)).toBe(true);
    expect(storage.get('bloqueo')).toBe('true');
  });

  it('"If bloqueo is \'true\' and time has passed, the lock is cleared."', () => {
    const storage = createStateStorage(null);
    setLock(storage, now);
    expect(refreshLock(storage, now + lockDurationMs)).toBe(false);
    expect(storage.get('bloqueo')).toBeNull();
    expect(storage.get('time')).toBeNull();
  });

  it('"ENTENDIDO clears the lock once the time passes; otherwise navigates to the grantor page", where an active lock stays (issue #21)', () => {
    expect(acknowledgeLockout('expired', false)).toEqual({ clear: true, toEntry: false });
    expect(acknowledgeLockout('expired', true)).toEqual({ clear: true, toEntry: false });
    expect(acknowledgeLockout('active', true)).toEqual({ clear: false, toEntry: false });
    expect(acknowledgeLockout('active', false)).toEqual({ clear: false, toEntry: true });
  });
});
