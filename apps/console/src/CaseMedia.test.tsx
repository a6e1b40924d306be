import { cleanup, render, screen, waitFor } from '@testing-library/preact';
import type { ConsoleCaseFile } from '@kyc/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from './api';
import { CaseMedia } from './CaseMedia';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

/** The parts of a case file the media section reads. */
const file = {
  case: { status: 'GREEN' },
  face: { score: 0.91, threshold: 0.825 },
  images: ['holder'],
  mayReview: false,
} as unknown as ConsoleCaseFile;

const frame = (timeMs: number, compared: boolean) => ({ timeMs, image: 'data:image/jpeg;base64,AA==', compared });

describe('the case file’s face frames', () => {
  it('marks the frames the decision compared with the ID photo and says what the mark means', async () => {
    vi.spyOn(api, 'videoFrames').mockResolvedValue({ durationMs: 9000, frames: [frame(0, false), frame(1750, true), frame(4000, true), frame(8750, false)] });
    const { container } = render(<CaseMedia file={file} uuidTrx="t-1" grantorId={undefined} onSignedOut={() => undefined} />);
    await waitFor(() => expect(container.querySelectorAll('.frames figure')).toHaveLength(4));
    const compared = [...container.querySelectorAll('.frames figure.compared')];
    expect(compared.map((f) => f.querySelector('figcaption')?.textContent)).toEqual(['1.8 s · comparado', '4 s · comparado']);
    expect(screen.getByAltText('Cuadro del video en el segundo 4, comparado con la fotografía de la identificación')).toBeTruthy();
    expect(screen.getByAltText('Cuadro del video en el segundo 0')).toBeTruthy();
    expect(screen.getByText('Los cuadros marcados «comparado» son los que la decisión comparó con la fotografía.')).toBeTruthy();
  });

  it('without compared frames (an older decision) shows no mark and no note', async () => {
    vi.spyOn(api, 'videoFrames').mockResolvedValue({ durationMs: 9000, frames: [frame(0, false), frame(4500, false)] });
    const { container } = render(<CaseMedia file={file} uuidTrx="t-2" grantorId={undefined} onSignedOut={() => undefined} />);
    await waitFor(() => expect(container.querySelectorAll('.frames figure')).toHaveLength(2));
    expect(container.querySelectorAll('.frames figure.compared')).toHaveLength(0);
    expect(screen.queryByText(/marcados «comparado»/)).toBeNull();
  });
});
