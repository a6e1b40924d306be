import { act, cleanup, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { endBusyWait, reportBusyWait } from '../api/busy';
import { BusyNotice } from './BusyNotice';
import { texts as common } from '../i18n/es-MX/common';

afterEach(() => {
  cleanup();
  endBusyWait();
  vi.useRealTimers();
});

describe('BusyNotice', () => {
  it('says nothing until the client reports a busy wait, then tells the person and goes away after the wait', () => {
    vi.useFakeTimers();
    render(<BusyNotice />);
    const status = screen.getByRole('status');
    expect(status.textContent).toBe('');

    act(() => reportBusyWait({ waitMs: 5000 }, Date.now()));
    expect(status.textContent).toBe('Hay muchas verificaciones en curso; seguimos intentando en unos segundos.');
    expect(common.busy).toBe(status.textContent);

    // A second 503 during the wait keeps the line up until the later wait is over.
    act(() => {
      vi.advanceTimersByTime(3000);
    });
    act(() => reportBusyWait({ waitMs: 10_000 }, Date.now()));
    act(() => {
      vi.advanceTimersByTime(9000);
    });
    expect(status.textContent).toBe(common.busy);
    act(() => {
      vi.advanceTimersByTime(2000);
    });
    expect(status.textContent).toBe('');
  });

  it('shows a wait reported before it was mounted', () => {
    reportBusyWait({ waitMs: 5000 });
    render(<BusyNotice />);
    expect(screen.getByRole('status').textContent).toBe(common.busy);
  });
});
