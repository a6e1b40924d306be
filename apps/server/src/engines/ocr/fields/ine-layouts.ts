/**
 * The labels of the INE/IFE "credencial para votar" fronts in circulation and roughly where each model prints
 * them (top-left corner of the label, fractions of the card). Positions serve only to place labels the OCR
 * missed, after the ones it found have fixed the card's scale and offset; values are always read next to their
 * label. Sources and uncertainty of each layout: docs/decisions.md "INE/IFE front layouts".
 */
import type { LabelSpec } from './labels.js';

export const INE_LABELS: LabelSpec[] = [
  { key: 'NOMBRE', texts: ['NOMBRE', 'NAME'] },
  { key: 'DOMICILIO', texts: ['DOMICILIO', 'ADDRESS'] },
  { key: 'CLAVE', texts: ['CLAVE DE ELECTOR'] },
  { key: 'CURP', texts: ['CURP'] },
  { key: 'REGISTRO', texts: ['AÑO DE REGISTRO'] },
  { key: 'NACIMIENTO', texts: ['FECHA DE NACIMIENTO', 'DATE OF BIRTH'] },
  { key: 'SEXO', texts: ['SEXO', 'SEX'] },
  { key: 'SECCION', texts: ['SECCIÓN'] },
  { key: 'VIGENCIA', texts: ['VIGENCIA', 'VIGENCIA HASTA'] },
  { key: 'EMISION', texts: ['EMISIÓN'] },
  // ESTADOS UNIDOS: the country of a foreign address, on the credential issued abroad.
  { key: 'ESTADO', texts: ['ESTADO'], notThese: ['ESTADOS'] },
  { key: 'MUNICIPIO', texts: ['MUNICIPIO'] },
  { key: 'LOCALIDAD', texts: ['LOCALIDAD'] },
  { key: 'LUGAR', texts: ['LUGAR DE NACIMIENTO', 'PLACE OF BIRTH'] },
  { key: 'EDAD', texts: ['EDAD'] },
  { key: 'FOLIO', texts: ['FOLIO'] },
];

/**
 * Words printed on the card that are never part of a name or an address: labels (both languages) and the
 * header. Short words that are also name particles (DE, LA, EL) are not listed.
 */
export const INE_NON_VALUE_WORDS = [
  'NOMBRE',
  'NAME',
  'DOMICILIO',
  'ADDRESS',
  'CLAVE',
  'ELECTOR',
  'CURP',
  'REGISTRO',
  'FECHA',
  'NACIMIENTO',
  'SEXO',
  'SECCION',
  'VIGENCIA',
  'EMISION',
  'ESTADO',
  'MUNICIPIO',
  'LOCALIDAD',
  'LUGAR',
  'EDAD',
  'FOLIO',
  'HASTA',
  'DESDE',
  'EXTRANJERO',
  'INSTITUTO',
  'NACIONAL',
  'FEDERAL',
  'ELECTORAL',
  'CREDENCIAL',
  'VOTAR',
  'MEXICO',
  'BIRTH',
  'PLACE',
  'DATE',
  'SEX',
  'OF',
  'MUESTRA',
  'FIRMA',
];

export type IneModel = 'G/H' | 'desde el extranjero' | 'E/F' | 'IFE D/E' | 'sintético';

export interface IneLayout {
  model: IneModel;
  /** Label key → top-left corner (fractions of the card's width and height). */
  labels: Record<string, [number, number]>;
  /** Lines of the address block (a foreign address runs longer). */
  addressLines: number;
  /**
   * Labels whose value this model prints under the label rather than beside it: when neither place held the value
   * in the page read, the value is cut again from under the label (the E/F birth date, right-aligned below it).
   */
  stacked?: readonly string[];
  /**
   * A word of the header that only this model prints (the credential issued abroad says so in large capitals,
   * the IFE names the federal institute): read far more often than the small labels on a blurred photo.
   */
  headerWord?: string;
}

