import { maxParamValueLength } from '../../domain/grantor-params.js';

/**
 * The Spanish text of a refused parameter value on the settings screen. Whether a value is refused is decided by
 * domain/grantor-params.ts paramValueProblem (the rules `kyc-grantor set` applies); this only says, by the
 * parameter's kind, what it must be.
 */
export function paramProblemText(id: string, value: string): string {
  if (value.length > maxParamValueLength) return `Máximo ${maxParamValueLength.toLocaleString('es-MX')} caracteres.`;
  if (id.startsWith('COLOR_')) return 'Debe ser un color como #0B4F8A.';
  if (id.startsWith('INTENTOS_')) return 'Debe ser un número entero de 1 a 999.';
  if (id === 'LOGO_OTORGANTE' || id === 'ICONO_ID_CHECK') return 'Debe ser una imagen data:image/… o una ruta de este servidor (la CSP bloquea imágenes externas).';
  if (id.startsWith('EMAIL_')) return 'Debe ser un correo electrónico.';
  if (id.startsWith('URL_')) return 'Debe ser una dirección https://.';
  if (id === 'ORIGENES_LAUNCHER') return 'Deben ser orígenes separados por comas, como https://tienda.example.';
  if (id === 'MOVIMIENTOS_VIDEO_TOKEN') return 'Debe ser 0, 1 o 2.';
  if (id === 'MODO_VIDEO_TOKEN') return 'Debe ser «grabacion» o «tiempo_real».';
  if (id.startsWith('UMBRAL_')) return 'Debe ser un número de 0 a 1 (por ejemplo, 0.75).';
  return 'Debe ser true, false, VERDADERO o FALSO.';
}
