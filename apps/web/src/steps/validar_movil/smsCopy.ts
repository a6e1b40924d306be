import { errorTexts } from '@kyc/contracts/texts';

/** Texts of the credit-history consent and the SMS screens (es-MX). `spec` marks the spec's own words. */
export const smsCopy = {
  consent: {
    accept: 'He leído y acepto la consulta de mi historial crediticio.',
    accepted: 'Registramos tu autorización. Continuamos en un momento…',
  },
  mobile: {
    title: 'Autorizaste la consulta de tu historial crediticio',
    intro: 'Un asesor debe validar tu solicitud. Para contactarte, ingresa tu número de teléfono celular y te enviaremos un código de verificación por SMS.',
    label: 'Número de celular',
    hint: (digits: number) => `${digits} dígitos, sin espacios.`,
    continue: 'CONTINUAR', // spec
    sending: 'Enviando el código…',
    sendFailed: 'No pudimos enviar el código. Revisa tu número e intenta nuevamente.',
  },
  code: {
    title: 'Ingresa tu código',
    sentTo: 'Enviamos un código de verificación por SMS al número',
    label: 'Código de verificación',
    hint: 'El código tiene 6 dígitos.',
    validate: 'VALIDAR CÓDIGO', // spec (accent restored)
    validating: 'Validando el código…',
    resend: 'Reenviar código', // spec (accent restored)
    resendIn: (seconds: number) => `Podrás solicitar un nuevo código en ${seconds} s.`,
    resent: 'Te enviamos un nuevo código.',
    failed: errorTexts.smsFailed, // docs/flow.md §8
    verified: 'Validamos tu número. Continuamos en un momento…',
  },
} as const;

/** Spec §9: country prefix 52, 51 in the DNI variant; digits of a mobile number there. */
export function phoneRules(dniVariant: boolean): { areaCode: '52' | '51'; digits: number } {
  return dniVariant ? { areaCode: '51', digits: 9 } : { areaCode: '52', digits: 10 };
}

/** Only digits are kept while typing (the spec asks only for a non-empty value). */
export function digitsOnly(value: string, max: number): string {
  return value.replace(/\D/g, '').slice(0, max);
}

/** '+52 55 1234 5678' for 10 digits; other lengths in groups of three. */
export function formatPhone(areaCode: string, number: string): string {
  const groups = number.length === 10 ? [number.slice(0, 2), number.slice(2, 6), number.slice(6)] : (number.match(/.{1,3}/g) ?? [number]);
  return `+${areaCode} ${groups.join(' ')}`;
}