export const INE_LAYOUTS: IneLayout[] = [
  {
    model: 'G/H',
    labels: {
      NOMBRE: [0.2875, 0.22],
      SEXO: [0.78, 0.22],
      DOMICILIO: [0.2875, 0.4],
      CLAVE: [0.2875, 0.556],
      CURP: [0.2875, 0.598],
      REGISTRO: [0.61, 0.598],
      NACIMIENTO: [0.2875, 0.64],
      SECCION: [0.59, 0.64],
      VIGENCIA: [0.72, 0.64],
    },
    addressLines: 3,
  },
  {
    model: 'desde el extranjero',
    labels: {
      NOMBRE: [0.2875, 0.22],
      NACIMIENTO: [0.725, 0.22],
      SEXO: [0.725, 0.31],
      DOMICILIO: [0.2875, 0.4],
      CLAVE: [0.2875, 0.55],
      CURP: [0.2875, 0.59],
      REGISTRO: [0.61, 0.59],
      LUGAR: [0.2875, 0.63],
      ESTADO: [0.2875, 0.72],
      EMISION: [0.39, 0.72],
      VIGENCIA: [0.5, 0.72],
    },
    addressLines: 4,
    headerWord: 'EXTRANJERO',
    stacked: ['NACIMIENTO', 'SEXO', 'ESTADO', 'EMISION', 'VIGENCIA'],
  },
  {
    model: 'E/F',
    // Measured on the IFE's own specimen of this layout (the card of MARGARITA GOMEZ VELAZQUEZ, 2008; INE's E and F
    // of 2014-2019 print the same rows under the new institute's name): docs/decisions.md "The E/F layout from the
    // issuer's specimen".
    labels: {
      NOMBRE: [0.297, 0.276],
      NACIMIENTO: [0.769, 0.281],
      SEXO: [0.855, 0.387],
      DOMICILIO: [0.297, 0.476],
      CLAVE: [0.295, 0.689],
      CURP: [0.297, 0.737],
      REGISTRO: [0.697, 0.746],
      ESTADO: [0.295, 0.814],
      MUNICIPIO: [0.508, 0.816],
      SECCION: [0.744, 0.81],
      LOCALIDAD: [0.289, 0.881],
      EMISION: [0.509, 0.876],
      VIGENCIA: [0.746, 0.883],
    },
    addressLines: 3,
    stacked: ['NACIMIENTO'],
  },
  {
    model: 'IFE D/E',
    labels: {
      NOMBRE: [0.3, 0.25],
      EDAD: [0.75, 0.25],
      SEXO: [0.75, 0.32],
      DOMICILIO: [0.3, 0.45],
      FOLIO: [0.3, 0.63],
      REGISTRO: [0.62, 0.63],
      CLAVE: [0.3, 0.69],
      CURP: [0.3, 0.75],
      ESTADO: [0.3, 0.81],
      MUNICIPIO: [0.45, 0.81],
      SECCION: [0.6, 0.81],
      LOCALIDAD: [0.3, 0.87],
      EMISION: [0.45, 0.87],
      VIGENCIA: [0.6, 0.87],
    },
    addressLines: 3,
    headerWord: 'FEDERAL',
  },
  {
    // The card packages/fixtures drew before it drew the real models (kept: older test images use it).
    model: 'sintético',
    labels: {
      NOMBRE: [0.2875, 0.22],
      SEXO: [0.805, 0.22],
      DOMICILIO: [0.2875, 0.403],
      CLAVE: [0.2875, 0.585],
      CURP: [0.2875, 0.637],
      REGISTRO: [0.6475, 0.637],
      NACIMIENTO: [0.2875, 0.69],
      SECCION: [0.6475, 0.69],
      VIGENCIA: [0.2875, 0.742],
      EMISION: [0.6475, 0.742],
    },
    addressLines: 3,
  },
];
