import { describe, it, expect } from 'vitest';
import * as rules from './index.js';

describe('rules index', () => {
  it('exports every rule', () => {
    const expected = [
      'messages',
      'limits',
      'fieldMaxLength',
      'normaliseUpperTrim',
      'trimCurp',
      'isCalendarDate',
      'fullYearFromTwoDigits',
      'parseStrictDate',
      'parseFlexibleDate',
      'formatDate',
      'isAfterToday',
      'maskDate',
      'curpStateCodes',
      'curpSexCodes',
      'isCurpFormat',
      'curpCheckDigit',
      'isCurpCheckDigitValid',
      'curpBirthDate',
      'curpSex',
      'curpState',
      'nombreCompleto',
      'fechaNacimiento',
      'curp',
      'vigencia',
      'vigenciaPasaporte',
      'dni',
      'codigoPostal',
      'required',
      'optional',
      'fieldValidators',
      'validateField',
      'validateForm',
      'normaliseOcrBirthDate',
      'ocrCurpOrEmpty',
      'ocrValidityYear',
      'frontDataCheck',
      'clauseButtonEnabled',
      'isIneValidityValid',
      'isPassportValidityValid',
      'storedValidity',
      'documentTypes',
      'documentType',
      'isTruthyParam',
      'isFalso',
    ];
    expect(Object.keys(rules).sort()).toEqual([...expected].sort());
  });
});
