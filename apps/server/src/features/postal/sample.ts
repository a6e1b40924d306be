import { writeFile } from 'node:fs/promises';

/**
 * A catalogue in the official download's format, written by the project itself (the official file may not be
 * redistributed): Latin-1, CRLF, a notice line, then the header and '|'-delimited rows. The hand-written
 * settlements are real-shaped (real place names, the official column conventions) but are not an extract of
 * the official file.
 */

export const officialHeader = [
  'd_codigo',
  'd_asenta',
  'd_tipo_asenta',
  'D_mnpio',
  'd_estado',
  'd_ciudad',
  'd_CP',
  'c_estado',
  'c_oficina',
  'c_CP',
  'c_tipo_asenta',
  'c_mnpio',
  'id_asenta_cpcons',
  'd_zona',
  'c_cve_ciudad',
].join('|');

const notice = 'El Catálogo Nacional de Códigos Postales de esta muestra lo genera el proyecto para pruebas y demostración; ' + 'no contiene datos de Correos de México.';

interface SampleRow {
  code: string;
  settlement: string;
  settlementType: SettlementType;
  municipality: string;
  state: string;
  city: string;
  office: string;
  stateCode: string;
  settlementTypeCode: string;
  municipalityCode: string;
  settlementId: string;
  zone: 'Urbano' | 'Rural' | 'Semiurbano';
  cityCode: string;
}

const settlementTypeCodes = { Barrio: '02', Colonia: '09', Fraccionamiento: '21', Pueblo: '28' } as const;
type SettlementType = keyof typeof settlementTypeCodes;

type Place = Omit<SampleRow, 'code' | 'settlement' | 'settlementType' | 'settlementTypeCode' | 'settlementId' | 'zone'>;

const alvaroObregon: Place = {
  municipality: 'Álvaro Obregón',
  state: 'Ciudad de México',
  city: 'Ciudad de México',
  office: '01001',
  stateCode: '09',
  municipalityCode: '010',
  cityCode: '01',
};
const metepec: Place = {
  municipality: 'Metepec',
  state: 'México',
  city: 'Metepec',
  office: '52141',
  stateCode: '15',
  municipalityCode: '054',
  cityCode: '10',
};

function row(code: string, settlement: string, settlementType: SettlementType, place: Place, settlementId: string, zone: SampleRow['zone'] = 'Urbano'): SampleRow {
  const settlementTypeCode = settlementTypeCodes[settlementType];
  return { code, settlement, settlementType, settlementTypeCode, settlementId, zone, ...place };
}

const handWrittenRows: readonly SampleRow[] = [
  row('01000', 'San Ángel', 'Colonia', alvaroObregon, '0001'),
  row('01030', 'Axotla', 'Colonia', alvaroObregon, '0005'),
  row('01030', 'Florida', 'Colonia', alvaroObregon, '0006'),
  row('01030', 'Ex-Hacienda de Guadalupe Chimalistac', 'Colonia', alvaroObregon, '0007'),
  row(
    '06700',
    'Roma Norte',
    'Colonia',
    {
      municipality: 'Cuauhtémoc',
      state: 'Ciudad de México',
      city: 'Ciudad de México',
      office: '06001',
      stateCode: '09',
      municipalityCode: '015',
      cityCode: '01',
    },
    '0171',
  ),
  row(
    '15520',
    'Peñón de los Baños',
    'Colonia',
    {
      municipality: 'Venustiano Carranza',
      state: 'Ciudad de México',
      city: 'Ciudad de México',
      office: '15001',
      stateCode: '09',
      municipalityCode: '017',
      cityCode: '01',
    },
    '0410',
  ),
  // Same name twice with different types: the lookup lists it once.
  row('52140', 'San Jerónimo Chicahualco', 'Pueblo', metepec, '0031'),
  row('52140', 'La Asunción', 'Barrio', metepec, '0032'),
  row('52140', 'La Asunción', 'Colonia', metepec, '0033'),
  row('52140', 'Bosques de la Cañada', 'Fraccionamiento', metepec, '0034'),
  row('52140', 'Álamos', 'Fraccionamiento', metepec, '0035'),
  row(
    '64000',
    'Monterrey Centro',
    'Colonia',
    {
      municipality: 'Monterrey',
      state: 'Nuevo León',
      city: 'Monterrey',
      office: '64001',
      stateCode: '19',
      municipalityCode: '039',
      cityCode: '01',
    },
    '0001',
  ),
  row(
    '71360',
    'Santa María Peñoles',
    'Pueblo',
    {
      municipality: 'Santa María Peñoles',
      state: 'Oaxaca',
      city: '',
      office: '71351',
      stateCode: '20',
      municipalityCode: '427',
      cityCode: '',
    },
    '0001',
    'Rural',
  ),
  row(
    '76000',
    'Centro',
    'Colonia',
    {
      municipality: 'Querétaro',
      state: 'Querétaro',
      city: 'Santiago de Querétaro',
      office: '76001',
      stateCode: '22',
      municipalityCode: '014',
      cityCode: '01',
    },
    '0001',
  ),
  row(
    '97000',
    'Mérida Centro',
    'Colonia',
    {
      municipality: 'Mérida',
      state: 'Yucatán',
      city: 'Mérida',
      office: '97001',
      stateCode: '31',
      municipalityCode: '050',
      cityCode: '01',
    },
    '0001',
  ),
];

