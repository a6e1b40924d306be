import { describe, expect, it } from 'vitest';
import { userDataOf } from '../../src/features/results/documents-service.js';
import type { EvidenceRecord } from '../../src/store/evidence.js';

const record = (kind: string, payload: unknown): EvidenceRecord => ({ id: kind, kind, blobKey: null, sha256: null, createdAt: new Date(), payload });

describe('the lender sees which confirmed data the person typed (docs/flow.md §4 "No dead ends")', () => {
  it('marks a typed value in the report rows, and a typed name in its own row', () => {
    const { name, rows } = userDataOf([
      record('data_user', [
        { description: 'nombreCompleto', value: 'JOSÉ LUIS IÑIGUEZ LÓPEZ', typed: true },
        { description: 'curp', value: 'IILL610415HSPXPS23' },
        { description: 'vigencia', value: '31/12/2030', typed: true },
      ]),
    ]);
    expect(name).toBe('JOSÉ LUIS IÑIGUEZ LÓPEZ');
    expect(rows).toEqual([
      ['Nombre completo', 'JOSÉ LUIS IÑIGUEZ LÓPEZ (escrito por la persona, no leído de la identificación)'],
      ['CURP', 'IILL610415HSPXPS23'],
      ['Vigencia', '31/12/2030 (escrito por la persona, no leído de la identificación)'],
    ]);
  });
});
