/** INE back: everything the flow needs is in the TD1 MRZ (IDMEX + CIC, sección + citizen id, names). */
import { ocrValidityYear } from '@kyc/contracts/rules';
import { mrzNameGivenFirst } from '../mrz-parse.js';
import { mrzAgainstFront, mrzFacts, reconcile } from './mrz-facts.js';
import type { DocumentReader, ParsedSide } from './spec.js';

export const ineBack: DocumentReader = {
  documentType: 'INE',
  side: 'back',
  fields: [],
  parse({ mrz, today, front }): ParsedSide {
    if (!mrz) return { ocrData: {}, extra: {}, warnings: ['mrz_not_found'] };
    const warnings: string[] = [];
    if (!mrz.valid) warnings.push('mrz_check_digits_failed');
    const { text, corrected, lines, checkName } = mrzAgainstFront(mrz, front);
    const [l1 = '', l2 = '', l3 = ''] = lines;
    const ineVigencia = /^\d{2}$/.test(l2.slice(8, 10)) ? ocrValidityYear(l2.slice(8, 10)) : '';
    const seccionMRZ = l1.slice(17, 21);
    if (front) {
      const facts = mrzFacts(mrz, today);
      reconcile('fechaNacimiento', text('fechaNacimiento'), facts.birthDate, facts.trusted.birthDate, warnings);
      reconcile('sexo', text('sexo'), facts.sex, false, warnings);
      reconcile('vigencia', text('vigencia'), ineVigencia, facts.trusted.expiryDate, warnings);
      reconcile('seccion', text('seccion'), seccionMRZ, false, warnings);
      checkName(warnings);
    }
    return {
      ocrData: {
        cadena: lines.join('\n'),
        ineVigencia,
        cicMRZ: l1.slice(5, 14),
        ciudadanoMRZ: l1.slice(21, 30),
        nombreCompletoMRZ: mrzNameGivenFirst(l3),
        seccionMRZ,
      },
      extra: {},
      warnings,
      ...(corrected ? { mrzLines: corrected } : {}),
    };
  },
};
