import { errorTexts } from '@kyc/contracts/texts';

/** Texts of /validar_sms (the SMS code). `spec` marks the spec's own words. */
export const texts = {
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
} as const;
