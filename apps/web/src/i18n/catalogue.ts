import type { StepTable } from '../steps/table';
import type { texts as ayuda } from './es-MX/ayuda';
import type { texts as cancelar_flujo } from './es-MX/cancelar_flujo';
import type { texts as capture } from './es-MX/capture';
import type { texts as clausula } from './es-MX/clausula';
import type { texts as common } from './es-MX/common';
import type { texts as comprobante } from './es-MX/comprobante';
import type { texts as consulta_historial } from './es-MX/consulta_historial';
import type { texts as datos_direccion_ocr_page } from './es-MX/datos_direccion_ocr_page';
import type { texts as error_pantalla } from './es-MX/error_pantalla';
import type { texts as finalizado } from './es-MX/finalizado';
import type { texts as holograma } from './es-MX/holograma';
import type { texts as identificacion } from './es-MX/identificacion';
import type { texts as inicio } from './es-MX/inicio';
import type { texts as pasos_configuracion } from './es-MX/pasos_configuracion';
import type { texts as pdf_token } from './es-MX/pdf_token';
import type { texts as pdf_token_error } from './es-MX/pdf_token_error';
import type { texts as pdf_token_instructions } from './es-MX/pdf_token_instructions';
import type { texts as pdf_token_result } from './es-MX/pdf_token_result';
import type { texts as pivote } from './es-MX/pivote';
import type { texts as preparacion_comprobante } from './es-MX/preparacion_comprobante';
import type { texts as preparacion_identificacion } from './es-MX/preparacion_identificacion';
import type { texts as resultados_identificacion } from './es-MX/resultados_identificacion';
import type { texts as terminos } from './es-MX/terminos';
import type { texts as validar_movil } from './es-MX/validar_movil';
import type { texts as validar_sms } from './es-MX/validar_sms';
import type { texts as video_token } from './es-MX/video_token';

/**
 * The shape of a locale's texts, from the reference locale es-MX: every string is any string, every text with
 * values is a function of the same arguments, lists stay lists. Another locale (or a grantor's override) typed as
 * `Catalogue[K]` must give every key: a missing or misspelt one is a type error.
 */
export type Texts<T> = T extends string
  ? string
  : T extends (...args: infer A) => string
    ? (...args: A) => string
    : T extends readonly (infer E)[]
      ? readonly Texts<E>[]
      : { readonly [K in keyof T]: Texts<T[K]> };

/** Modules that are not one step's: the shell's texts (entry chunk) and the camera overlays several capture steps share. */
export type SharedModule = 'common' | 'capture';

/**
 * Every customer-facing text of the flow, keyed by step id (steps/table.ts) plus the shared modules. Each key is one
 * module under i18n/<locale>/ that a screen imports for its own step only, so the entry route carries only `common`
 * and `inicio`. The consent steps (validacion_documento, autorizacion_*) share clausula's screens and texts, the link
 * flow's face video (pdf_video_token) video_token's.
 */
export interface Catalogue {
  common: Texts<typeof common>;
  capture: Texts<typeof capture>;
  inicio: Texts<typeof inicio>;
  terminos: Texts<typeof terminos>;
  pasos_configuracion: Texts<typeof pasos_configuracion>;
  preparacion_identificacion: Texts<typeof preparacion_identificacion>;
  holograma: Texts<typeof holograma>;
  identificacion: Texts<typeof identificacion>;
  error_pantalla: Texts<typeof error_pantalla>;
  resultados_identificacion: Texts<typeof resultados_identificacion>;
  datos_direccion_ocr_page: Texts<typeof datos_direccion_ocr_page>;
  clausula: Texts<typeof clausula>;
  video_token: Texts<typeof video_token>;
  preparacion_comprobante: Texts<typeof preparacion_comprobante>;
  comprobante: Texts<typeof comprobante>;
  consulta_historial: Texts<typeof consulta_historial>;
  validar_movil: Texts<typeof validar_movil>;
  validar_sms: Texts<typeof validar_sms>;
  pdf_token: Texts<typeof pdf_token>;
  pdf_token_instructions: Texts<typeof pdf_token_instructions>;
  pdf_token_error: Texts<typeof pdf_token_error>;
  pdf_token_result: Texts<typeof pdf_token_result>;
  finalizado: Texts<typeof finalizado>;
  ayuda: Texts<typeof ayuda>;
  cancelar_flujo: Texts<typeof cancelar_flujo>;
  pivote: Texts<typeof pivote>;
}

/** The catalogue is keyed by step: a key that is neither a step id of the table nor a shared module does not compile. */
type UnknownKeys = Exclude<keyof Catalogue, keyof StepTable | SharedModule>;
type Assert<T extends true> = T;
export type CatalogueKeysAreSteps = Assert<[UnknownKeys] extends [never] ? true : false>;