/** What the tests and the demo may rely on in the sample catalogue. */
export const sampleCatalogueFacts = {
  /** Rows written without `rows`. */
  handWrittenRows: handWrittenRows.length,
  /** Hand-written postal codes; synthetic rows never use them. */
  codes: [...new Set(handWrittenRows.map((r) => r.code))],
  singleSettlement: {
    cp: '06700',
    settlements: [{ municipio: 'Cuauhtémoc', estado: 'Ciudad de México', asentamiento: 'Roma Norte' }],
  },
  /** Five rows, four distinct names (La Asunción twice), in Spanish order (Álamos first). */
  severalSettlements: {
    cp: '52140',
    settlements: [
      { municipio: 'Metepec', estado: 'México', asentamiento: 'Álamos' },
      { municipio: 'Metepec', estado: 'México', asentamiento: 'Bosques de la Cañada' },
      { municipio: 'Metepec', estado: 'México', asentamiento: 'La Asunción' },
      { municipio: 'Metepec', estado: 'México', asentamiento: 'San Jerónimo Chicahualco' },
    ],
  },
  /** Ñ and accents in every name column: proves the Latin-1 decoding. */
  withEnye: {
    cp: '71360',
    settlements: [{ municipio: 'Santa María Peñoles', estado: 'Oaxaca', asentamiento: 'Santa María Peñoles' }],
  },
  /** A well-formed code absent from the sample, with or without synthetic rows. */
  unknownCode: '00999',
} as const;

const states = [
  'Aguascalientes',
  'Baja California',
  'Baja California Sur',
  'Campeche',
  'Coahuila de Zaragoza',
  'Colima',
  'Chiapas',
  'Chihuahua',
  'Ciudad de México',
  'Durango',
  'Guanajuato',
  'Guerrero',
  'Hidalgo',
  'Jalisco',
  'México',
  'Michoacán de Ocampo',
  'Morelos',
  'Nayarit',
  'Nuevo León',
  'Oaxaca',
  'Puebla',
  'Querétaro',
  'Quintana Roo',
  'San Luis Potosí',
  'Sinaloa',
  'Sonora',
  'Tabasco',
  'Tamaulipas',
  'Tlaxcala',
  'Veracruz de Ignacio de la Llave',
  'Yucatán',
  'Zacatecas',
] as const;
const syntheticTypes = [
  ['Colonia', 'Colonia Sintética'],
  ['Fraccionamiento', 'Fraccionamiento Sintético'],
  ['Barrio', 'Barrio Sintético'],
  ['Pueblo', 'Pueblo Sintético'],
] as const;
/** The national file averages about five settlements per postal code. */
const settlementsPerCode = 5;
/** Synthetic codes step through 10000-99999 by a prime, so they are distinct and spread over every range. */
const codeStep = 7_919;
const syntheticCodeCount = 90_000;

