import { describe, expect, it } from 'vitest';
import { isCurpCheckDigitValid } from '@kyc/contracts/rules';
import { asNameFields, curpLetterAgreement, enyeAsCodesSpell, namesConfirmedByCurp, namesVotedByLine, withoutContradictedLines } from '../../../src/engines/ocr/fields/ine-names.js';

// Real-rule codes of the generator's holders (check digits verified below).
const URSULA = 'NUUU010620MCMXRRS3'; // URSULA NUÑEZ UREÑA
const ANA = 'HERA960601MASRYN00'; // ANA SOFIA HERRERA REYES
const EFRAIN = 'MURE571212HMNXMF63'; // EFRAIN MUÑOZ ROMERO
const EFRAIN_CLAVE = 'MXRMEF57121216H742';

describe('names checked against the CURP', () => {
  it('uses sound CURPs', () => {
    for (const curp of [URSULA, ANA, EFRAIN]) expect(isCurpCheckDigitValid(curp)).toBe(true);
  });

  it('counts the seven letters the CURP spells', () => {
    expect(curpLetterAgreement(asNameFields(['NUÑEZ', 'UREÑA', 'URSULA']), URSULA)).toBe(7);
    // A stray letter before the second surname, and the Ñ read as N.
    expect(curpLetterAgreement(asNameFields(['NUNEZ', 'CURENA', 'URSULA']), URSULA)).toBe(5);
  });

  it('takes the reading the CURP confirms most, the first one on a tie, only three-line readings against it', () => {
    expect(
      namesConfirmedByCurp(
        [
          ['NUNEZ', 'CURENA', 'URSULA'],
          ['NUNEZ', 'URENA'],
          ['NUNEZ', 'URENA', 'URSULA'],
        ],
        URSULA,
      ),
    ).toEqual(['NUNEZ', 'URENA', 'URSULA']);
    expect(
      namesConfirmedByCurp(
        [
          ['VAZOVEZ', 'YAÑEZ', 'RAUL'],
          ['VAZQUEZ', 'YAÑEZ', 'RAUL'],
        ],
        'VAYR780102HCLZXL82',
      ),
    ).toEqual(['VAZOVEZ', 'YAÑEZ', 'RAUL']);
  });

  it('takes off an Ñ where the CURP spells N, and puts back one both codes spell X', () => {
    expect(enyeAsCodesSpell(['HERRERA', 'REYES', 'AÑA SOFIA'], ANA, 'HRRYAN96060101M087')).toEqual(['HERRERA', 'REYES', 'ANA SOFIA']);
    expect(enyeAsCodesSpell(['MUNOZ', 'ROMERO', 'EFRAIN'], EFRAIN, EFRAIN_CLAVE)).toEqual(['MUÑOZ', 'ROMERO', 'EFRAIN']);
    // The CURP alone does not add a tilde: the clave must spell X too.
    expect(enyeAsCodesSpell(['MUNOZ', 'ROMERO', 'EFRAIN'], EFRAIN, 'MNRMEF57121216H742')).toEqual(['MUNOZ', 'ROMERO', 'EFRAIN']);
    // An Ñ past the first inner consonant is not the codes' to judge.
    expect(enyeAsCodesSpell(['NUÑEZ', 'URENA', 'URSULA'], URSULA, 'NXURUR01062006M382')).toEqual(['NUÑEZ', 'URENA', 'URSULA']);
    expect(enyeAsCodesSpell(['NUNEZ', 'UREÑA'], URSULA, 'NXURUR01062006M382')).toEqual(['NUNEZ', 'UREÑA']);
  });

  it('leaves empty a line whose letters the CURP all contradicts, and keeps one with a letter off', () => {
    expect(withoutContradictedLines(['MUÑOZ', 'ROMERO', 'XO'], EFRAIN)).toEqual(['MUÑOZ', 'ROMERO', '']);
    expect(withoutContradictedLines(['MUÑOZ', 'ROMERO', 'EFRAIN'], EFRAIN)).toEqual(['MUÑOZ', 'ROMERO', 'EFRAIN']);
    // A misread initial: the inner consonant still agrees.
    expect(withoutContradictedLines(['MUÑOZ', 'KOMERO', 'EFRAIN'], EFRAIN)).toEqual(['MUÑOZ', 'KOMERO', 'EFRAIN']);
  });

  describe('each line voted among the readings', () => {
    const RAUL = 'VAYR780102HCLZXL82'; // RAUL VAZQUEZ YAÑEZ
    // The readings of an E/F front's packed names (generated card, clean photo): the page read at 0.7 scale and three
    // crop re-reads, with their lines' word confidences.
    const page = { lines: ['VAZOVEZ', 'YANEZ', 'RAUL'], lineConfidences: [38, 57, 57] };
    const crops = [
      { lines: ['A', 'YANEZ', 'RAUL'], lineConfidences: [36, 85, 96] },
      { lines: ['VAZQUEZ', 'YAÑEZ', 'RAUL'], lineConfidences: [96, 63, 49] },
      { lines: ['VALQUEZ', 'YANEZ', 'RAUL'], lineConfidences: [0, 92, 96] },
    ];

    it("takes the surest version the CURP confirms as well, of the same words' lengths", () => {
      // The CURP spells YAÑEZ's Ñ as X: the reading that kept the tilde is confirmed on one more letter.
      expect(namesVotedByLine(['VAZOVEZ', 'YANEZ', 'RAUL'], [page, ...crops], RAUL)).toEqual(['VAZQUEZ', 'YAÑEZ', 'RAUL']);
    });

    it('never takes a surer version whose letters the CURP contradicts', () => {
      const sure = { lines: ['VALQUEZ', 'YANEZ', 'RAUL'], lineConfidences: [99, 99, 99] };
      expect(namesVotedByLine(['VAZOVEZ', 'YANEZ', 'RAUL'], [page, sure], RAUL)).toEqual(['VAZOVEZ', 'YANEZ', 'RAUL']);
    });

    it('never takes a version that lost or split a word', () => {
      const lost = { lines: ['VAZQUEZ', 'YANEZ', 'RAUL'], lineConfidences: [96, 96, 96] };
      expect(namesVotedByLine(['VAZQUEZ', 'YANEZ', 'RAUL ANTONIO'], [{ lines: ['VAZQUEZ', 'YANEZ', 'RAUL ANTONIO'], lineConfidences: [60, 60, 40] }, lost], RAUL)).toEqual([
        'VAZQUEZ',
        'YANEZ',
        'RAUL ANTONIO',
      ]);
    });

    it('goes with the version more readings agree with before the surest, and keeps the chosen line on a tie', () => {
      const twice = [
        { lines: ['VAZQUEZ', 'YANEZ', 'RAUL'], lineConfidences: [50, 60, 60] },
        { lines: ['VÁZQUEZ', 'YANEZ', 'RAUL'], lineConfidences: [45, 60, 60] },
      ];
      const once = { lines: ['VAZOVEZ', 'YANEZ', 'RAUL'], lineConfidences: [90, 60, 60] };
      expect(namesVotedByLine(['VAZOVEZ', 'YANEZ', 'RAUL'], [once, ...twice], RAUL)[0]).toBe('VAZQUEZ');
      const even = { lines: ['VAZQUEZ', 'YANEZ', 'RAUL'], lineConfidences: [90, 60, 60] };
      expect(namesVotedByLine(['VAZOVEZ', 'YANEZ', 'RAUL'], [once, even], RAUL)[0]).toBe('VAZOVEZ');
    });

    it('leaves two-line names as they are', () => {
      expect(namesVotedByLine(['NUÑEZ', 'URSULA'], crops, URSULA)).toEqual(['NUÑEZ', 'URSULA']);
    });
  });
});
