import { describe, expect, it } from 'vitest';
import { sameCard, type SideRead } from '../src/features/id-capture/same-card.js';

// What the OCR engine read from the generated INE of JOSÉ LUIS IÑIGUEZ LÓPEZ (packages/fixtures, seed 21).
const front: SideRead = {
  documentType: 'INE',
  side: 'front',
  ocrData: {
    nombreCompleto: 'JOSÉ LUIS IÑIGUEZ LÓPEZ',
    nombres: 'JOSÉ LUIS',
    apellidoPaterno: 'IÑIGUEZ',
    apellidoMaterno: 'LÓPEZ',
    fechaNacimiento: '15/04/1961',
    sexo: 'H',
    curp: 'IILL610415HSPXPS23',
    claveElector: 'IXLPJS61041524H511',
    seccion: '4950',
    vigencia: '2030',
  },
};
const ownBack: SideRead = {
  documentType: 'INE',
  side: 'back',
  ocrData: {},
  mrzLines: ['IDMEX8593570793<<4950401198127', '6104151M3012316MEX<<<<<<<<<<<3', 'INIGUEZ<LOPEZ<<JOSE<LUIS<<<<<<'],
};
// The back of another generated INE (ALEJANDRO CRUZ VÁZQUEZ).
const otherBack: SideRead = {
  ...ownBack,
  mrzLines: ['IDMEX2672130021<<3885260174463', '7112188M2712310MEX<<<<<<<<<<<1', 'CRUZ<VAZQUEZ<<ALEJANDRO<<<<<<<'],
};
const withFront = (over: Record<string, unknown>): SideRead => ({ ...front, ocrData: { ...front.ocrData, ...over } });
const withLines = (lines: string[]): SideRead => ({ ...ownBack, mrzLines: lines });

describe('sameCard: a back belongs to the card whose front was read', () => {
  it('accepts the back of the same card, comparing name, birth date, sección and validity', () => {
    expect(sameCard(front, ownBack)).toEqual({ same: true, compared: ['nombre', 'fechaNacimiento', 'seccion', 'vigencia'] });
  });

  it('tolerates OCR misreads of the front: a letter of the name, a digit of the birth date, one secondary fact', () => {
    expect(sameCard(withFront({ apellidoPaterno: 'INIGUES' }), ownBack).same).toBe(true);
    expect(sameCard(withFront({ fechaNacimiento: '15/04/1967' }), ownBack).same).toBe(true);
    expect(sameCard(withFront({ seccion: '4958', vigencia: '2030' }), ownBack).same).toBe(true);
    // Unread fields are not held against the card; the CURP gives the birth date when the date was not read.
    expect(sameCard(withFront({ fechaNacimiento: '', seccion: '', vigencia: '' }), ownBack).same).toBe(true);
    expect(sameCard(withFront({ fechaNacimiento: '', curp: 'IILL720816HSPXPS23' }), ownBack)).toMatchObject({ same: false, reason: 'other_card' });
  });

  it('compares a long name only as far as the zone could hold it', () => {
    const longFront = withFront({ nombres: 'MARIA DE LOS ANGELES GUADALUPE', apellidoPaterno: 'HERNANDEZ', apellidoMaterno: 'MONTENEGRO', fechaNacimiento: '15/04/1961' });
    const cut = withLines([ownBack.mrzLines![0]!, ownBack.mrzLines![1]!, 'HERNANDEZ<MONTENEGRO<<MARIA<DE']);
    expect(sameCard(longFront, cut).same).toBe(true);
  });

  it("refuses another person's back: name and birth date disagree", () => {
    expect(sameCard(front, otherBack)).toMatchObject({ same: false, reason: 'other_card' });
    // Same name, another person: the birth date decides.
    expect(sameCard(front, withLines([ownBack.mrzLines![0]!, '7112188M3012316MEX<<<<<<<<<<<1', ownBack.mrzLines![2]!]))).toMatchObject({ same: false, reason: 'other_card' });
    // Same name and birth date on another card: sección and validity both disagree.
    expect(sameCard(front, withLines(['IDMEX2672130021<<3885260174463', '6104151M2712310MEX<<<<<<<<<<<1', ownBack.mrzLines![2]!]))).toMatchObject({ same: false, reason: 'other_card' });
  });

  it('refuses the front shown again, even when print on it passes for a zone', () => {
    expect(sameCard(front, { ...front })).toMatchObject({ same: false, reason: 'front_again' });
    expect(sameCard(front, withLines(['HRMAFECHADENACIMIENTOISIOAII9GISECCIONA9SO<<', 'MVIGENCIA2OZO20308M1S0N0255W<<<<<<<<<<<<<<<<']))).toMatchObject({ same: false, reason: 'front_again' });
    // 'CIC u OCR: FECHADENA': a zone-looking line without a CIC.
    expect(sameCard(front, withLines(['IDMEXFECHADENA<<4950401198127', ownBack.mrzLines![1]!, ownBack.mrzLines![2]!]))).toMatchObject({ same: false, reason: 'front_again' });
    expect(sameCard(front, { ...ownBack, mrzLines: undefined })).toMatchObject({ same: false, reason: 'front_again' });
  });

  it('refuses another document type', () => {
    const dniBack: SideRead = {
      documentType: 'DNI_PERU',
      side: 'back',
      ocrData: {},
      mrzLines: ['I<PER19094888<7<<<<<<<<<<<<<<<', '8804248F3407275PER<<<<<<<<<<<2', 'QUISPE<CONDORI<<ROSA<MARIA<<<<'],
    };
    expect(sameCard(front, dniBack)).toMatchObject({ same: false, reason: 'other_document' });
    expect(sameCard(front, { documentType: 'PASAPORTE', side: 'front', ocrData: {} })).toMatchObject({ same: false, reason: 'other_document' });
    // A Peru DNI front followed by its own back passes; its DNI number is held against the zone's.
    const dniFront: SideRead = {
      documentType: 'DNI_PERU',
      side: 'front',
      ocrData: { nombres: 'ROSA MARÍA', apellidoPaterno: 'QUISPE', apellidoMaterno: 'CONDORI', fechaNacimiento: '24/04/1988', dni: '19094888' },
    };
    expect(sameCard(dniFront, dniBack).same).toBe(true);
    expect(sameCard({ ...dniFront, ocrData: { ...dniFront.ocrData, dni: '46027896' } }, dniBack)).toMatchObject({ same: false, reason: 'other_card' });
    expect(sameCard(dniFront, ownBack)).toMatchObject({ same: false, reason: 'other_document' });
  });
});