function* syntheticCodes(): Generator<string> {
  const taken = new Set<string>(sampleCatalogueFacts.codes);
  for (let index = 0; index < syntheticCodeCount; index += 1) {
    const code = String(10_000 + ((index * codeStep) % syntheticCodeCount));
    if (!taken.has(code)) yield code;
  }
}

export const maxSampleRows = handWrittenRows.length + settlementsPerCode * (syntheticCodeCount - sampleCatalogueFacts.codes.filter((code) => code >= '10000').length);

function syntheticRows(count: number): SampleRow[] {
  const rows: SampleRow[] = [];
  for (const code of syntheticCodes()) {
    const numeric = Number(code);
    const stateIndex = numeric % states.length;
    const municipalityNumber = (Math.floor(numeric / states.length) % 570) + 1;
    const place: Place = {
      municipality: `Municipio Sintético ${municipalityNumber}`,
      state: states[stateIndex] ?? 'México',
      city: numeric % 3 === 0 ? '' : `Ciudad Sintética ${municipalityNumber}`,
      office: `${code.slice(0, 2)}001`,
      stateCode: String(stateIndex + 1).padStart(2, '0'),
      municipalityCode: String(municipalityNumber).padStart(3, '0'),
      cityCode: numeric % 3 === 0 ? '' : '01',
    };
    for (let k = 0; k < settlementsPerCode; k += 1) {
      if (rows.length === count) return rows;
      const [type, prefix] = syntheticTypes[(numeric + k) % syntheticTypes.length] ?? syntheticTypes[0];
      const settlementId = String(k + 1).padStart(4, '0');
      const zone = numeric % 3 === 0 ? 'Rural' : 'Urbano';
      rows.push(row(code, `${prefix} ${code}-${k + 1}`, type, place, settlementId, zone));
    }
  }
  return rows;
}

/** The distinct postal codes of a sample catalogue of `rows` rows, hand-written ones first. */
export function samplePostalCodes(rows: number): string[] {
  const synthetic = syntheticRows(Math.max(0, Math.min(rows, maxSampleRows) - handWrittenRows.length));
  return [...new Set([...sampleCatalogueFacts.codes, ...synthetic.map((r) => r.code)])];
}

function officialLine(r: SampleRow): string {
  return [
    r.code,
    r.settlement,
    r.settlementType,
    r.municipality,
    r.state,
    r.city,
    r.office,
    r.stateCode,
    r.office,
    '',
    r.settlementTypeCode,
    r.municipalityCode,
    r.settlementId,
    r.zone,
    r.cityCode,
  ].join('|');
}

/**
 * Writes the sample catalogue to `filePath` in the official format: the hand-written rows, then, when `rows`
 * exceeds their number, synthetic rows ('Colonia Sintética 10234-1', …, five per code, codes 10000-99999) up to
 * `rows` in all (at most `maxSampleRows`). Returns the number of rows written.
 */
export async function writeSampleCatalogue(filePath: string, options: { rows?: number } = {}): Promise<number> {
  const wanted = options.rows ?? handWrittenRows.length;
  if (!Number.isInteger(wanted) || wanted < 0 || wanted > maxSampleRows) {
    throw new RangeError(`rows must be an integer between 0 and ${maxSampleRows}, got ${options.rows}`);
  }
  const rows = [...handWrittenRows, ...syntheticRows(Math.max(0, wanted - handWrittenRows.length))];
  const text = [notice, officialHeader, ...rows.map(officialLine), ''].join('\r\n');
  const outsideLatin1 = /[^\u0000-\u00ff]/.exec(text);
  if (outsideLatin1) throw new Error(`sample catalogue text has a character outside Latin-1: ${outsideLatin1[0]}`);
  await writeFile(filePath, Buffer.from(text, 'latin1'));
  return rows.length;
}

/** The name the sample is imported under, so that the server can tell the sample from an official catalogue. */
export const sampleCatalogueFileName = 'CPdescarga-muestra.txt';
