import { cleanup, render, screen, waitFor } from '@testing-library/preact';
import type { ConsoleGrantors } from '@kyc/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, scopedUrl } from './api';
import { GrantorPicker, useGrantors } from './GrantorPicker';

const grantors = [
  { id: '00000000-0000-4000-8000-000000000001', name: 'Financiera Demo' },
  { id: '00000000-0000-4000-8000-0000000000e7', name: 'Otra Financiera' },
];

afterEach(() => {
  cleanup();
  api.chooseGrantor('');
});

/** The grantors hook inside a component, showing what it holds. */
function Loaded({ load, onSignedOut }: { load: () => Promise<ConsoleGrantors>; onSignedOut: (notice?: string) => void }) {
  const state = useGrantors(load, onSignedOut);
  return <p>{state.kind === 'ready' ? state.grantors.map((g) => g.name).join(', ') : state.kind === 'failed' ? state.text : 'cargando'}</p>;
}

describe('the platform operator’s grantor picker', () => {
  it('lists the grantors under a label, says whose data is shown, and reports a new choice', () => {
    const onChange = vi.fn();
    render(<GrantorPicker grantors={grantors} value={grantors[0]!.id} onChange={onChange} />);
    const select = screen.getByLabelText('Otorgante') as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual(['Financiera Demo', 'Otra Financiera']);
    expect(select.value).toBe(grantors[0]!.id);
    expect(screen.getByText('Estás viendo los datos de Financiera Demo.')).toBeTruthy();
    // A plain DOM change event (testing-library's fireEvent.change does not reach preact's handler under happy-dom).
    select.value = grantors[1]!.id;
    select.dispatchEvent(new Event('change', { bubbles: true }));
    expect(onChange).toHaveBeenCalledWith(grantors[1]!.id);
  });

  it('with no grantor, is disabled and says so', () => {
    render(<GrantorPicker grantors={[]} value="" onChange={() => undefined} />);
    expect((screen.getByLabelText('Otorgante') as HTMLSelectElement).disabled).toBe(true);
    expect(screen.getByText('No hay otorgantes registrados.')).toBeTruthy();
  });

  it('loads the grantors; a refused call shows its text, an expired session signs out', async () => {
    render(<Loaded load={() => Promise.resolve({ grantors })} onSignedOut={() => undefined} />);
    await waitFor(() => expect(screen.getByText('Financiera Demo, Otra Financiera')).toBeTruthy());
    cleanup();
    render(<Loaded load={() => Promise.reject(new ApiError(500, 'No pudimos completar la solicitud.'))} onSignedOut={() => undefined} />);
    await waitFor(() => expect(screen.getByText('No pudimos completar la solicitud.')).toBeTruthy());
    cleanup();
    const signedOut = vi.fn();
    render(<Loaded load={() => Promise.reject(new ApiError(401, 'Tu sesión terminó.'))} onSignedOut={signedOut} />);
    await waitFor(() => expect(signedOut).toHaveBeenCalledWith('Tu sesión terminó.'));
  });

  it('the choice names the grantor on every later call that does not name one, never on the sign-in calls', () => {
    expect(scopedUrl('/console/api/settings/params')).toBe('/console/api/settings/params');
    api.chooseGrantor(grantors[1]!.id);
    expect(scopedUrl('/console/api/settings/params')).toBe(`/console/api/settings/params?grantorId=${grantors[1]!.id}`);
    expect(scopedUrl('/console/api/webhooks/x/deliveries?limit=25')).toBe(`/console/api/webhooks/x/deliveries?limit=25&grantorId=${grantors[1]!.id}`);
    expect(scopedUrl(`/console/api/cases?grantorId=${grantors[0]!.id}`)).toBe(`/console/api/cases?grantorId=${grantors[0]!.id}`);
    expect(scopedUrl('/console/api/session')).toBe('/console/api/session');
    expect(scopedUrl('/console/api/grantors')).toBe('/console/api/grantors');
  });
});
